package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
)

// web_line_height_percent=120 (the spec's own example) and web_font_size_px=10 are accepted,
// as Zulip accepts them, for a user and as the organization's defaults; a value Zulip cannot
// store is refused and changes nothing.
func TestUpdateSettingsFontAndLineHeight(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		values := map[string]any{"web_line_height_percent": int64(120), "web_font_size_px": int64(10)}
		if _, err := f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{Values: values}); err != nil {
			t.Fatalf("UpdateSettings(%v): %v", values, err)
		}
		if _, err := f.svc.UpdateRealmUserSettingsDefaults(ctx, f.actor("admin"), chat.UpdateRealmUserSettingsDefaultsParams{Values: values}); err != nil {
			t.Fatalf("UpdateRealmUserSettingsDefaults(%v): %v", values, err)
		}
		got := f.settingsOf(t, "member")
		if got["web_line_height_percent"] != int64(120) || got["web_font_size_px"] != int64(10) {
			t.Fatalf("settings = %v %v, want 120 10", got["web_line_height_percent"], got["web_font_size_px"])
		}
		before := f.snapshot(t)
		for _, v := range []map[string]any{{"web_font_size_px": int64(-1)}, {"web_line_height_percent": int64(32768)}} {
			_, err := f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{Values: v})
			wantError(t, err, chat.CodeBadRequest, 400, "")
		}
		if after := f.snapshot(t); after != before {
			t.Fatalf("a refused value changed the store:\n%s\n%s", before, after)
		}
	})
}
