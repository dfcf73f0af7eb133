package world

import (
	"slices"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
)

// TestWorldSharedChannels: a world over the store's shared channel list orders its channels
// by name, and its first setChannel copies the list, leaving the store's list unchanged.
func TestWorldSharedChannels(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	store := orgStore(t, func(tx storage.Tx) error {
		for _, name := range []string{"delta", "alpha", "Charlie", "bravo"} {
			if _, err := tx.Channels().Create(channels.Channel{Name: name}); err != nil {
				return err
			}
		}
		return nil
	})
	names := func(seq func(func(*channels.Channel) bool)) []string {
		var out []string
		for c := range seq {
			out = append(out, c.Name)
		}
		return out
	}
	err := store.View(ctx, func(tx storage.ReadTx) error {
		w := LoadShared(tx, 0)
		if w.Failed() {
			return w.err
		}
		if got, want := names(w.ChannelsByName()), []string{"Charlie", "alpha", "bravo", "delta"}; !slices.Equal(got, want) {
			t.Errorf("channelsByName = %v, want %v", got, want)
		}
		c, _ := w.ChannelByName("alpha")
		c.Name = "aardvark"
		w.SetChannel(c)
		w.SetChannel(channels.Channel{ID: 99, Name: "echo"})
		if got, want := names(w.ChannelsByName()), []string{"Charlie", "aardvark", "bravo", "delta", "echo"}; !slices.Equal(got, want) {
			t.Errorf("channelsByName after setChannel = %v, want %v", got, want)
		}
		shared, err := tx.Channels().ListShared()
		if err != nil {
			return err
		}
		var stored []string
		for _, c := range shared {
			stored = append(stored, c.Name)
		}
		if want := []string{"delta", "alpha", "Charlie", "bravo"}; !slices.Equal(stored, want) {
			t.Errorf("the store's shared list became %v, want %v", stored, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWorldSharedLookups: a world over the store's shared channel list finds channels by id and by
// name without indexes built up front, and a channel it records (setChannel) changes the
// world alone, never the store's list.
func TestWorldSharedLookups(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	store := memory.New()
	t.Cleanup(func() { store.Close() })
	names := []string{"Verona", "Denmark", "Rome", "Venice"}
	var ids []channels.ID
	err := store.Update(ctx, func(tx storage.Tx) error {
		if err := tx.Realm().Put(realms.Realm{Name: "Org"}); err != nil {
			return err
		}
		for _, n := range names {
			id, err := tx.Channels().Create(channels.Channel{Name: n})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = store.View(ctx, func(tx storage.ReadTx) error {
		w := LoadShared(tx, 0)
		if w.err != nil {
			return w.err
		}
		for i, id := range ids {
			if c, ok := w.Channel(id); !ok || c.Name != names[i] {
				t.Errorf("channel(%d) = %q, %v; want %q", id, c.Name, ok, names[i])
			}
			if c := w.ChannelPtr(id); c == nil || c.Name != names[i] {
				t.Errorf("channelPtr(%d) = %+v; want %q", id, c, names[i])
			}
		}
		if _, ok := w.Channel(ids[len(ids)-1] + 1); ok {
			t.Error("channel(unknown) found one")
		}
		if c, ok := w.ChannelByName("rome"); !ok || c.ID != ids[2] {
			t.Errorf("channelByName(rome) = %+v, %v", c, ok)
		}
		c, _ := w.Channel(ids[0])
		c.Name = "Padua"
		w.SetChannel(c)
		if got, _ := w.Channel(ids[0]); got.Name != "Padua" {
			t.Errorf("after setChannel: %q", got.Name)
		}
		if _, ok := w.ChannelByName("padua"); !ok {
			t.Error("channelByName(padua) after setChannel: not found")
		}
		shared, err := tx.Channels().ListShared()
		if err != nil {
			return err
		}
		if shared[0].Name != "Verona" {
			t.Errorf("setChannel changed the store's shared list: %q", shared[0].Name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// orgStore is a memory store holding an organization and what seed writes after it.
func orgStore(t *testing.T, seed func(tx storage.Tx) error) *memory.Store {
	t.Helper()
	store := memory.New()
	t.Cleanup(func() { store.Close() })
	if err := store.Update(t.Context(), func(tx storage.Tx) error {
		if err := tx.Realm().Put(realms.Realm{Name: "Org", URL: "https://chat.example.com/"}); err != nil {
			return err
		}
		return seed(tx)
	}); err != nil {
		t.Fatal(err)
	}
	return store
}
