package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
)

// TestCombinedFeedIsReceivedOnly checks Zulip's ok_to_include_history on every backend: the
// empty narrow (the combined feed) answers only the messages the user received, and history of
// channels they are not subscribed to comes only through a narrow to such a channel (or
// channels:public), never with an is: term on the user's own flags.
func TestCombinedFeedIsReceivedOnly(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		mine := mustChannel(t, f, "Mine", chat.NewChannelSettings{}, "member", "admin")
		other := mustChannel(t, f, "Other", chat.NewChannelSettings{}, "admin")
		received := mustSendToChannel(t, f, "admin", mine, "t", "to the member")
		unseen := mustSendToChannel(t, f, "admin", other, "t", "not to the member")
		resolved := mustSendToChannel(t, f, "admin", other, "✔ done", "resolved topic")
		channel := func(id any, negated bool) chat.NarrowTerm {
			return chat.NarrowTerm{Operator: "channel", Operand: id, Negated: negated}
		}
		is := func(what string) chat.NarrowTerm { return chat.NarrowTerm{Operator: "is", Operand: what} }
		for _, c := range []struct {
			name, viewer string
			narrow       []chat.NarrowTerm
			want         []messages.ID
		}{
			{"empty narrow", "member", nil, []messages.ID{received}},
			{"channel by id", "member", []chat.NarrowTerm{channel(float64(other), false)}, []messages.ID{unseen, resolved}},
			{"channel by name", "member", []chat.NarrowTerm{{Operator: "stream", Operand: "Other"}}, []messages.ID{unseen, resolved}},
			{"negated channel", "member", []chat.NarrowTerm{channel(float64(mine), true)}, []messages.ID{}},
			{"channels public", "member", []chat.NarrowTerm{{Operator: "channels", Operand: "public"}}, []messages.ID{received, unseen, resolved}},
			{"channels public, guest", "guest", []chat.NarrowTerm{{Operator: "channels", Operand: "public"}}, []messages.ID{}},
			{"channel and is:unread", "member", []chat.NarrowTerm{channel(float64(other), false), is("unread")}, []messages.ID{}},
			{"channel and is:resolved", "member", []chat.NarrowTerm{channel(float64(other), false), is("resolved")}, []messages.ID{resolved}},
			{"topic only", "member", []chat.NarrowTerm{{Operator: "topic", Operand: "t"}}, []messages.ID{received}},
			{"sender only", "member", []chat.NarrowTerm{{Operator: "sender", Operand: float64(f.ids["admin"])}}, []messages.ID{received}},
		} {
			if diff := cmp.Diff(c.want, fetchIDs(t, f, c.viewer, c.narrow...)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", c.name, diff)
			}
		}
		res := fetch(t, f, "member", chat.GetMessagesParams{Anchor: "newest", NumBefore: 100, Narrow: []chat.NarrowTerm{channel(float64(other), false)}})
		for _, m := range res.Messages {
			if diff := cmp.Diff([]string{"read", "historical"}, *m.Flags); diff != "" {
				t.Errorf("history flags of %d (-want +got):\n%s", m.ID, diff)
			}
		}
		// Starring over the combined feed touches only what the member received.
		if _, err := f.svc.UpdateMessageFlagsForNarrow(ctx, f.actor("member"), chat.UpdateMessageFlagsForNarrowParams{
			Anchor: "newest", NumBefore: 100, Op: "add", Flag: "starred",
		}); err != nil {
			t.Fatal(err)
		}
		starred := fetchIDs(t, f, "member", is("starred"))
		if diff := cmp.Diff([]messages.ID{received}, starred); diff != "" {
			t.Errorf("starred after the combined feed (-want +got):\n%s", diff)
		}
	})
}
