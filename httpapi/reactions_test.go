package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

func TestReactionsOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet, iago := "hamlet@zulip.com", "iago@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/messages", hamlet, url.Values{
		"type": {"direct"}, "to": {`[1]`}, "content": {"react to me"},
	})
	if status != 200 {
		t.Fatalf("send: %d %v", status, body)
	}
	path := fmt.Sprintf("/api/v1/messages/%d/reactions", int64(body["id"].(float64)))
	status, _, body = s.call(t, http.MethodPost, path, hamlet, url.Values{"emoji_name": {"octopus"}})
	if status != 200 {
		t.Fatalf("add: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, path, hamlet, url.Values{"emoji_name": {"octopus"}})
	wantErr(t, status, body, 400, "REACTION_ALREADY_EXISTS", "Reaction already exists.")
	status, _, body = s.call(t, http.MethodPost, path, hamlet, url.Values{})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'emoji_name' argument")
	status, _, body = s.call(t, http.MethodDelete, path, iago, url.Values{"emoji_code": {"1f419"}})
	wantErr(t, status, body, 400, "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.")
	status, _, body = s.call(t, http.MethodDelete, path, hamlet, url.Values{"emoji_code": {"1f419"}, "reaction_type": {"unicode_emoji"}})
	if status != 200 {
		t.Fatalf("remove: %d %v", status, body)
	}
}
