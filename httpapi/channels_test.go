package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSubscribeOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"subscriptions":              {`[{"name":"Verona","description":"Fair *Verona*"},{"name":"Denmark"}]`},
		"principals":                 {`["hamlet@zulip.com","iago@zulip.com"]`},
		"authorization_errors_fatal": {"false"},
		"can_send_message_group":     {`{"direct_members":[],"direct_subgroups":[]}`},
		"topics_policy":              {`"inherit"`},
		"message_retention_days":     {`"realm_default"`},
	})
	if status != 200 {
		t.Fatalf("subscribe: %d %v", status, body)
	}
	want := map[string]any{
		"result": "success", "msg": "",
		"subscribed":         map[string]any{"1": []any{"Denmark", "Verona"}, "2": []any{"Denmark", "Verona"}},
		"already_subscribed": map[string]any{},
		"unauthorized":       []any{},
	}
	if diff := cmp.Diff(want, body); diff != "" {
		t.Fatalf("response (-want +got):\n%s", diff)
	}

	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/me/subscriptions", "iago@zulip.com", url.Values{"include_subscribers": {"true"}})
	if status != 200 {
		t.Fatalf("get subscriptions: %d %v", status, body)
	}
	list := body["subscriptions"].([]any)
	if len(list) != 2 {
		t.Fatalf("subscriptions = %v", list)
	}
	verona := list[1].(map[string]any)
	if verona["name"] != "Verona" || verona["rendered_description"] != "<p>Fair <em>Verona</em></p>" ||
		!cmp.Equal(verona["subscribers"], []any{1.0, 2.0}) ||
		!cmp.Equal(verona["can_send_message_group"], map[string]any{"direct_members": []any{}, "direct_subgroups": []any{}}) {
		t.Fatalf("Verona = %v", verona)
	}

	status, _, body = s.call(t, http.MethodGet, "/api/v1/streams", "hamlet@zulip.com", url.Values{"include_default": {"true"}})
	if status != 200 || len(body["streams"].([]any)) != 2 || body["streams"].([]any)[0].(map[string]any)["is_default"] != false {
		t.Fatalf("streams: %d %v", status, body)
	}
}

func TestCreateChannelOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/channels/create", "iago@zulip.com", url.Values{
		"name": {"Rome"}, "subscribers": {"[2]"}, "invite_only": {"true"},
	})
	if status != 200 || body["id"] != 1.0 {
		t.Fatalf("create: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/channels/create", "iago@zulip.com", url.Values{"name": {"rome"}, "subscribers": {"[]"}})
	wantErr(t, status, body, http.StatusConflict, "CHANNEL_ALREADY_EXISTS", "Channel 'Rome' already exists")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/channels/create", "iago@zulip.com", url.Values{"name": {"x"}})
	wantErr(t, status, body, http.StatusBadRequest, "REQUEST_VARIABLE_MISSING", "Missing 'subscribers' argument")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"subscriptions": {`[{"name":"x"}]`}, "principals": {`[1,"a@b.c"]`},
	})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"subscriptions": {`[{"name":"x"}]`}, "can_send_message_group": {`"x"`},
	})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "Invalid can_send_message_group")
}
