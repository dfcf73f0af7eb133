package chat_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

func TestCheckMessagesMatchNarrow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "admin", "member")
	other := mustChannel(t, f, "Denmark", chat.NewChannelSettings{}, "admin")
	lunch := mustSendToChannel(t, f, "admin", c, "food", "lunch is ready")
	dinner := mustSendToChannel(t, f, "admin", c, "food", "dinner later")
	unseen := mustSendToChannel(t, f, "admin", other, "food", "lunch elsewhere")
	key := func(id usersMessageID) string { return strconv.FormatInt(int64(id), 10) }
	match := func(narrow ...chat.NarrowTerm) map[string]chat.NarrowMatch {
		t.Helper()
		res, err := f.svc.CheckMessagesMatchNarrow(ctx, f.actor("member"), chat.CheckMessagesMatchNarrowParams{
			MsgIDs: []usersMessageID{lunch, dinner, unseen, 99999}, Narrow: narrow,
		})
		if err != nil {
			t.Fatal(err)
		}
		return res.Messages
	}
	// A search highlights its words; a message the member did not receive (a public channel's
	// history) does not match.
	want := map[string]chat.NarrowMatch{key(lunch): {
		MatchContent: `<p><span class="highlight">lunch</span> is ready</p>`, MatchSubject: "food",
	}}
	if diff := cmp.Diff(want, match(chat.NarrowTerm{Operator: "search", Operand: "lunch"})); diff != "" {
		t.Errorf("search (-want +got):\n%s", diff)
	}
	// Without a search, the rendered content and the topic as they are.
	want = map[string]chat.NarrowMatch{
		key(lunch):  {MatchContent: "<p>lunch is ready</p>", MatchSubject: "food"},
		key(dinner): {MatchContent: "<p>dinner later</p>", MatchSubject: "food"},
	}
	if diff := cmp.Diff(want, match(chat.NarrowTerm{Operator: "channel", Operand: float64(c)})); diff != "" {
		t.Errorf("channel narrow (-want +got):\n%s", diff)
	}
	ids := make([]usersMessageID, chat.MaxMatchNarrowIDs+1)
	_, err := f.svc.CheckMessagesMatchNarrow(ctx, f.actor("member"), chat.CheckMessagesMatchNarrowParams{MsgIDs: ids})
	wantMsg(t, "too many ids", err, "msg_ids is too long (limit: 5000 items)")
	_, err = f.svc.CheckMessagesMatchNarrow(ctx, f.actor("member"), chat.CheckMessagesMatchNarrowParams{
		MsgIDs: []usersMessageID{lunch}, Narrow: []chat.NarrowTerm{{Operator: "frobnicate", Operand: "x"}},
	})
	if err == nil {
		t.Error("an unknown operator was accepted")
	}
}
