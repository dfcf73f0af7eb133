package chat_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// failingSubscriptionReads wraps a store so that, while armed, every read of subscription
// rows fails: the Service reads them lazily, in the middle of its decisions.
type failingSubscriptionReads struct {
	storage.Storage
	armed atomic.Bool
	err   error
}

func (s *failingSubscriptionReads) View(ctx context.Context, fn func(storage.ReadTx) error) error {
	return s.Storage.View(ctx, func(tx storage.ReadTx) error { return fn(failingReadTx{tx, s}) })
}

func (s *failingSubscriptionReads) Update(ctx context.Context, fn func(storage.Tx) error) error {
	return s.Storage.Update(ctx, func(tx storage.Tx) error { return fn(failingTx{tx, s}) })
}

type failingReadTx struct {
	storage.ReadTx
	s *failingSubscriptionReads
}

func (t failingReadTx) Subscriptions() storage.SubscriptionReader {
	return failingSubs{t.ReadTx.Subscriptions(), t.s}
}

type failingTx struct {
	storage.Tx
	s *failingSubscriptionReads
}

func (t failingTx) Subscriptions() storage.SubscriptionWriter {
	return failingSubsWriter{t.Tx.Subscriptions(), failingSubs{t.Tx.Subscriptions(), t.s}}
}

type failingSubs struct {
	storage.SubscriptionReader
	s *failingSubscriptionReads
}

func (r failingSubs) ListForChannels(ids []channels.ID, activeOnly bool) ([]channels.Subscription, error) {
	if r.s.armed.Load() {
		return nil, r.s.err
	}
	return r.SubscriptionReader.ListForChannels(ids, activeOnly)
}

func (r failingSubs) ListForUsers(ids []users.ID) ([]channels.Subscription, error) {
	if r.s.armed.Load() {
		return nil, r.s.err
	}
	return r.SubscriptionReader.ListForUsers(ids)
}

type failingSubsWriter struct {
	storage.SubscriptionWriter
	r failingSubs
}

func (w failingSubsWriter) ListForChannels(ids []channels.ID, activeOnly bool) ([]channels.Subscription, error) {
	return w.r.ListForChannels(ids, activeOnly)
}

func (w failingSubsWriter) ListForUsers(ids []users.ID) ([]channels.Subscription, error) {
	return w.r.ListForUsers(ids)
}

// TestWorldReadFailureAbortsTheOperation: a read the world makes in the middle of a decision
// (a channel's subscribers, a user's subscriptions) that fails ends the operation with an
// internal error wrapping the failure; nothing is written, nothing is published, no panic
// escapes.
func TestWorldReadFailureAbortsTheOperation(t *testing.T) {
	t.Parallel()
	store := &failingSubscriptionReads{Storage: memory.New(), err: errors.New("disk on fire")}
	f := newFixtureOn(t, store)
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	q := f.register(t, "admin", "message")
	before, err := f.svc.GetMessages(ctx, f.actor("admin"), chat.GetMessagesParams{Anchor: "newest", NumBefore: 100})
	if err != nil {
		t.Fatal(err)
	}
	wantFailure := func(what string, err error) {
		t.Helper()
		var e *chat.Error
		if !errors.As(err, &e) || e.Code != chat.CodeInternal || !errors.Is(err, store.err) {
			t.Errorf("%s: error %v, want an internal error wrapping the read failure", what, err)
		}
	}

	store.armed.Store(true)
	_, err = f.svc.SendMessage(ctx, f.actor("member"), chat.SendMessageParams{
		Type: "stream", ChannelID: &c, Topic: ptr("lost"), Content: "never stored",
	})
	wantFailure("SendMessage", err)
	_, err = f.svc.GetSubscriptions(ctx, f.actor("member"), chat.GetSubscriptionsParams{IncludeSubscribers: "true"})
	wantFailure("GetSubscriptions", err)
	store.armed.Store(false)

	after, err := f.svc.GetMessages(ctx, f.actor("admin"), chat.GetMessagesParams{Anchor: "newest", NumBefore: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Messages) != len(before.Messages) {
		t.Errorf("%d messages after the failed send, want %d", len(after.Messages), len(before.Messages))
	}
	if got := f.poll(t, "admin", q, -1, true); len(got) != 0 {
		t.Errorf("events published for the failed send: %+v", got)
	}
	// The store is fine again: the same send goes through.
	if _, err := f.svc.SendMessage(ctx, f.actor("member"), chat.SendMessageParams{
		Type: "stream", ChannelID: &c, Topic: ptr("found"), Content: "stored",
	}); err != nil {
		t.Fatalf("SendMessage after the failure: %v", err)
	}
}
