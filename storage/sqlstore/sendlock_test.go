package sqlstore_test

import (
	"sync"
	"testing"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestSendsToOneChannelWait: two stores on one PostgreSQL database (two processes). A send
// announced to a channel (storage.PrefetchSend) waits, before its snapshot, for another
// process's send to the same channel to end, and then sees its message among the channel's
// bounds: it runs once, with no lost race. A send to another channel is not held up.
func TestSendsToOneChannelWait(t *testing.T) {
	t.Parallel()
	dsn := freshSchema(t, postgresURL(t))
	a, b := mustOpen(t, dsn), mustOpen(t, dsn)
	ctx := t.Context()
	var me users.ID
	var busy, other channels.ID
	if err := a.Update(ctx, func(tx storage.Tx) (err error) {
		if me, err = tx.Users().Create(users.User{Email: "a@example.com", APIKey: "k1", IsActive: true}); err != nil {
			return err
		}
		if busy, err = tx.Channels().Create(channels.Channel{Name: "busy"}); err != nil {
			return err
		}
		other, err = tx.Channels().Create(channels.Channel{Name: "other"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	send := func(s storage.Storage, c channels.ID, ts int64, runs *int, hold <-chan struct{}) (storage.ChannelActivity, error) {
		var before storage.ChannelActivity
		err := s.Update(ctx, func(tx storage.Tx) error {
			*runs++
			storage.PrefetchSend(tx, c)
			m := messages.Message{SenderID: me, ChannelID: c, Topic: "t", Content: "x", Timestamp: ts}
			var err error
			if _, before, err = storage.CreateInChannel(tx.Messages(), m, []messages.UserMessage{{UserID: me}}); err != nil {
				return err
			}
			if hold != nil {
				<-hold
			}
			return nil
		})
		return before, err
	}
	hold, aDone := make(chan struct{}), make(chan error, 1)
	var once sync.Once
	release := func() { once.Do(func() { close(hold) }) }
	defer release() // a failure below must not leave the first send holding its connection
	aRuns, bRuns, cRuns := 0, 0, 0
	go func() { _, err := send(a, busy, 100, &aRuns, hold); aDone <- err }()
	time.Sleep(200 * time.Millisecond) // a holds the channel, inside its transaction
	if _, err := send(b, other, 150, &cRuns, nil); err != nil {
		t.Fatalf("a send to another channel: %v", err)
	}
	bDone := make(chan storage.ChannelActivity, 1)
	go func() {
		before, err := send(b, busy, 200, &bRuns, nil)
		if err != nil {
			t.Errorf("the second send to the busy channel: %v", err)
		}
		bDone <- before
	}()
	select {
	case <-bDone:
		t.Error("the second send to the busy channel did not wait for the first")
		release()
		<-aDone
		return
	case <-time.After(200 * time.Millisecond):
	}
	release()
	if err := <-aDone; err != nil {
		t.Fatalf("the first send: %v", err)
	}
	before := <-bDone
	if before.LastTimestamp != 100 || before.FirstMessageID == 0 {
		t.Errorf("the second send saw bounds %+v, want the first send's message (timestamp 100)", before)
	}
	if aRuns != 1 || bRuns != 1 || cRuns != 1 || a.Retries()+b.Retries() != 0 {
		t.Errorf("runs %d, %d, %d and retries %d: want each once, no lost race", aRuns, bRuns, cRuns, a.Retries()+b.Retries())
	}
}
