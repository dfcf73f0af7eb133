package chat_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
)

// readWorld is a channel with two topics, a private channel and direct messages, all unread
// for the member.
type readWorld struct {
	verona, secret channels.ID
	lunch, dinner  []messages.ID
	private, dms   []messages.ID
}

func seedRead(t *testing.T, f *fixture) readWorld {
	t.Helper()
	var w readWorld
	w.verona = mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin", "guest")
	w.secret = mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "member", "admin")
	for i := range 3 {
		w.lunch = append(w.lunch, mustSendToChannel(t, f, "admin", w.verona, "Lunch", "lunch "+fmtInt(int64(i))))
		w.dinner = append(w.dinner, mustSendToChannel(t, f, "admin", w.verona, "dinner", "dinner @**Mia Member**"))
	}
	w.private = append(w.private, mustSendToChannel(t, f, "admin", w.secret, "plans", "hidden"))
	w.dms = append(w.dms, mustSendDirect(t, f, "admin", "hello", "member"), mustSendDirect(t, f, "guest", "hi all", "member", "admin"))
	return w
}

// readConsistencyCases are the consistency cases of marking messages read.
func readConsistencyCases() []consistencyCase {
	seed := func(t *testing.T, f *fixture) { seedRead(t, f) }
	verona := func(t *testing.T, f *fixture) channels.ID { return f.mustChannel(t, "Verona").ID }
	return []consistencyCase{
		{method: "MarkAllAsRead", name: "everything", setup: seed, run: func(t *testing.T, f *fixture) {
			for _, who := range []string{"member", "admin", "guest"} {
				mustDo(t, "MarkAllAsRead", errOf(f.svc.MarkAllAsRead(t.Context(), f.actor(who))))
			}
		}},
		{method: "MarkStreamAsRead", name: "a channel", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "MarkStreamAsRead", errOf(f.svc.MarkStreamAsRead(t.Context(), f.actor("member"), chat.MarkStreamAsReadParams{StreamID: verona(t, f)})))
		}},
		{method: "MarkTopicAsRead", name: "a topic, named in another case", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "MarkTopicAsRead", errOf(f.svc.MarkTopicAsRead(t.Context(), f.actor("member"), chat.MarkTopicAsReadParams{StreamID: verona(t, f), TopicName: "LUNCH"})))
		}},
		{method: "UpdateMessageFlagsForNarrow", name: "read, unread and starred", setup: seed, run: func(t *testing.T, f *fixture) {
			narrow := []chat.NarrowTerm{{Operator: "channel", Operand: "Verona"}}
			for _, p := range []chat.UpdateMessageFlagsForNarrowParams{
				{Anchor: "newest", NumBefore: 100, Narrow: narrow, Op: "add", Flag: "read"},
				{Anchor: "oldest", NumAfter: 2, Narrow: narrow, Op: "remove", Flag: "read"},
				{Anchor: "first_unread", NumAfter: 3, Op: "add", Flag: "starred"},
			} {
				mustDo(t, "UpdateMessageFlagsForNarrow", errOf(f.svc.UpdateMessageFlagsForNarrow(t.Context(), f.actor("member"), p)))
				mustDo(t, "UpdateMessageFlagsForNarrow", errOf(f.svc.UpdateMessageFlagsForNarrow(t.Context(), f.actor("owner"), p)))
			}
		}},
	}
}

// unreadIDs is the actor's unread message ids from a fresh register.
func unreadIDs(t *testing.T, f *fixture, who string) []messages.ID {
	t.Helper()
	res, err := f.svc.RegisterQueue(t.Context(), f.actor(who), chat.RegisterQueueParams{FetchEventTypes: []string{"message", "update_message_flags"}})
	if err != nil {
		t.Fatal(err)
	}
	out := []messages.ID{}
	u := res.UnreadMsgs
	for _, s := range u.Streams {
		out = append(out, s.UnreadMessageIDs...)
	}
	for _, d := range u.PMs {
		out = append(out, d.UnreadMessageIDs...)
	}
	for _, h := range u.Huddles {
		out = append(out, h.UnreadMessageIDs...)
	}
	return sortedIDs(out)
}

func sortedIDs(l []messages.ID) []messages.ID {
	out := append([]messages.ID{}, l...)
	slices.Sort(out)
	return out
}

func TestMarkAllAsReadInBatches(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.MarkReadBatchSize = 3 })
	ctx := t.Context()
	w := seedRead(t, f)
	q := f.register(t, "member", "update_message_flags")
	res, err := f.svc.MarkAllAsRead(ctx, f.actor("member"))
	if err != nil || !res.Complete {
		t.Fatalf("MarkAllAsRead = %v, %v", res, err)
	}
	if got := unreadIDs(t, f, "member"); len(got) != 0 {
		t.Errorf("still unread: %v", got)
	}
	evs := messageEvents(t, f.poll(t, "member", q, -1, true), "update_message_flags")
	var marked []any
	for i, e := range evs {
		if e["op"] != "add" || e["flag"] != "read" || e["all"] != false {
			t.Errorf("event %d = %v", i, e)
		}
		marked = append(marked, e["messages"].([]any)...)
	}
	// Oldest first (Zulip's order), three per transaction.
	if len(evs) != 3 || len(evs[0]["messages"].([]any)) != 3 || num(evs[0]["messages"].([]any)[2]) != float64(w.lunch[1]) {
		t.Errorf("batches = %v", evs)
	}
	for i := 1; i < len(marked); i++ {
		if num(marked[i]) <= num(marked[i-1]) {
			t.Errorf("marked out of order: %v", marked)
		}
	}
}

func TestMarkAllAsReadBudget(t *testing.T) {
	t.Parallel()
	// A clock that moves a second at every reading: the budget of two seconds allows one
	// batch.
	c := newClock()
	f := newFixture(t, func(o *chat.Options) {
		o.MarkReadBatchSize, o.MarkReadBudget = 2, 2*time.Second
		o.Now = func() time.Time { c.Advance(time.Second); return c.Now() }
	})
	ctx := t.Context()
	seedRead(t, f)
	before := len(unreadIDs(t, f, "member"))
	res, err := f.svc.MarkAllAsRead(ctx, f.actor("member"))
	if err != nil || res.Complete {
		t.Fatalf("MarkAllAsRead = %v, %v; want complete=false", res, err)
	}
	after := len(unreadIDs(t, f, "member"))
	if after == 0 || after >= before {
		t.Errorf("unread: %d before, %d after a partial run", before, after)
	}
}

func TestMarkChannelAndTopicAsRead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	w := seedRead(t, f)
	if _, err := f.svc.MarkTopicAsRead(ctx, f.actor("member"), chat.MarkTopicAsReadParams{StreamID: w.verona, TopicName: "lunch"}); err != nil {
		t.Fatal(err)
	}
	want := sortedIDs(append(append(append([]messages.ID{}, w.dinner...), w.private...), w.dms...))
	if diff := cmp.Diff(want, unreadIDs(t, f, "member")); diff != "" {
		t.Errorf("after marking the topic (-want +got):\n%s", diff)
	}
	if _, err := f.svc.MarkStreamAsRead(ctx, f.actor("member"), chat.MarkStreamAsReadParams{StreamID: w.verona}); err != nil {
		t.Fatal(err)
	}
	want = sortedIDs(append(append([]messages.ID{}, w.private...), w.dms...))
	if diff := cmp.Diff(want, unreadIDs(t, f, "member")); diff != "" {
		t.Errorf("after marking the channel (-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		name, who string
		run       func(who string) error
		msg       string
	}{
		{"an unknown topic", "member", func(who string) error {
			_, err := f.svc.MarkTopicAsRead(ctx, f.actor(who), chat.MarkTopicAsReadParams{StreamID: w.verona, TopicName: "nothing"})
			return err
		}, "No such topic 'nothing'"},
		{"a topic of a channel one cannot see", "guest", func(who string) error {
			_, err := f.svc.MarkTopicAsRead(ctx, f.actor(who), chat.MarkTopicAsReadParams{StreamID: w.secret, TopicName: "plans"})
			return err
		}, "Invalid channel ID"},
		{"an unknown channel", "member", func(who string) error {
			_, err := f.svc.MarkStreamAsRead(ctx, f.actor(who), chat.MarkStreamAsReadParams{StreamID: 999})
			return err
		}, "Invalid channel ID"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, tt.run(tt.who), chat.CodeBadRequest, http.StatusBadRequest, tt.msg)
			if diff := cmp.Diff(want, unreadIDs(t, f, "member")); diff != "" {
				t.Errorf("a refusal changed the unread messages (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUpdateMessageFlagsForNarrow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	w := seedRead(t, f)
	narrow := []chat.NarrowTerm{{Operator: "channel", Operand: "Verona"}, {Operator: "topic", Operand: "lunch"}}
	res, err := f.svc.UpdateMessageFlagsForNarrow(ctx, f.actor("member"), chat.UpdateMessageFlagsForNarrowParams{
		Anchor: fmtInt(int64(w.lunch[1])), NumBefore: 5, NumAfter: 0, Narrow: narrow, Op: "add", Flag: "read",
	})
	if err != nil {
		t.Fatal(err)
	}
	first, last := w.lunch[0], w.lunch[1]
	want := chat.UpdateMessageFlagsForNarrowResult{ProcessedCount: 2, UpdatedCount: 2, FirstProcessedID: &first, LastProcessedID: &last, FoundOldest: true, FoundNewest: false}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	// Marking unread leaves the channels the owner is not subscribed to alone.
	res, err = f.svc.UpdateMessageFlagsForNarrow(ctx, f.actor("owner"), chat.UpdateMessageFlagsForNarrowParams{
		Anchor: "newest", NumBefore: 100, Narrow: []chat.NarrowTerm{{Operator: "channel", Operand: "Verona"}}, Op: "remove", Flag: "read",
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.UpdatedCount != 0 || res.ProcessedCount != 6 || res.IgnoredBecauseNotSubscribedChannels == nil || !cmp.Equal(*res.IgnoredBecauseNotSubscribedChannels, []channels.ID{w.verona}) {
		t.Errorf("marking unread outside subscriptions = %+v", res)
	}
	_, err = f.svc.UpdateMessageFlagsForNarrow(ctx, f.actor("member"), chat.UpdateMessageFlagsForNarrowParams{Anchor: "newest", NumBefore: 6000, Op: "add", Flag: "read"})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Too many messages requested (maximum 5000).")
	_, err = f.svc.UpdateMessageFlagsForNarrow(ctx, f.actor("member"), chat.UpdateMessageFlagsForNarrowParams{Anchor: "newest", NumBefore: 1, Op: "add", Flag: "mentioned"})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Flag not editable: 'mentioned'")
	_, err = f.svc.UpdateMessageFlagsForNarrow(ctx, f.actor("member"), chat.UpdateMessageFlagsForNarrowParams{Anchor: "x", NumBefore: 1, Op: "add", Flag: "read"})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid anchor")
	if got := len(unreadIDs(t, f, "member")); got != 7 {
		t.Errorf("%d unread after the refusals, want 7", got)
	}
}
