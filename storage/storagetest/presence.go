package storagetest

import (
	"errors"
	"testing"
	"time"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// errRollback makes a transaction roll back.
var errRollback = errors.New("roll back")

func testAlertWords(t *testing.T, open Opener) {
	t.Run("Set keeps the order, replaces and clears; Get of none is empty", func(t *testing.T) {
		s := open(t)
		mustUpdate(t, s, func(tx storage.Tx) error {
			if err := tx.AlertWords().Set(7, []string{"zeta", "Alpha", "mid word"}); err != nil {
				return err
			}
			return tx.AlertWords().Set(8, []string{"other"})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.AlertWords().Get(7)
			if err != nil {
				return err
			}
			wantEqual(t, "words", []string{"zeta", "Alpha", "mid word"}, got)
			none, err := tx.AlertWords().Get(9)
			if err != nil {
				return err
			}
			wantEqual(t, "words of a user without any", []string{}, none)
			all, err := tx.AlertWords().All()
			if err != nil {
				return err
			}
			wantEqual(t, "everyone's words", map[users.ID][]string{7: {"zeta", "Alpha", "mid word"}, 8: {"other"}}, all)
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.AlertWords().Set(7, []string{"new"}) })
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.AlertWords().Set(8, nil) })
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.AlertWords().Get(7)
			if err != nil {
				return err
			}
			wantEqual(t, "replaced words", []string{"new"}, got)
			cleared, err := tx.AlertWords().Get(8)
			if err != nil {
				return err
			}
			wantEqual(t, "cleared words", []string{}, cleared)
			return nil
		})
	})
}

func testPresence(t *testing.T, open Opener) {
	base := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	t.Run("Put gives increasing update ids; Get and List filter", func(t *testing.T) {
		s := open(t)
		var ids []int64
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, p := range []users.Presence{
				{UserID: 5, LastActiveTime: base, LastConnectedTime: base, LastUpdateID: 99},
				{UserID: 3, LastConnectedTime: base.Add(-20 * 24 * time.Hour)},
				{UserID: 5, LastActiveTime: base, LastConnectedTime: base.Add(time.Minute)},
			} {
				id, err := tx.Presence().Put(p)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		if !(ids[0] > 0 && ids[1] > ids[0] && ids[2] > ids[1]) {
			t.Fatalf("update ids %v are not increasing", ids)
		}
		five := users.Presence{UserID: 5, LastActiveTime: base, LastConnectedTime: base.Add(time.Minute), LastUpdateID: ids[2]}
		three := users.Presence{UserID: 3, LastConnectedTime: base.Add(-20 * 24 * time.Hour), LastUpdateID: ids[1]}
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Presence().Get(5)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", five, got)
			_, err = tx.Presence().Get(4)
			wantIs(t, "Get(none)", err, storage.ErrNotFound)
			all, err := tx.Presence().List(storage.PresenceFilter{})
			if err != nil {
				return err
			}
			wantEqual(t, "List all", []users.Presence{three, five}, all)
			recent, err := tx.Presence().List(storage.PresenceFilter{ConnectedSince: base.Add(-14 * 24 * time.Hour)})
			if err != nil {
				return err
			}
			wantEqual(t, "List connected since", []users.Presence{five}, recent)
			after, err := tx.Presence().List(storage.PresenceFilter{AfterUpdateID: ids[1]})
			if err != nil {
				return err
			}
			wantEqual(t, "List after an update id", []users.Presence{five}, after)
			none, err := tx.Presence().List(storage.PresenceFilter{AfterUpdateID: ids[2]})
			if err != nil {
				return err
			}
			wantEqual(t, "List after the last id", []users.Presence{}, none)
			return nil
		})
		// The sequence continues across transactions and survives a rolled-back one.
		_ = s.Update(t.Context(), func(tx storage.Tx) error {
			if _, err := tx.Presence().Put(users.Presence{UserID: 9, LastConnectedTime: base}); err != nil {
				return err
			}
			return errRollback
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			id, err := tx.Presence().Put(users.Presence{UserID: 3, LastConnectedTime: base})
			if id <= ids[2] {
				t.Errorf("update id %d after %d", id, ids[2])
			}
			return err
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.Presence().Get(9)
			wantIs(t, "Get(rolled back)", err, storage.ErrNotFound)
			return nil
		})
	})
}

func testOnboardingSteps(t *testing.T, open Opener) {
	t.Run("MarkSeen records each step once, per user; Seen is sorted; a rollback keeps nothing", func(t *testing.T) {
		s := open(t)
		mustView(t, s, func(tx storage.ReadTx) error {
			none, err := tx.OnboardingSteps().Seen(7)
			if err != nil {
				return err
			}
			wantEqual(t, "steps of a user who read none", []string{}, none)
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, step := range []string{"intro_resolve_topic", "visibility_policy_banner", "intro_resolve_topic"} {
				if err := tx.OnboardingSteps().MarkSeen(7, step); err != nil {
					return err
				}
			}
			return tx.OnboardingSteps().MarkSeen(8, "navigation_tour_video")
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.OnboardingSteps().MarkSeen(7, "intro_inbox_view_modal") })
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.OnboardingSteps().MarkSeen(7, "visibility_policy_banner") })
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			if err := tx.OnboardingSteps().MarkSeen(7, "jump_to_conversation_banner"); err != nil {
				return err
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			t.Fatalf("rolled back update: %v", err)
		}
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.OnboardingSteps().Seen(7)
			if err != nil {
				return err
			}
			wantEqual(t, "steps of user 7", []string{"intro_inbox_view_modal", "intro_resolve_topic", "visibility_policy_banner"}, got)
			other, err := tx.OnboardingSteps().Seen(8)
			if err != nil {
				return err
			}
			wantEqual(t, "steps of user 8", []string{"navigation_tour_video"}, other)
			return nil
		})
	})
}
