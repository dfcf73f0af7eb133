package chat_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// joinedBy is what a user got on joining: their role, channels and groups (not system ones).
func joinedBy(t *testing.T, f *fixture, id users.ID) (users.Role, []channels.ID, []users.GroupID) {
	t.Helper()
	var role users.Role
	var chans []channels.ID
	var groups []users.GroupID
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		u, err := tx.Users().Get(id)
		if err != nil {
			return err
		}
		role = u.Role
		subs, err := tx.Subscriptions().ListForUsers([]users.ID{id})
		if err != nil {
			return err
		}
		for _, s := range subs {
			if s.Active {
				chans = append(chans, s.ChannelID)
			}
		}
		all, err := tx.Groups().List()
		for _, g := range all {
			if !g.IsSystemGroup && slices.Contains(g.Members, id) {
				groups = append(groups, g.ID)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return role, chans, groups
}

// TestEditInviteLink checks PATCH /invites/multiuse/{invite_id}: the edited link grants its
// new role, channels, groups, default channels and welcome text to the users who join
// through it, and keeps its key.
func TestEditInviteLink(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		first := f.inviteChannel(t, "first", false, false)
		second := f.inviteChannel(t, "second", false, false)
		def := f.inviteChannel(t, "lobby", false, true)
		group := f.inviteGroup(t, "helpers")
		link := f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{StreamIDs: []channels.ID{first}})
		id := f.mustInvites(t, "admin")[0].ID
		q := f.register(t, "admin", "invites_changed")
		_, err := f.svc.EditInviteLink(ctx, f.actor("admin"), chat.EditInviteLinkParams{
			InviteID: id, InviteAs: ptr(users.RoleModerator), StreamIDs: &[]channels.ID{second, second},
			GroupIDs: &[]users.GroupID{group}, IncludeRealmDefaultSubscriptions: ptr(true), WelcomeMessageCustomText: ptr("Welcome, helper!"),
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := wireEvents(t, f.poll(t, "admin", q, -1, true)); len(got) != 1 || !strings.Contains(got[0], `"type":"invites_changed"`) {
			t.Errorf("the administrator got %v, want one invites_changed", got)
		}
		inv := f.mustInvites(t, "admin")
		if len(inv) != 1 || inv[0].LinkURL != link || inv[0].InvitedAs != users.RoleModerator {
			t.Fatalf("after the edit: %+v (link %s)", inv, link)
		}
		res, err := f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: link, Email: "helper@example.com", FullName: "Helper"})
		if err != nil {
			t.Fatal(err)
		}
		role, chans, groups := joinedBy(t, f, res.UserID)
		slices.Sort(chans)
		if role != users.RoleModerator || !slices.Equal(chans, []channels.ID{second, def}) || !slices.Equal(groups, []users.GroupID{group}) {
			t.Errorf("the joiner: role %d, channels %v, groups %v; want %d, [%d %d], [%d]", role, chans, groups, users.RoleModerator, second, def, group)
		}
		f.ids["helper"] = res.UserID
		if got := welcomeMessages(t, f, "helper"); len(got) != 2 || got[0].Content != welcomeGreeting || got[1].Content != "Welcome, helper!" {
			t.Errorf("the joiner's Welcome Bot messages: %+v", got)
		}
		// A null text goes back to the organization's default (none here): the greeting alone.
		mustDo(t, "EditInviteLink", errOf(f.svc.EditInviteLink(ctx, f.actor("admin"), chat.EditInviteLinkParams{InviteID: id, ClearWelcomeMessage: true})))
		res, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: link, Email: "second@example.com", FullName: "Second"})
		if err != nil {
			t.Fatal(err)
		}
		f.ids["second"] = res.UserID
		if got := welcomeMessages(t, f, "second"); len(got) != 1 || got[0].Content != welcomeGreeting {
			t.Errorf("after clearing the text: %+v", got)
		}
	})
}

// TestEditInviteLinkRefusals checks who may edit which link, and the checks of the new terms.
func TestEditInviteLinkRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.CreateMultiuseInviteGroup = users.GroupMembers })
	ctx := t.Context()
	private := f.inviteChannel(t, "vault", true, false)
	f.mustInviteLink(t, "member", chat.CreateInviteLinkParams{})
	f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{})
	f.mustInviteLink(t, "owner", chat.CreateInviteLinkParams{InviteAs: ptr(users.RoleOwner)})
	all := f.mustInvites(t, "owner")
	mine, admins, owners := all[0].ID, all[1].ID, all[2].ID
	edit := func(who string, p chat.EditInviteLinkParams) error {
		return errOf(f.svc.EditInviteLink(ctx, f.actor(who), p))
	}
	for _, c := range []struct {
		name, who string
		p         chat.EditInviteLinkParams
		code      chat.Code
		msg       string
	}{
		{"someone else's link", "member", chat.EditInviteLinkParams{InviteID: admins}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"a link for owners by an administrator", "admin", chat.EditInviteLinkParams{InviteID: owners}, chat.CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"an unknown link", "admin", chat.EditInviteLinkParams{InviteID: 999}, chat.CodeBadRequest, "No such invitation"},
		{"a role above the member's", "member", chat.EditInviteLinkParams{InviteID: mine, InviteAs: ptr(users.RoleAdministrator)}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"an invalid role", "admin", chat.EditInviteLinkParams{InviteID: admins, InviteAs: ptr(users.Role(123))}, chat.CodeBadRequest, "Invalid invite_as"},
		{"a private channel of others", "member", chat.EditInviteLinkParams{InviteID: mine, StreamIDs: &[]channels.ID{private}}, chat.CodeBadRequest, ""},
		{"by a guest", "guest", chat.EditInviteLinkParams{InviteID: mine}, chat.CodeBadRequest, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, edit(c.who, c.p), c.code, 400, c.msg)
		})
	}
	mustDo(t, "EditInviteLink", edit("member", chat.EditInviteLinkParams{InviteID: mine, IncludeRealmDefaultSubscriptions: ptr(true)}))
	mustDo(t, "RevokeInviteLink", errOf(f.svc.RevokeInviteLink(ctx, f.actor("member"), chat.RevokeInviteLinkParams{InviteID: mine})))
	wantError(t, edit("member", chat.EditInviteLinkParams{InviteID: mine}), chat.CodeBadRequest, 400, "Invitation has already been revoked")
	f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{InviteExpiresInMinutes: ptr(int64(5))})
	all = f.mustInvites(t, "admin")
	f.clock.Advance(10 * time.Minute)
	wantError(t, edit("admin", chat.EditInviteLinkParams{InviteID: all[len(all)-1].ID}), chat.CodeBadRequest, 400, "Invitation has expired")
}

// inviteEditConsistencyCases cover EditInviteLink.
func inviteEditConsistencyCases() []consistencyCase {
	return []consistencyCase{
		{method: "EditInviteLink", name: "role and channels", setup: func(t *testing.T, f *fixture) {
			f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{})
		}, run: func(t *testing.T, f *fixture) {
			id := f.mustInvites(t, "admin")[0].ID
			mustDo(t, "EditInviteLink", errOf(f.svc.EditInviteLink(t.Context(), f.actor("admin"), chat.EditInviteLinkParams{InviteID: id, InviteAs: ptr(users.RoleGuest)})))
		}},
	}
}
