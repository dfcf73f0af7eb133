package httpapi_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"testing"

	chat "github.com/teamchat/chat"
)

// TestWelcomeBotCustomMessageHTTP checks POST /realm/test_welcome_bot_custom_message: the
// administrator gets the message id of a direct message from welcome-bot@zulip.com; an empty
// text is Zulip's "Message must not be empty", a missing one its missing-argument error, and a
// member is refused.
func TestWelcomeBotCustomMessageHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const iago, hamlet = "iago@zulip.com", "hamlet@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/realm/test_welcome_bot_custom_message", iago, url.Values{"welcome_message_custom_text": {"Welcome aboard"}})
	id, _ := body["message_id"].(float64)
	if status != 200 || id <= 0 {
		t.Fatalf("POST /realm/test_welcome_bot_custom_message: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/messages/"+strconv.Itoa(int(id)), iago, nil)
	msg, _ := body["message"].(map[string]any)
	if status != 200 || msg["sender_email"] != "welcome-bot@zulip.com" || msg["type"] != "private" || msg["content"] != "<p>Welcome aboard</p>" {
		t.Fatalf("GET /messages/%d: %d %v", int(id), status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/test_welcome_bot_custom_message", iago, url.Values{"welcome_message_custom_text": {""}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "Message must not be empty")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/test_welcome_bot_custom_message", iago, nil)
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'welcome_message_custom_text' argument")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/test_welcome_bot_custom_message", hamlet, url.Values{"welcome_message_custom_text": {"Hi"}})
	wantErr(t, status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
}

// TestStreamEmailAddressHTTP checks GET /streams/{stream_id}/email_address on a server with an
// email gateway: Zulip's address form, sender_id choosing another token, and its errors.
func TestStreamEmailAddressHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t, func(o *chat.Options) { o.EmailGatewayPattern = "%s@chat.test" })
	const iago, hamlet = "iago@zulip.com", "hamlet@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/channels/create", iago, url.Values{"name": {"Release Notes"}, "subscribers": {"[]"}})
	if status != 200 {
		t.Fatalf("create channel: %d %v", status, body)
	}
	path := "/api/v1/streams/" + strconv.Itoa(int(body["id"].(float64))) + "/email_address"
	form := regexp.MustCompile(`^release-notes\.[0-9a-f]{32}\.show-sender@chat\.test$`)
	status, _, body = s.call(t, http.MethodGet, path, iago, nil)
	gateway, _ := body["email"].(string)
	if status != 200 || !form.MatchString(gateway) {
		t.Fatalf("GET %s: %d %v", path, status, body)
	}
	me := s.userID(t, iago)
	status, _, body = s.call(t, http.MethodGet, path+"?sender_id="+strconv.Itoa(int(me)), iago, nil)
	if own, _ := body["email"].(string); status != 200 || !form.MatchString(own) || own == gateway {
		t.Errorf("sender_id self: %d %v (gateway's %q)", status, body, gateway)
	}
	status, _, body = s.call(t, http.MethodGet, path+"?sender_id="+strconv.Itoa(int(s.userID(t, hamlet))), iago, nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "No such bot")
	status, _, body = s.call(t, http.MethodGet, "/api/v1/streams/999/email_address", iago, nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid channel ID")
}

// TestEditInviteLinkHTTP checks PATCH /invites/multiuse/{invite_id}: the decoding of its
// parameters (JSON lists, a null welcome text) and its errors.
func TestEditInviteLinkHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const iago, hamlet = "iago@zulip.com", "hamlet@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/invites/multiuse", iago, url.Values{"welcome_message_custom_text": {"Hi"}})
	if status != 200 {
		t.Fatalf("POST /invites/multiuse: %d %v", status, body)
	}
	_, _, body = s.call(t, http.MethodGet, "/api/v1/invites", iago, nil)
	id := strconv.Itoa(int(body["invites"].([]any)[0].(map[string]any)["id"].(float64)))
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/invites/multiuse/"+id, iago, url.Values{
		"invite_as": {"300"}, "stream_ids": {"[]"}, "group_ids": {"[]"}, "include_realm_default_subscriptions": {"true"},
		"welcome_message_custom_text": {"null"},
	})
	if status != 200 {
		t.Fatalf("PATCH: %d %v", status, body)
	}
	_, _, body = s.call(t, http.MethodGet, "/api/v1/invites", iago, nil)
	if inv := body["invites"].([]any)[0].(map[string]any); inv["invited_as"] != 300.0 {
		t.Errorf("after the edit: %v", inv)
	}
	for _, c := range []struct {
		name, as, path string
		form           url.Values
		code, msg      string
	}{
		{"bad stream_ids", iago, id, url.Values{"stream_ids": {"1,2"}}, "BAD_REQUEST", "stream_ids is not valid JSON"},
		{"bad invite_as", iago, id, url.Values{"invite_as": {"7"}}, "BAD_REQUEST", "Invalid invite_as"},
		{"unknown invitation", iago, "999", nil, "BAD_REQUEST", "No such invitation"},
		{"a member", hamlet, id, nil, "BAD_REQUEST", "Insufficient permission"},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, _, body := s.call(t, http.MethodPatch, "/api/v1/invites/multiuse/"+c.path, c.as, c.form)
			wantErr(t, status, body, 400, c.code, c.msg)
		})
	}
}
