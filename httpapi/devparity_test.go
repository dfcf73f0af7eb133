package httpapi_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
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
