package chat_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
)

func (f *fixture) realm(t *testing.T) realms.Realm {
	t.Helper()
	var r realms.Realm
	err := f.store.View(t.Context(), func(tx storage.ReadTx) (err error) {
		r, err = tx.Realm().Get()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestUpdateRealmRefusalsChangeNothing(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("public")})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("hidden"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	before := f.realm(t)
	for _, c := range []struct {
		name, as string
		id       int64
		code     chat.Code
		msg      string
	}{
		{"a member", "member", int64(f.mustChannel(t, "public").ID), chat.CodeUnauthorizedPrincipal, ""},
		{"an unknown channel", "admin", 999, chat.CodeBadRequest, "Invalid channel ID"},
		{"id zero", "admin", 0, chat.CodeBadRequest, "Invalid channel ID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.UpdateRealm(ctx, f.actor(c.as), chat.UpdateRealmParams{NewStreamAnnouncementsStreamID: ptr(c.id)})
			var e *chat.Error
			if !errors.As(err, &e) || e.Code != c.code || (c.msg != "" && e.Msg != c.msg) {
				t.Fatalf("error = %v, want %s %q", err, c.code, c.msg)
			}
			if diff := cmp.Diff(before, f.realm(t)); diff != "" {
				t.Errorf("a refused change altered the realm:\n%s", diff)
			}
		})
	}
}
