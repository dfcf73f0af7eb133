package world

import (
	"slices"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestSubscriberListsNeverWritten: the lists SubscribersOf hands out are shared (a send
// addresses its events to its channel's list without a copy), so the subscriptions and
// unsubscriptions the world records later replace its list and leave every list handed out
// before as it was, in the store and in the world.
func TestSubscriberListsNeverWritten(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	var c channels.ID
	store := orgStore(t, func(tx storage.Tx) error {
		var err error
		if c, err = tx.Channels().Create(channels.Channel{Name: "general"}); err != nil {
			return err
		}
		var subs []channels.Subscription
		for _, u := range []users.ID{1, 2, 3} {
			subs = append(subs, channels.Subscription{UserID: u, ChannelID: c, Active: true})
		}
		return tx.Subscriptions().Put(subs)
	})
	err := store.View(ctx, func(tx storage.ReadTx) error {
		w := Load(tx, 0)
		var handed [][]users.ID // each list as handed out
		var want [][]users.ID   // a copy of each as it was then
		hand := func() {
			l := w.SubscribersOf(c)
			handed, want = append(handed, l), append(want, slices.Clone(l))
		}
		hand()
		w.AddSubscribers(c, []users.ID{10})
		hand()
		w.AddSubscribers(c, []users.ID{5}) // sorted in among the earlier ones
		hand()
		w.RemoveSubscribers(c, []users.ID{2})
		hand()
		w.AddSubscribers(c, []users.ID{4})
		if got := w.SubscribersOf(c); !slices.Equal(got, []users.ID{1, 3, 4, 5, 10}) {
			t.Errorf("subscribers at the end = %v", got)
		}
		for i := range handed {
			if !slices.Equal(handed[i], want[i]) {
				t.Errorf("list %d handed out as %v is now %v", i, want[i], handed[i])
			}
		}
		return w.err
	})
	if err != nil {
		t.Fatal(err)
	}
}
