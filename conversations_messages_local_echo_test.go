package chat_test

import (
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

// TestSendMessageLocalEcho: the queue named by queue_id gets the sender's local_id back as
// local_message_id; the sender's other queues and the other recipients do not, in process and
// through a bus alike.
func TestSendMessageLocalEcho(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opts []func(*chat.Options)
	}{
		{"in process", nil},
		{"through a bus", []func(*chat.Options){withBus(newFakeBus())}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, tt.opts...)
			ctx := t.Context()
			sending := f.register(t, "member", "message")
			other := f.register(t, "member", "message")
			admin := f.register(t, "admin", "message")
			to := []chat.SendMessageParams{
				{Type: "direct", UserIDs: []usersID{f.ids["admin"]}, Content: "hi", QueueID: sending, LocalID: "100.01"},
				{Type: "direct", UserIDs: []usersID{f.ids["admin"]}, Content: "again", QueueID: sending},
			}
			for _, p := range to {
				if _, err := f.svc.SendMessage(ctx, f.actor("member"), p); err != nil {
					t.Fatal(err)
				}
			}
			for _, q := range []struct {
				who, queue string
				want       []any
			}{
				{"member", sending, []any{"100.01", nil}},
				{"member", other, []any{nil, nil}},
				{"admin", admin, []any{nil, nil}},
			} {
				evs := messageEvents(t, f.waitEvents(t, q.who, q.queue, 2), "message")
				if len(evs) != 2 {
					t.Fatalf("%s: %d message events, want 2", q.who, len(evs))
				}
				for i, e := range evs {
					if got := e["local_message_id"]; got != q.want[i] {
						t.Errorf("%s queue %s, message %d: local_message_id = %v, want %v", q.who, q.queue, i, got, q.want[i])
					}
				}
			}
		})
	}
}

func TestSendMessageLocalIDBounded(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	before := f.messageCount(t)
	_, err := f.svc.SendMessage(t.Context(), f.actor("member"), chat.SendMessageParams{
		Type: "direct", UserIDs: []usersID{f.ids["admin"]}, Content: "hi", QueueID: "q", LocalID: strings.Repeat("9", chat.MaxLocalIDLength+1),
	})
	wantError(t, err, chat.CodeBadRequest, 400, "local_id is too long (limit: 100 characters)")
	if after := f.messageCount(t); after != before {
		t.Errorf("messages: %d, then %d after a refused send", before, after)
	}
}
