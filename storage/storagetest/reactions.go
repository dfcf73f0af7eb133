package storagetest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
)

func testReactions(t *testing.T, open Opener) {
	seed := func(t *testing.T) (storage.Storage, messageWorld, messages.Message, messages.Message) {
		s := open(t)
		w := seedMessageWorld(t, s)
		a := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "a", Rendered: "a"}, nil)
		b := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "b", Rendered: "b"}, nil)
		return s, w, a, b
	}
	reactions := func(t *testing.T, s storage.Storage, ids ...messages.ID) []messages.Reaction {
		t.Helper()
		var out []messages.Reaction
		mustView(t, s, func(tx storage.ReadTx) (err error) { out, err = tx.Messages().Reactions(ids); return err })
		return out
	}
	t.Run("added reactions list by message, then in the order added", func(t *testing.T) {
		s, w, a, b := seed(t)
		list := []messages.Reaction{
			{MessageID: b.ID, UserID: w.u[1], EmojiName: "tada", EmojiCode: "1f389", ReactionType: "unicode_emoji"},
			{MessageID: a.ID, UserID: w.u[2], EmojiName: "zulip", EmojiCode: "zulip", ReactionType: "zulip_extra_emoji"},
			{MessageID: a.ID, UserID: w.u[1], EmojiName: "zulip", EmojiCode: "zulip", ReactionType: "zulip_extra_emoji"},
			{MessageID: a.ID, UserID: w.u[1], EmojiName: "octopus", EmojiCode: "1f419", ReactionType: "unicode_emoji"},
		}
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, r := range list {
				if err := tx.Messages().AddReaction(r); err != nil {
					return err
				}
			}
			return nil
		})
		want := []messages.Reaction{list[1], list[2], list[3], list[0]}
		if diff := cmp.Diff(want, reactions(t, s, b.ID, a.ID, 999)); diff != "" {
			t.Errorf("reactions (-want +got):\n%s", diff)
		}
		if got := reactions(t, s); len(got) != 0 {
			t.Errorf("reactions of no message = %v", got)
		}
	})
	t.Run("a list of close ids leaves out the messages between them", func(t *testing.T) {
		s, w, a, b := seed(t)
		c := mustCreateMessage(t, s, messages.Message{SenderID: w.u[0], ChannelID: w.c1, Topic: "t", Content: "c", Rendered: "c"}, nil)
		var list []messages.Reaction
		for _, m := range []messages.Message{c, b, a} {
			list = append(list, messages.Reaction{MessageID: m.ID, UserID: w.u[1], EmojiName: "tada", EmojiCode: "1f389", ReactionType: "unicode_emoji"})
		}
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, r := range list {
				if err := tx.Messages().AddReaction(r); err != nil {
					return err
				}
			}
			return nil
		})
		want := []messages.Reaction{list[2], list[0]}
		if diff := cmp.Diff(want, reactions(t, s, c.ID, a.ID)); diff != "" {
			t.Errorf("reactions of the first and third message (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(list[1:2], reactions(t, s, b.ID)); diff != "" {
			t.Errorf("reactions of the second message (-want +got):\n%s", diff)
		}
	})
	t.Run("one reaction per user, message and emoji code and type", func(t *testing.T) {
		s, w, a, _ := seed(t)
		r := messages.Reaction{MessageID: a.ID, UserID: w.u[1], EmojiName: "tada", EmojiCode: "1f389", ReactionType: "unicode_emoji"}
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().AddReaction(r) })
		again := r
		again.EmojiName = "party"
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Messages().AddReaction(again) })
		if !errors.Is(err, storage.ErrConflict) {
			t.Errorf("second reaction with one emoji: error = %v, want ErrConflict", err)
		}
		other := r
		other.ReactionType = "realm_emoji"
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().AddReaction(other) })
		if got := reactions(t, s, a.ID); len(got) != 2 {
			t.Errorf("reactions = %v, want the two of different types", got)
		}
	})
	t.Run("a reaction to an unknown message is not found", func(t *testing.T) {
		s, w, _, _ := seed(t)
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Messages().AddReaction(messages.Reaction{MessageID: 999, UserID: w.u[1], EmojiName: "tada", EmojiCode: "1f389", ReactionType: "unicode_emoji"})
		})
		if !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("error = %v, want ErrNotFound", err)
		}
	})
	t.Run("remove takes the user's reaction by code and type and reports a missing one", func(t *testing.T) {
		s, w, a, _ := seed(t)
		r := messages.Reaction{MessageID: a.ID, UserID: w.u[1], EmojiName: "tada", EmojiCode: "1f389", ReactionType: "unicode_emoji"}
		theirs := r
		theirs.UserID = w.u[2]
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Messages().AddReaction(r); err != nil {
				return err
			}
			return tx.Messages().AddReaction(theirs)
		})
		byCode := r
		byCode.EmojiName = ""
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().RemoveReaction(byCode) })
		if diff := cmp.Diff([]messages.Reaction{theirs}, reactions(t, s, a.ID)); diff != "" {
			t.Errorf("after removal (-want +got):\n%s", diff)
		}
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Messages().RemoveReaction(r) })
		if !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("removing again: error = %v, want ErrNotFound", err)
		}
	})
	t.Run("a rolled-back reaction leaves nothing, and deleting the message removes its reactions", func(t *testing.T) {
		s, w, a, b := seed(t)
		r := messages.Reaction{MessageID: a.ID, UserID: w.u[1], EmojiName: "tada", EmojiCode: "1f389", ReactionType: "unicode_emoji"}
		boom := errors.New("boom")
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.Messages().AddReaction(r); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("error = %v", err)
		}
		if got := reactions(t, s, a.ID); len(got) != 0 {
			t.Errorf("rolled back reaction stored: %v", got)
		}
		kept := r
		kept.MessageID = b.ID
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.Messages().AddReaction(r); err != nil {
				return err
			}
			return tx.Messages().AddReaction(kept)
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Messages().Delete([]messages.ID{a.ID}) })
		if diff := cmp.Diff([]messages.Reaction{kept}, reactions(t, s, a.ID, b.ID)); diff != "" {
			t.Errorf("after deleting the message (-want +got):\n%s", diff)
		}
	})
}
