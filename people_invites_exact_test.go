package chat_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// An administrator who is not subscribed to a private channel sees it (metadata) but has no
// content access, so Zulip's access_stream_by_id refuses it for an invitation: "Invalid
// channel ID". Subscribed, the same administrator may invite to it.
func TestCreateInviteLinkPrivateChannelWithoutContentAccess(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		res, err := f.svc.CreateChannel(ctx, f.actor("owner"), chat.CreateChannelParams{
			Name: "secret", Subscribers: []users.ID{f.ids["owner"]},
			NewChannelSettings: chat.NewChannelSettings{InviteOnly: true},
		})
		if err != nil {
			t.Fatal(err)
		}
		before := f.mustInvites(t, "owner")
		_, err = f.svc.CreateInviteLink(ctx, f.actor("admin"), chat.CreateInviteLinkParams{StreamIDs: []channels.ID{res.ID}})
		wantError(t, err, chat.CodeBadRequest, 400, fmt.Sprintf("Invalid channel ID %d. No invites were sent.", res.ID))
		if diff := cmp.Diff(before, f.mustInvites(t, "owner")); diff != "" {
			t.Fatalf("invites changed (-before +after):\n%s", diff)
		}
		f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("secret"), Principals: chat.Principals{IDs: []users.ID{f.ids["admin"]}}})
		f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{StreamIDs: []channels.ID{res.ID}})
	})
}
