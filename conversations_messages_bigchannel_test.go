package chat_test

import (
	"context"
	"slices"
	"strconv"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// TestSendToBigChannelSkipsDeactivated: in a channel of more members than the world reads
// users lazily for (32), a send after one member's deactivation reaches every active member
// and not that one (the shortcut that skips user lookups when the store counts as many active
// subscribers as the list holds must see the count drop), and the member's return reaches
// them again. The store writes a row per recipient (it hides the capability of deriving
// them from receive intervals), so its rows are the recipients the send decided.
func TestSendToBigChannelSkipsDeactivated(t *testing.T) {
	t.Parallel()
	f := newFixtureOn(t, rowPerRecipientStore{memory.New()})
	ctx := t.Context()
	var members []users.ID
	for i := range 40 {
		res, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "crowd" + strconv.Itoa(i) + "@example.com", FullName: "Crowd " + strconv.Itoa(i)})
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, res.UserID)
	}
	big := mustChannel(t, f, "big", chat.NewChannelSettings{}, "admin")
	if _, err := f.svc.Subscribe(ctx, f.actor("admin"), chat.SubscribeParams{
		Subscriptions: []chat.SubscriptionRequest{{Name: "big"}}, Principals: chat.Principals{IDs: members},
	}); err != nil {
		t.Fatal(err)
	}
	gone := members[7]
	receivers := func(id messages.ID) []users.ID {
		t.Helper()
		var out []users.ID
		if err := f.store.View(ctx, func(tx storage.ReadTx) error {
			rows, err := tx.Messages().Rows([]messages.ID{id})
			for _, r := range rows {
				out = append(out, r.UserID)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	want := append([]users.ID{f.ids["admin"]}, members...)
	slices.Sort(want)
	if got := receivers(mustSendToChannel(t, f, "admin", big, "t", "all here")); !slices.Equal(got, want) {
		t.Fatalf("before the deactivation, rows of %v; want %v", got, want)
	}
	if _, err := f.svc.DeactivateUser(ctx, f.actor("owner"), chat.DeactivateUserParams{UserID: gone}); err != nil {
		t.Fatal(err)
	}
	got := receivers(mustSendToChannel(t, f, "admin", big, "t", "one left"))
	if slices.Contains(got, gone) || len(got) != len(want)-1 {
		t.Errorf("after the deactivation of %d, rows of %v", gone, got)
	}
	if _, err := f.svc.ReactivateUser(ctx, f.actor("owner"), chat.ReactivateUserParams{UserID: gone}); err != nil {
		t.Fatal(err)
	}
	if got := receivers(mustSendToChannel(t, f, "admin", big, "t", "back")); !slices.Equal(got, want) {
		t.Errorf("after the return, rows of %v; want %v", got, want)
	}
}

// rowPerRecipientStore is a store whose transactions hide the capability of storing a
// channel message without a row per recipient (storage.SubscriberMessageCreator): a send
// writes a row for each recipient it decided.
type rowPerRecipientStore struct{ storage.Storage }

func (s rowPerRecipientStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	return s.Storage.Update(ctx, func(tx storage.Tx) error { return fn(rowPerRecipientTx{tx}) })
}

type rowPerRecipientTx struct{ storage.Tx }

func (t rowPerRecipientTx) Messages() storage.MessageWriter {
	return struct{ storage.MessageWriter }{t.Tx.Messages()}
}
