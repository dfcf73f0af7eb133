package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

func TestUpdateSubscriptionsRefusals(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("general")})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("general")})
	for _, c := range []struct {
		name, as string
		p        chat.UpdateSubscriptionsParams
		msg      string
	}{
		{"nothing to do", "member", chat.UpdateSubscriptionsParams{}, `Nothing to do. Specify at least one of "add" or "delete".`},
		// The subscribe half always runs, so a guest is refused even when only leaving.
		{"guest", "guest", chat.UpdateSubscriptionsParams{Delete: []string{"general"}}, "Not allowed for guest users"},
		{"unknown channel to leave", "member", chat.UpdateSubscriptionsParams{Add: subs("newer"), Delete: []string{"nowhere"}}, "Channel(s) (nowhere) do not exist"},
		{"bad name", "member", chat.UpdateSubscriptionsParams{Add: subs(""), Delete: []string{"general"}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := f.channelSnapshot(t)
			_, err := f.svc.UpdateSubscriptions(ctx, f.actor(c.as), c.p)
			wantError(t, err, chat.CodeBadRequest, 400, c.msg)
			if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
				t.Errorf("a refused request changed the store:\n%s", diff)
			}
		})
	}
}
