package chat_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

func TestNewUsersJoinDefaultChannels(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("welcome", "other", "old news")})
	for _, name := range []string{"welcome", "old news"} {
		if _, err := f.svc.AddDefaultStream(ctx, f.actor("admin"), chat.DefaultStreamParams{StreamID: f.mustChannel(t, name).ID}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.svc.ArchiveStream(ctx, f.actor("admin"), chat.ArchiveStreamParams{StreamID: f.mustChannel(t, "old news").ID}); err != nil {
		t.Fatal(err)
	}
	qMember := f.register(t, "member")
	welcome := f.mustChannel(t, "welcome").ID

	names := func(who users.ID) []string {
		t.Helper()
		got, err := f.svc.GetSubscriptions(ctx, chat.Actor{UserID: who}, chat.GetSubscriptionsParams{})
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, s := range got.Subscriptions {
			out = append(out, s.Name)
		}
		return out
	}
	human := mustProvision(t, f, chat.ProvisionUserParams{Email: "new@example.com", FullName: "New Person"}).UserID
	if diff := cmp.Diff([]string{"welcome"}, names(human)); diff != "" {
		t.Errorf("provisioned human's subscriptions (-want +got):\n%s", diff)
	}
	bot := mustProvision(t, f, chat.ProvisionUserParams{Email: "newbot@example.com", FullName: "New Bot", BotType: users.BotGeneric, BotOwnerID: f.ids["member"]}).UserID
	if diff := cmp.Diff([]string{}, names(bot)); diff != "" {
		t.Errorf("bot's subscriptions (-want +got):\n%s", diff)
	}
	// Others learn of the new subscriber through peer_add.
	var peerAdds []string
	for _, e := range eventMaps(t, f.poll(t, "member", qMember, -1, true)) {
		if e["type"] == "subscription" {
			peerAdds = append(peerAdds, fmt.Sprint(e["op"], e["stream_ids"], e["user_ids"]))
		}
	}
	if diff := cmp.Diff([]string{fmt.Sprint("peer_add", []any{float64(welcome)}, []any{float64(human)})}, peerAdds); diff != "" {
		t.Errorf("member's subscription events (-want +got):\n%s", diff)
	}

	// An invitation without the default channels subscribes to its own channels only.
	other := f.mustChannel(t, "other").ID
	f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{StreamIDs: []channels.ID{other}})
	res, err := f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: f.mustInvites(t, "admin")[0].LinkURL, Email: "invited@example.com", FullName: "Invited One"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"other"}, names(res.UserID)); diff != "" {
		t.Errorf("invited user's subscriptions (-want +got):\n%s", diff)
	}
}
