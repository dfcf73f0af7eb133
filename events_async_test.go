package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
)

// TestGetEventsAsync: a long-poll left waiting by GetEventsAsync gets, once its ready is
// called, what GetEvents returns (the message sent meanwhile); one with an event pending, and
// one on a queue that does not exist, are answered at once as GetEvents answers them.
func TestGetEventsAsync(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	me := f.actor("member")
	c := mustChannel(t, f, "async", chat.NewChannelSettings{}, "owner", "member")
	reg, err := f.svc.RegisterQueue(ctx, me, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{}, 1)
	params := chat.GetEventsParams{QueueID: *reg.QueueID, LastEventID: ptr(reg.LastEventID)}
	res, w, err := f.svc.GetEventsAsync(t.Context(), me, params, func() { ready <- struct{}{} })
	if err != nil || !w.Waiting() || len(res.Events) != 0 {
		t.Fatalf("GetEventsAsync on an empty queue: %+v, %v, waiting %v", res, err, w.Waiting())
	}
	send := func(content string) {
		t.Helper()
		if _, err := f.svc.SendMessage(ctx, f.actor("owner"), chat.SendMessageParams{
			Type: "stream", ChannelID: &c, Topic: ptr("async"), Content: content,
		}); err != nil {
			t.Fatal(err)
		}
	}
	send("one")
	<-ready
	res, err = f.svc.EventsResult(w, *reg.QueueID)
	if err != nil || len(res.Events) != 1 || res.Events[0].Type != "message" || res.QueueID != *reg.QueueID {
		t.Fatalf("EventsResult: %+v, %v", res, err)
	}
	// Not acknowledged: the next long-poll from the same id gets it at once.
	res, w, err = f.svc.GetEventsAsync(t.Context(), me, params, func() { t.Error("ready called") })
	if err != nil || w.Waiting() || len(res.Events) != 1 {
		t.Fatalf("GetEventsAsync with an event pending: %+v, %v, waiting %v", res, err, w.Waiting())
	}
	_, w, err = f.svc.GetEventsAsync(t.Context(), me, chat.GetEventsParams{QueueID: "nope", LastEventID: ptr(int64(-1))}, func() {})
	wantError(t, err, chat.CodeBadEventQueueID, 400, "Bad event queue ID: nope")
	if w.Waiting() {
		t.Error("a bad queue id waits")
	}
}
