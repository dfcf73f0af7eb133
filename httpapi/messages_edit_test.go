package httpapi_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

func TestUpdateMessageOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet, iago := "hamlet@zulip.com", "iago@zulip.com"
	if status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", hamlet, url.Values{
		"subscriptions": {`[{"name":"Verona"},{"name":"Denmark"}]`}, "principals": {`[1,2]`},
	}); status != 200 {
		t.Fatalf("subscribe: %d %v", status, body)
	}
	var ids []string
	for _, content := range []string{"one", "two"} {
		status, _, body := s.call(t, http.MethodPost, "/api/v1/messages", hamlet, url.Values{
			"type": {"stream"}, "to": {"Verona"}, "topic": {"party"}, "content": {content},
		})
		if status != 200 {
			t.Fatalf("send: %d %v", status, body)
		}
		ids = append(ids, strconv.FormatFloat(body["id"].(float64), 'f', -1, 64))
	}
	one, two := "/api/v1/messages/"+ids[0], "/api/v1/messages/"+ids[1]

	status, _, body := s.call(t, http.MethodPatch, one, hamlet, url.Values{"content": {"**edited**"}})
	if status != 200 || body["detached_uploads"] == nil {
		t.Fatalf("edit content: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, one, iago, url.Values{
		"topic": {"lunch"}, "propagate_mode": {"change_all"}, "send_notification_to_old_thread": {"false"},
	})
	if status != 200 {
		t.Fatalf("move topic: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, two, iago, url.Values{"stream_id": {"2"}})
	if status != 200 {
		t.Fatalf("move channel: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, one, iago, nil)
	msg, _ := body["message"].(map[string]any)
	if status != 200 || msg["content"] != "<p><strong>edited</strong></p>" || msg["subject"] != "lunch" ||
		msg["last_edit_timestamp"] == nil || msg["last_moved_timestamp"] == nil || len(msg["edit_history"].([]any)) != 2 {
		t.Fatalf("edited message: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, two, iago, nil)
	if msg, _ := body["message"].(map[string]any); status != 200 || msg["stream_id"] != 2.0 || msg["subject"] != "lunch" {
		t.Fatalf("moved message: %d %v", status, body)
	}

	for _, c := range []struct {
		name   string
		as     string
		form   url.Values
		status int
		code   string
		msg    string
	}{
		{"nothing", hamlet, url.Values{}, 400, "BAD_REQUEST", "Nothing to change"},
		{"same topic", hamlet, url.Values{"topic": {"lunch"}}, 400, "BAD_REQUEST", "Nothing to change"},
		{"topic and subject", hamlet, url.Values{"topic": {"a"}, "subject": {"b"}}, 400, "REQUEST_CONFUSING_VAR", "Can't decide between 'topic' and 'subject' arguments"},
		{"bad propagate_mode", hamlet, url.Values{"topic": {"a"}, "propagate_mode": {"change_some"}}, 400, "BAD_REQUEST", "Invalid propagate_mode"},
		{"stream_id not an integer", hamlet, url.Values{"stream_id": {`"x"`}}, 400, "BAD_REQUEST", "stream_id is not an integer"},
		{"notification not a boolean", hamlet, url.Values{"topic": {"a"}, "send_notification_to_new_thread": {"1"}}, 400, "BAD_REQUEST", "send_notification_to_new_thread is not a boolean"},
		{"propagate without move", hamlet, url.Values{"content": {"x"}, "propagate_mode": {"change_all"}}, 400, "BAD_REQUEST", "Invalid propagate_mode without topic edit"},
		{"content and channel", hamlet, url.Values{"content": {"x"}, "stream_id": {"2"}}, 400, "BAD_REQUEST", "Cannot change message content while changing channel"},
		{"someone else's content", iago, url.Values{"content": {"x"}}, 400, "BAD_REQUEST", "You don't have permission to edit this message"},
		{"resolve general chat", hamlet, url.Values{"topic": {"✔ general chat"}}, 400, "BAD_REQUEST", "General chat cannot be marked as resolved"},
		{"stale prev_content_sha256", hamlet, url.Values{"content": {"x"}, "prev_content_sha256": {"00"}}, 400, "EXPECTATION_MISMATCH", "'prev_content_sha256' value does not match the expected value."},
		{"unknown channel", hamlet, url.Values{"stream_id": {"99"}}, 400, "BAD_REQUEST", "Invalid channel ID"},
	} {
		status, _, body := s.call(t, http.MethodPatch, one, c.as, c.form)
		t.Run(c.name, func(t *testing.T) { wantErr(t, status, body, c.status, c.code, c.msg) })
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/messages/999", hamlet, url.Values{"content": {"x"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid message(s)")
	status, _, body = s.call(t, http.MethodGet, one, iago, nil)
	if msg, _ := body["message"].(map[string]any); status != 200 || msg["content"] != "<p><strong>edited</strong></p>" || msg["subject"] != "lunch" {
		t.Fatalf("refusals changed the message: %v", body)
	}
}

func TestRealmEditingSettingsOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	hamlet, iago := "hamlet@zulip.com", "iago@zulip.com"
	status, _, body := s.call(t, http.MethodPatch, "/api/v1/realm", iago, url.Values{
		"allow_message_editing": {"false"}, "message_content_edit_limit_seconds": {`"unlimited"`},
		"move_messages_between_streams_limit_seconds": {"60"}, "message_edit_history_visibility_policy": {"moves"},
		"can_resolve_topics_group": {`{"new":{"direct_members":[1],"direct_subgroups":[]}}`},
	})
	if status != 200 || body["allow_message_editing"] != false || body["message_content_edit_limit_seconds"] != nil ||
		body["move_messages_between_streams_limit_seconds"] != 60.0 || body["message_edit_history_visibility_policy"] != "moves" {
		t.Fatalf("update: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/register", hamlet, url.Values{"fetch_event_types": {`["realm"]`}})
	if status != 200 || body["realm_allow_message_editing"] != false || body["realm_message_content_edit_limit_seconds"] != nil ||
		body["realm_move_messages_between_streams_limit_seconds"] != 60.0 || body["realm_allow_edit_history"] != true {
		t.Fatalf("register: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/messages", hamlet, url.Values{"type": {"direct"}, "to": {"[1]"}, "content": {"hi"}})
	if status != 200 {
		t.Fatalf("send: %d %v", status, body)
	}
	id := strconv.FormatFloat(body["id"].(float64), 'f', -1, 64)
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/messages/"+id, hamlet, url.Values{"content": {"edited"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "Your organization has turned off message editing")

	for _, c := range []struct {
		form url.Values
		msg  string
	}{
		{url.Values{"message_content_edit_limit_seconds": {"0"}}, "Invalid message_content_edit_limit_seconds"},
		{url.Values{"move_messages_within_stream_limit_seconds": {`"forever"`}}, "Invalid move_messages_within_stream_limit_seconds"},
		{url.Values{"message_edit_history_visibility_policy": {"some"}}, "Invalid message_edit_history_visibility_policy"},
		{url.Values{"allow_message_editing": {"yes"}}, "allow_message_editing is not valid JSON"},
		{url.Values{"can_move_messages_between_channels_group": {`{"new":7}`}}, "'can_move_messages_between_channels_group' setting cannot be set to 'role:everyone' group."},
	} {
		status, _, body := s.call(t, http.MethodPatch, "/api/v1/realm", iago, c.form)
		wantErr(t, status, body, 400, "BAD_REQUEST", c.msg)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/realm", hamlet, url.Values{"allow_message_editing": {"true"}})
	if status != 400 {
		t.Errorf("a member changed the settings: %d %v", status, body)
	}
}
