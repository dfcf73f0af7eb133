package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"
)

func TestUpdateSettingsEndpoint(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPatch, "/api/v1/settings", "hamlet@zulip.com", url.Values{
		"enter_sends": {"true"}, "color_scheme": {"2"}, "default_language": {"de"}, "timezone": {"Europe/Berlin"}, "foo": {"1"},
	})
	if status != 200 || len(body["ignored_parameters_unsupported"].([]any)) != 1 {
		t.Fatalf("PATCH /settings: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", url.Values{"fetch_event_types": {`["user_settings"]`}})
	settings, _ := body["user_settings"].(map[string]any)
	if status != 200 || settings["enter_sends"] != true || settings["color_scheme"] != 2.0 || settings["default_language"] != "de" || settings["timezone"] != "Europe/Berlin" {
		t.Errorf("register user_settings: %d %v", status, settings)
	}
	for _, tt := range []struct {
		form url.Values
		msg  string
	}{
		{url.Values{"color_scheme": {`"2"`}}, "color_scheme is not an integer"},
		{url.Values{"enter_sends": {"1"}}, "enter_sends is not a boolean"},
		{url.Values{"emojiset": {"apple"}}, "Invalid emojiset"},
		{url.Values{"target_users": {`{"user_ids":[1],"skip_if_already_edited":true,"x":1}`}, "enter_sends": {"true"}}, ""},
	} {
		status, _, body := s.call(t, http.MethodPatch, "/api/v1/settings", "hamlet@zulip.com", tt.form)
		wantErr(t, status, body, 400, "BAD_REQUEST", tt.msg)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/settings", "iago@zulip.com", url.Values{
		"target_users": {`{"user_ids":[1],"skip_if_already_edited":true}`}, "web_home_view": {"recent"},
	})
	if status != 200 {
		t.Errorf("target_users by an administrator: %d %v", status, body)
	}
}
