package engine_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// newEngine returns an engine on a memory store holding an organization and one active member,
// and the list of event types it has published, in order.
func newEngine(t *testing.T) (*engine.Engine, engine.Actor, *[]string) {
	t.Helper()
	store := memory.New()
	t.Cleanup(func() { store.Close() })
	var id users.ID
	if err := store.Update(t.Context(), func(tx storage.Tx) error {
		if err := tx.Realm().Put(realms.Realm{Name: "Org", URL: "https://chat.example.com/"}); err != nil {
			return err
		}
		var err error
		id, err = tx.Users().Create(users.User{Email: "ada@example.com", FullName: "Ada", Role: users.RoleMember, IsActive: true})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var published []string
	eng := engine.New(engine.Config{Store: store, Publish: func(ev *engine.Events) {
		for _, p := range ev.List {
			published = append(published, p.Type)
		}
	}})
	return eng, engine.Actor{UserID: id}, &published
}

// TestMutatePublishesAfterCommit: a mutation's events are published once it commits, in the
// order it added them, then its AfterCommit work runs; a failed mutation publishes nothing
// and runs nothing.
func TestMutatePublishesAfterCommit(t *testing.T) {
	t.Parallel()
	eng, actor, published := newEngine(t)
	afterSaw := -1 // how many events the work after the commit found published
	err := eng.Mutate(t.Context(), actor, engine.SignedIn, func(o *engine.WriteOp) error {
		o.Ev.Add("first", nil, []int64{int64(o.Me.ID)})
		o.Ev.Add("nobody", nil, nil) // no recipients: not recorded
		o.Ev.Add("second", nil, []int64{int64(o.Me.ID)})
		o.Ev.AfterCommit(func() { afterSaw = len(*published) })
		if len(*published) != 0 {
			t.Error("an event was published before the commit")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"first", "second"}; !slices.Equal(*published, want) {
		t.Errorf("published %v, want %v", *published, want)
	}
	if afterSaw != 2 {
		t.Errorf("the work after the commit found %d events published, want 2 (it runs after them)", afterSaw)
	}

	failed := errors.New("the body fails")
	err = eng.Mutate(t.Context(), actor, engine.SignedIn, func(o *engine.WriteOp) error {
		o.Ev.Add("third", nil, []int64{int64(o.Me.ID)})
		o.Ev.AfterCommit(func() { t.Error("the work after a failed mutation's commit ran") })
		return engine.BadRequest("%v", failed)
	})
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != engine.CodeBadRequest {
		t.Errorf("a failed body: %v, want its BAD_REQUEST", err)
	}
	if len(*published) != 2 {
		t.Errorf("a failed mutation published: %v", *published)
	}
}

// TestGatesRefuse: the gate runs first, inside the transaction, and its refusal is the
// operation's error; the body does not run.
func TestGatesRefuse(t *testing.T) {
	t.Parallel()
	eng, member, _ := newEngine(t)
	for _, tc := range []struct {
		name  string
		actor engine.Actor
		gate  engine.Gate
		code  engine.Code
	}{
		{"a spectator where one is needed", engine.Actor{}, engine.SignedIn, engine.CodeUnauthorized},
		{"an unknown user", engine.Actor{UserID: 999}, engine.SignedIn, engine.CodeUnauthorized},
		{"a member where an administrator is needed", member, engine.Admins, engine.CodeUnauthorizedPrincipal},
		{"a member where an owner is needed", member, engine.Owners, engine.CodeUnauthorizedPrincipal},
		{"spectators in an organization that allows none", engine.Actor{}, engine.Spectators, engine.CodeUnauthorized},
	} {
		err := eng.Read(t.Context(), tc.actor, tc.gate, func(*engine.ReadOp) error {
			t.Errorf("%s: the body ran", tc.name)
			return nil
		})
		var e *engine.Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("%s: %v, want code %q", tc.name, err, tc.code)
		}
	}
	if err := eng.Read(t.Context(), member, engine.Members, func(o *engine.ReadOp) error {
		if o.Me.ID != member.UserID {
			t.Errorf("the body's user is %d, want %d", o.Me.ID, member.UserID)
		}
		return nil
	}); err != nil {
		t.Errorf("a member through Members: %v", err)
	}
}

// TestWorldErrorComesFirst: a read of the world that failed is the operation's error, before
// the body's own, and a storage failure becomes an internal error.
func TestWorldErrorComesFirst(t *testing.T) {
	t.Parallel()
	eng, actor, _ := newEngine(t)
	readFailed := errors.New("a read of the world failed")
	err := eng.Read(t.Context(), actor, engine.SignedIn, func(o *engine.ReadOp) error {
		o.World().Fail(readFailed)
		return engine.BadRequest("the body's own error")
	})
	var e *engine.Error
	if !errors.As(err, &e) || e.Code != engine.CodeInternal || !errors.Is(err, readFailed) {
		t.Errorf("got %v, want an internal error wrapping the world's", err)
	}
}

// TestCloseRefusesMutations: once Close has run, mutations are refused with 503 and publish
// nothing, while reads go on.
func TestCloseRefusesMutations(t *testing.T) {
	t.Parallel()
	eng, actor, published := newEngine(t)
	closed := false
	if err := eng.Close(func() error { closed = true; return nil }); err != nil || !closed {
		t.Fatalf("Close: %v, its work ran: %v", err, closed)
	}
	err := eng.Mutate(t.Context(), actor, engine.SignedIn, func(o *engine.WriteOp) error {
		o.Ev.Add("late", nil, []int64{1})
		return nil
	})
	var e *engine.Error
	if !errors.As(err, &e) || e.HTTPStatus() != 503 {
		t.Errorf("a mutation after Close: %v, want 503", err)
	}
	if len(*published) != 0 {
		t.Errorf("published after Close: %v", *published)
	}
	if err := eng.Read(t.Context(), actor, engine.SignedIn, func(*engine.ReadOp) error { return nil }); err != nil {
		t.Errorf("a read after Close: %v", err)
	}
}

// TestRuleError: a leaf rule's refusal becomes BAD_REQUEST with the rule's own message.
func TestRuleError(t *testing.T) {
	t.Parallel()
	e := engine.RuleError(errors.New("Name too long!"))
	if e.Code != engine.CodeBadRequest || e.Msg != "Name too long!" || e.HTTPStatus() != 400 {
		t.Errorf("RuleError = %+v, want BAD_REQUEST, 400, the rule's message", e)
	}
}
