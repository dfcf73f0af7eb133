package chat_test

import (
	"errors"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
)

// mustStartSession starts a web session for one of the fixture's users.
func mustStartSession(t *testing.T, f *fixture, name string) chat.Session {
	t.Helper()
	s, err := f.svc.StartSession(t.Context(), f.actor(name))
	if err != nil {
		t.Fatalf("StartSession(%s): %v", name, err)
	}
	return s
}

// sessionActor authenticates a session id, failing the test unless it is a live session.
func sessionActor(t *testing.T, f *fixture, id string) chat.Actor {
	t.Helper()
	a, err := f.svc.AuthenticateSession(t.Context(), id)
	if err != nil {
		t.Fatalf("AuthenticateSession: %v", err)
	}
	return a
}

// wantNoSession fails unless id authenticates nobody.
func wantNoSession(t *testing.T, f *fixture, what, id string) {
	t.Helper()
	_, err := f.svc.AuthenticateSession(t.Context(), id)
	if !errors.Is(err, chat.ErrNotLoggedIn()) {
		t.Fatalf("%s: AuthenticateSession error = %v, want not logged in", what, err)
	}
}

func TestSessionLifecycle(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		s := mustStartSession(t, f, "member")
		if !chat.ValidSessionID(s.ID) || s.UserID != f.ids["member"] {
			t.Fatalf("session = %+v", s)
		}
		if want := f.clock.Now().Add(chat.DefaultSessionAge); !s.Expires.Equal(want) {
			t.Errorf("Expires = %v, want %v", s.Expires, want)
		}
		if a := sessionActor(t, f, s.ID); a.UserID != f.ids["member"] {
			t.Errorf("actor = %d, want member", a.UserID)
		}
		// The store keeps the id's hash only.
		err := f.store.View(ctx, func(tx storage.ReadTx) error {
			if _, err := tx.Sessions().Get(s.ID); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("the raw id is a store key: %v", err)
			}
			_, err := tx.Sessions().Get(chat.SessionKey(s.ID))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}

		// Expiry, by the Service clock: valid one second before, refused at the end.
		f.clock.Advance(chat.DefaultSessionAge - time.Second)
		sessionActor(t, f, s.ID)
		f.clock.Advance(time.Second)
		wantNoSession(t, f, "expired", s.ID)

		// A new login sweeps the expired session from the store.
		s2 := mustStartSession(t, f, "member")
		err = f.store.View(ctx, func(tx storage.ReadTx) error {
			_, err := tx.Sessions().Get(chat.SessionKey(s.ID))
			return err
		})
		if !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("expired session after a new login: %v, want swept", err)
		}

		// Logout, twice.
		if _, err := f.svc.EndSession(ctx, s2.ID); err != nil {
			t.Fatal(err)
		}
		wantNoSession(t, f, "after logout", s2.ID)
		if _, err := f.svc.EndSession(ctx, s2.ID); err != nil {
			t.Errorf("second logout: %v", err)
		}
	})
}

func TestSessionIDForms(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	live := mustStartSession(t, f, "member")
	for _, id := range []string{"", "abc", live.ID[:31], live.ID + "a", "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345", "abcdefghijklmnopqrstuvwxyz01234_", "abcdefghijklmnopqrstuvwxyz012345"} {
		wantNoSession(t, f, "id "+id, id)
		if _, err := f.svc.EndSession(t.Context(), id); err != nil {
			t.Errorf("EndSession(%q): %v", id, err)
		}
	}
	sessionActor(t, f, live.ID)
}

func TestSessionAgeOption(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.SessionAge = time.Hour })
	s := mustStartSession(t, f, "member")
	f.clock.Advance(time.Hour - time.Second)
	sessionActor(t, f, s.ID)
	f.clock.Advance(time.Second)
	wantNoSession(t, f, "after SessionAge", s.ID)
}

func TestStartSessionRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	_, err := f.svc.StartSession(ctx, chat.Actor{})
	wantError(t, err, chat.CodeUnauthorized, 401, "Not logged in: API authentication or user session required")
	_, err = f.svc.StartSessionWithPassword(ctx, chat.FetchAPIKeyParams{Username: "member@example.com", Password: "wrong"})
	wantError(t, err, chat.CodeAuthenticationFailed, 401, "Your username or password is incorrect")
	s, err := f.svc.StartSessionWithPassword(ctx, chat.FetchAPIKeyParams{Username: "member@example.com", Password: testPassword})
	if err != nil {
		t.Fatal(err)
	}
	sessionActor(t, f, s.ID)
	// An incoming webhook bot's session authenticates nobody, as its API key does not.
	wantNoSession(t, f, "webhook bot", mustStartSession(t, f, "webhook").ID)
}

func TestSessionRevocation(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		other := mustStartSession(t, f, "admin") // another user's session survives everything below

		// A new API key, asked with the API key: every session of the user ends.
		a, b := mustStartSession(t, f, "member"), mustStartSession(t, f, "member")
		if _, err := f.svc.RegenerateAPIKey(ctx, f.actor("member")); err != nil {
			t.Fatal(err)
		}
		wantNoSession(t, f, "after a new API key", a.ID)
		wantNoSession(t, f, "after a new API key", b.ID)

		// Asked from a session: that session stays logged in (as Django keeps the session that
		// changed the password), the others end.
		a, b = mustStartSession(t, f, "member"), mustStartSession(t, f, "member")
		if _, err := f.svc.RegenerateAPIKey(ctx, sessionActor(t, f, a.ID)); err != nil {
			t.Fatal(err)
		}
		sessionActor(t, f, a.ID)
		wantNoSession(t, f, "the other session after a new API key", b.ID)

		// A password change, from a session.
		b = mustStartSession(t, f, "member")
		newPassword, oldPassword := "a new horse battery", testPassword
		_, err := f.svc.UpdateSettings(ctx, sessionActor(t, f, a.ID), chat.UpdateSettingsParams{NewPassword: &newPassword, OldPassword: &oldPassword})
		if err != nil {
			t.Fatal(err)
		}
		sessionActor(t, f, a.ID)
		wantNoSession(t, f, "the other session after a password change", b.ID)

		// A refused password change ends nothing.
		wrong := "not the password"
		_, err = f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{NewPassword: &newPassword, OldPassword: &wrong})
		wantError(t, err, chat.CodeBadRequest, 400, "Wrong password!")
		sessionActor(t, f, a.ID)

		// A password change with the API key ends them all.
		_, err = f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{NewPassword: &oldPassword, OldPassword: &newPassword})
		if err != nil {
			t.Fatal(err)
		}
		wantNoSession(t, f, "after a password change by API key", a.ID)

		// Deactivation ends every session, and reactivation does not bring them back.
		a = mustStartSession(t, f, "member")
		if _, err := f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["member"]}); err != nil {
			t.Fatal(err)
		}
		wantNoSession(t, f, "after deactivation", a.ID)
		if _, err := f.svc.ReactivateUser(ctx, f.actor("admin"), chat.ReactivateUserParams{UserID: f.ids["member"]}); err != nil {
			t.Fatal(err)
		}
		wantNoSession(t, f, "after reactivation", a.ID)

		// A bot's new key ends the bot's sessions.
		botSession := mustStartSession(t, f, "bot")
		if _, err := f.svc.RegenerateBotAPIKey(ctx, f.actor("owner"), chat.BotParams{BotID: f.ids["bot"]}); err != nil {
			t.Fatal(err)
		}
		wantNoSession(t, f, "bot after a new key", botSession.ID)

		sessionActor(t, f, other.ID)
	})
}

func TestSessionsPerUserBounded(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var list []chat.Session
	for range chat.MaxSessionsPerUser + 2 {
		list = append(list, mustStartSession(t, f, "member"))
		f.clock.Advance(time.Second) // each login expires a second after the previous one
	}
	wantNoSession(t, f, "the oldest login", list[0].ID)
	wantNoSession(t, f, "the second oldest login", list[1].ID)
	for _, s := range list[2:] {
		sessionActor(t, f, s.ID)
	}
	other := mustStartSession(t, f, "admin")
	sessionActor(t, f, other.ID)
	sessionActor(t, f, list[2].ID) // another user's login ends none of the member's
}
