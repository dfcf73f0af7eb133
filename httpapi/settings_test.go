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

// TestDeprecatedSettingsAliases checks PATCH /settings/notifications and PATCH
// /settings/display, the aliases of PATCH /settings that older clients (the python library's
// update_notification_settings) call: each changes the setting and answers as PATCH /settings,
// and refuses bad input the same way.
func TestDeprecatedSettingsAliases(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, tt := range []struct {
		path, name, value string
		want              any
	}{
		{"/api/v1/settings/notifications", "enable_sounds", "false", false},
		{"/api/v1/settings/display", "color_scheme", "3", 3.0},
		{"/json/settings/notifications", "enable_desktop_notifications", "false", false},
	} {
		status, _, body := s.call(t, http.MethodPatch, tt.path, "hamlet@zulip.com", url.Values{tt.name: {tt.value}})
		if status != 200 || body["result"] != "success" {
			t.Fatalf("PATCH %s: %d %v", tt.path, status, body)
		}
		status, _, body = s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", url.Values{"fetch_event_types": {`["user_settings"]`}})
		settings, _ := body["user_settings"].(map[string]any)
		if status != 200 || settings[tt.name] != tt.want {
			t.Errorf("after PATCH %s: %s = %v, want %v", tt.path, tt.name, settings[tt.name], tt.want)
		}
		status, _, body = s.call(t, http.MethodPatch, tt.path, "hamlet@zulip.com", url.Values{"emojiset": {"apple"}})
		wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid emojiset")
	}
}

// TestRegisterDeprecatedJitsiURL checks register's deprecated jitsi_server_url:
// realm_jitsi_server_url when the organization has one, else server_jitsi_server_url.
func TestRegisterDeprecatedJitsiURL(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	fetch := func() map[string]any {
		t.Helper()
		status, _, body := s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", url.Values{"fetch_event_types": {`["realm"]`}})
		if status != 200 {
			t.Fatalf("register: %d %v", status, body)
		}
		return body
	}
	if body := fetch(); body["jitsi_server_url"] != body["server_jitsi_server_url"] || body["jitsi_server_url"] == "" || body["jitsi_server_url"] == nil {
		t.Errorf("without a realm Jitsi: jitsi_server_url %v, server_jitsi_server_url %v", body["jitsi_server_url"], body["server_jitsi_server_url"])
	}
	status, _, body := s.call(t, http.MethodPatch, "/api/v1/realm", "iago@zulip.com", url.Values{"jitsi_server_url": {`"https://jitsi.example.com"`}})
	if status != 200 {
		t.Fatalf("PATCH /realm jitsi_server_url: %d %v", status, body)
	}
	if body := fetch(); body["jitsi_server_url"] != "https://jitsi.example.com" || body["realm_jitsi_server_url"] != "https://jitsi.example.com" {
		t.Errorf("with a realm Jitsi: jitsi_server_url %v, realm_jitsi_server_url %v", body["jitsi_server_url"], body["realm_jitsi_server_url"])
	}
}
