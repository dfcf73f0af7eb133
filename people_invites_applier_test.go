package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// invitesConsistencyCases are the consistency cases of invitations. invites_changed carries no
// state (clients refetch GET /invites); redeeming a link creates a user with channels and
// groups, which every viewer must learn of through realm_user, user_group and subscription
// events.
func invitesConsistencyCases() []consistencyCase {
	seed := func(t *testing.T, f *fixture) {
		pub := f.inviteChannel(t, "lobby", false, true)
		sec := f.inviteChannel(t, "backroom", true, false)
		g := f.inviteGroup(t, "crew")
		f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{StreamIDs: []channels.ID{pub, sec}, GroupIDs: []users.GroupID{g}, IncludeRealmDefaultSubscriptions: true})
	}
	return []consistencyCase{
		{method: "CreateInviteLink", name: "with channels", setup: seed, run: func(t *testing.T, f *fixture) {
			f.mustInviteLink(t, "owner", chat.CreateInviteLinkParams{InviteAs: ptr(users.RoleAdministrator)})
		}},
		{method: "RevokeInviteLink", name: "by an administrator", setup: seed, run: func(t *testing.T, f *fixture) {
			id := f.mustInvites(t, "admin")[0].ID
			mustDo(t, "RevokeInviteLink", errOf(f.svc.RevokeInviteLink(t.Context(), f.actor("owner"), chat.RevokeInviteLinkParams{InviteID: id})))
		}},
		{method: "RedeemInviteLink", name: "member with channels and a group", setup: seed, run: func(t *testing.T, f *fixture) {
			link := f.mustInvites(t, "admin")[0].LinkURL
			mustDo(t, "RedeemInviteLink", errOf(f.svc.RedeemInviteLink(t.Context(), chat.RedeemInviteLinkParams{Key: link, Email: "joiner@example.com", FullName: "Joiner"})))
		}},
	}
}
