package chat_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
)

// TestHideLinkPreviewsFlag: hide_link_previews is a flag users set and clear (feature level
// 510), on any message they can read, shown in the message's flags and sent in
// update_message_flags events. Before, it was "Invalid flag".
func TestHideLinkPreviewsFlag(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		c := mustChannel(t, f, "links", chat.NewChannelSettings{}, "owner", "member")
		withLink := mustSendToChannel(t, f, "owner", c, "t", "see https://example.com/page")
		plain := mustSendToChannel(t, f, "owner", c, "t", "no link here")
		q := f.register(t, "member", "update_message_flags")
		flagsOf := func(id messages.ID) []string {
			t.Helper()
			for _, m := range fetch(t, f, "member", chat.GetMessagesParams{Anchor: "newest", NumBefore: 10}).Messages {
				if m.ID == id {
					return *m.Flags
				}
			}
			t.Fatalf("message %d not fetched", id)
			return nil
		}
		tests := []struct {
			name    string
			op      string
			ids     []messages.ID
			changed []messages.ID
			has     bool
		}{
			{"add to a message with a preview and one without", "add", []messages.ID{withLink, plain}, []messages.ID{withLink, plain}, true},
			{"add again changes nothing", "add", []messages.ID{withLink}, []messages.ID{}, true},
			{"remove", "remove", []messages.ID{withLink, plain}, []messages.ID{withLink, plain}, false},
		}
		for _, tt := range tests {
			res, err := f.svc.UpdateMessageFlags(ctx, f.actor("member"), chat.UpdateMessageFlagsParams{Messages: tt.ids, Op: tt.op, Flag: "hide_link_previews"})
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if !slices.Equal(res.Messages, tt.changed) && !(len(res.Messages) == 0 && len(tt.changed) == 0) {
				t.Errorf("%s: changed %v, want %v", tt.name, res.Messages, tt.changed)
			}
			for _, id := range tt.ids {
				if got := slices.Contains(flagsOf(id), "hide_link_previews"); got != tt.has {
					t.Errorf("%s: message %d has hide_link_previews %v, want %v", tt.name, id, got, tt.has)
				}
			}
		}
		events := f.poll(t, "member", q, -1, true)
		var ops []string
		for _, e := range events {
			b, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"flag":"hide_link_previews"`) {
				t.Errorf("event %s is not about hide_link_previews", b)
			}
			var v struct{ Op string }
			_ = json.Unmarshal(b, &v)
			ops = append(ops, v.Op)
		}
		if !slices.Equal(ops, []string{"add", "remove"}) {
			t.Errorf("update_message_flags ops %v, want [add remove]", ops)
		}
		// The other users' flags are theirs.
		if ownerCopy := fetch(t, f, "owner", chat.GetMessagesParams{Anchor: "newest", NumBefore: 10}).Messages[0].Flags; ownerCopy == nil || slices.Contains(*ownerCopy, "hide_link_previews") {
			t.Error("the owner's copy got the member's flag")
		}
		// A message the user cannot read is refused, and nothing changes.
		secret := mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "owner")
		hidden := mustSendToChannel(t, f, "owner", secret, "t", "https://example.com")
		_, err := f.svc.UpdateMessageFlags(ctx, f.actor("member"), chat.UpdateMessageFlagsParams{Messages: []messages.ID{hidden}, Op: "add", Flag: "hide_link_previews"})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid message(s)")
	})
}
