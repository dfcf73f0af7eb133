package users_test

import (
	"errors"
	"testing"

	"github.com/teamchat/chat/users"
)

// TestSettingsTable checks the table itself: unique names, defaults of the declared type
// that pass their own check.
func TestSettingsTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, st := range users.SettingsTable() {
		if seen[st.Name] {
			t.Errorf("setting %s listed twice", st.Name)
		}
		seen[st.Name] = true
		if err := st.Check(st.Default); err != nil {
			t.Errorf("default of %s: %v", st.Name, err)
		}
	}
	for _, name := range []string{"web_home_view", "emojiset", "color_scheme", "default_language", "web_channel_default_view",
		"demote_inactive_streams", "user_list_style", "web_animate_image_previews", "hide_ai_features", "notification_sound"} {
		if !seen[name] {
			t.Errorf("setting %s missing", name)
		}
	}
}

func TestSettingCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		value    any
		wantErr  string
		wrongTyp bool
	}{
		{"enter_sends", true, "", false},
		{"enter_sends", "true", "", true},
		{"color_scheme", int64(3), "", false},
		{"color_scheme", int64(0), "Invalid color_scheme", false},
		{"color_scheme", true, "", true},
		{"web_font_size_px", int64(10), "", false},
		{"web_font_size_px", int64(-1), "Invalid web_font_size_px", false},
		{"web_font_size_px", int64(32768), "Invalid web_font_size_px", false},
		{"web_line_height_percent", int64(120), "", false},
		{"web_line_height_percent", int64(32768), "Invalid web_line_height_percent", false},
		{"web_home_view", "recent", "", false},
		{"web_home_view", "recent_topics", "Invalid web_home_view", false},
		{"notification_sound", "none", "", false},
		{"notification_sound", "x", "Invalid notification sound 'x'", false},
		{"default_language", "fr", "", false},
		{"email_address_visibility", int64(6), "Invalid email_address_visibility", false},
	}
	for _, tt := range tests {
		st, ok := users.LookupSetting(tt.name)
		if !ok {
			t.Fatalf("no setting %s", tt.name)
		}
		err := st.Check(tt.value)
		switch {
		case tt.wrongTyp:
			if !errors.Is(err, users.ErrSettingType) {
				t.Errorf("Check(%s, %#v) = %v, want a type error", tt.name, tt.value, err)
			}
		case tt.wantErr == "" && err != nil, tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
			t.Errorf("Check(%s, %#v) = %v, want %q", tt.name, tt.value, err, tt.wantErr)
		}
	}
}

func TestSettingsValues(t *testing.T) {
	t.Parallel()
	var s users.Settings
	if s.Value("emojiset") != "google" {
		t.Errorf("default emojiset = %v", s.Value("emojiset"))
	}
	s.Set("emojiset", "text", false)
	s.Set("enter_sends", true, true)
	c := s.Clone()
	c.Set("emojiset", "google", true)
	if s.Value("emojiset") != "text" || len(s.SelfEdited) != 1 || s.SelfEdited[0] != "enter_sends" {
		t.Errorf("settings = %+v (Clone shares memory or Set marks wrongly)", s)
	}
	for tz, ok := range map[string]bool{"": true, "Europe/Paris": true, "UTC": true, "Mars/Base": false, "Local": false} {
		if err := users.CheckTimezone(tz); (err == nil) != ok {
			t.Errorf("CheckTimezone(%q) = %v", tz, err)
		}
	}
}
