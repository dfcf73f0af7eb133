package chat_test

import (
	"net/http"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

// TestFullNameRules checks Zulip's check_full_name on every path that takes a name (an
// administrator renaming a user, a user renaming themselves, a bot's creation and rename):
// each bad name is refused with Zulip's message and changes nothing; the good ones land.
func TestFullNameRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, full, msg string
	}{
		{"next line U+0085", "Bad\u0085Name", "Invalid characters in name!"},
		{"C1 control U+009F", "Bad\u009fName", "Invalid characters in name!"},
		{"tab", "Bad\tName", "Invalid characters in name!"},
		{"non-character U+FDD0", "Bad\ufdd0Name", "Invalid characters in name!"},
		{"non-character U+1FFFE", "Bad\U0001FFFEName", "Invalid characters in name!"},
		{"markdown star", "Bad*Name", "Invalid characters in name!"},
		{"mention suffix", "Hx|15", "Invalid format!"},
		{"mention suffix long", "Someone|0", "Invalid format!"},
		{"empty", "", "Name must not be empty!"},
		{"blank", "   ", "Name must not be empty!"},
		{"too long", strings.Repeat("n", 101), "Name too long!"},
	}
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		bot, err := f.svc.CreateBot(ctx, f.actor("member"), chat.CreateBotParams{FullName: "Name Bot", ShortName: "namebot"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			before := f.snapshot(t)
			_, err := f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["member"], FullName: &c.full})
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, c.msg)
			_, err = f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{FullName: &c.full})
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, c.msg)
			_, err = f.svc.CreateBot(ctx, f.actor("member"), chat.CreateBotParams{FullName: c.full, ShortName: "other"})
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, c.msg)
			_, err = f.svc.UpdateBot(ctx, f.actor("member"), chat.UpdateBotParams{BotID: bot.UserID, FullName: &c.full})
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, c.msg)
			if f.snapshot(t) != before {
				t.Errorf("%s: refused name changed the store", c.name)
			}
		}
		for _, good := range []string{"X", "Hx|15 ", "Hx|a", "Zoë Ünicode"} {
			if _, err := f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["member"], FullName: &good}); err != nil {
				t.Errorf("UpdateUser(%q): %v", good, err)
			}
		}
	})
}
