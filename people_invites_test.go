package chat_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

var inviteLinkRE = regexp.MustCompile(`^https://chat\.example\.com/join/([a-z2-7]{24})/$`)

func (f *fixture) mustInvites(t *testing.T, name string) []chat.InviteRecord {
	t.Helper()
	res, err := f.svc.GetInvites(t.Context(), f.actor(name), chat.GetInvitesParams{})
	if err != nil {
		t.Fatalf("GetInvites: %v", err)
	}
	return res.Invites
}

func (f *fixture) mustInviteLink(t *testing.T, name string, p chat.CreateInviteLinkParams) string {
	t.Helper()
	res, err := f.svc.CreateInviteLink(t.Context(), f.actor(name), p)
	if err != nil {
		t.Fatalf("CreateInviteLink: %v", err)
	}
	if !inviteLinkRE.MatchString(res.InviteLink) {
		t.Fatalf("invite_link %q is not {realm_url}/join/{key}/", res.InviteLink)
	}
	return res.InviteLink
}

// inviteChannel creates a channel as the administrator (subscribed), optionally private or a
// default channel.
func (f *fixture) inviteChannel(t *testing.T, name string, inviteOnly, isDefault bool) channels.ID {
	t.Helper()
	res, err := f.svc.CreateChannel(t.Context(), f.actor("admin"), chat.CreateChannelParams{
		Name: name, Subscribers: []users.ID{f.ids["admin"]},
		NewChannelSettings: chat.NewChannelSettings{InviteOnly: inviteOnly, IsDefaultStream: isDefault},
	})
	if err != nil {
		t.Fatalf("CreateChannel(%s): %v", name, err)
	}
	return res.ID
}

func (f *fixture) inviteGroup(t *testing.T, name string) users.GroupID {
	t.Helper()
	res, err := f.svc.CreateUserGroup(t.Context(), f.actor("admin"), chat.CreateUserGroupParams{Name: name, Description: name})
	if err != nil {
		t.Fatalf("CreateUserGroup: %v", err)
	}
	return res.GroupID
}

func TestCreateInviteLink(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	public := f.inviteChannel(t, "public", false, false)
	secret := f.inviteChannel(t, "secret", true, false)
	group := f.inviteGroup(t, "designers")
	qAdmin := f.register(t, "admin", "invites_changed")
	qOwner := f.register(t, "owner", "invites_changed")
	qMember := f.register(t, "member", "invites_changed")

	link := f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{
		InviteAs: ptr(users.RoleModerator), StreamIDs: []channels.ID{secret, public, public}, GroupIDs: []users.GroupID{group},
		WelcomeMessageCustomText: ptr("Welcome!"), InviteExpiresInMinutes: ptr(int64(60)),
	})
	now := f.clock.Now().Unix()
	for _, who := range []struct{ name, q string }{{"admin", qAdmin}, {"owner", qOwner}} {
		got := wireEvents(t, f.poll(t, who.name, who.q, -1, true))
		if diff := cmp.Diff([]string{`{"type":"invites_changed","id":0}`}, got); diff != "" {
			t.Errorf("%s events (-want +got):\n%s", who.name, diff)
		}
	}
	if evs := f.poll(t, "member", qMember, -1, true); len(evs) != 0 {
		t.Errorf("a member got %v", wireEvents(t, evs))
	}
	exp := now + 3600
	want := []chat.InviteRecord{{ID: 1, InvitedByUserID: f.ids["admin"], Invited: now, ExpiryDate: &exp, InvitedAs: users.RoleModerator, IsMultiuse: true, LinkURL: link}}
	if diff := cmp.Diff(want, f.mustInvites(t, "owner")); diff != "" {
		t.Errorf("GetInvites as owner (-want +got):\n%s", diff)
	}
	_, err := f.svc.GetInvites(ctx, f.actor("guest"), chat.GetInvitesParams{})
	wantError(t, err, chat.CodeBadRequest, 400, "Not allowed for guest users")

	// Defaults: member role, 14400 minutes; null never expires.
	f.mustInviteLink(t, "owner", chat.CreateInviteLinkParams{})
	f.mustInviteLink(t, "owner", chat.CreateInviteLinkParams{NeverExpires: true, InviteAs: ptr(users.RoleOwner)})
	got := f.mustInvites(t, "admin")
	if len(got) != 3 || got[1].InvitedAs != users.RoleMember || *got[1].ExpiryDate != now+14400*60 || got[2].ExpiryDate != nil {
		t.Errorf("invites = %+v", got)
	}
}

func TestCreateInviteLinkRefusals(t *testing.T) {
	t.Parallel()
	// Members may create links here, so that the channel and group rules are reachable.
	f := newFixture(t, func(o *chat.Options) { o.CreateMultiuseInviteGroup = users.GroupMembers })
	ctx := t.Context()
	public := f.inviteChannel(t, "public", false, false)
	secret := f.inviteChannel(t, "secret", true, false)
	group := f.inviteGroup(t, "designers")
	f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{})
	q := f.register(t, "admin", "invites_changed")
	before := f.mustInvites(t, "admin")
	tests := []struct {
		name  string
		actor string
		p     chat.CreateInviteLinkParams
		code  chat.Code
		msg   string
	}{
		{"guest", "guest", chat.CreateInviteLinkParams{}, chat.CodeBadRequest, "Not allowed for guest users"},
		{"bot", "bot", chat.CreateInviteLinkParams{}, chat.CodeBadRequest, "This endpoint does not accept bot requests."},
		{"owner role by an administrator", "admin", chat.CreateInviteLinkParams{InviteAs: ptr(users.RoleOwner)}, chat.CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"administrator role by a member", "member", chat.CreateInviteLinkParams{InviteAs: ptr(users.RoleAdministrator)}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"moderator role by a member", "member", chat.CreateInviteLinkParams{InviteAs: ptr(users.RoleModerator)}, chat.CodeBadRequest, "Insufficient permission"},
		{"not a role", "admin", chat.CreateInviteLinkParams{InviteAs: ptr[users.Role](500)}, chat.CodeBadRequest, "Invalid invite_as"},
		{"unknown channel", "admin", chat.CreateInviteLinkParams{StreamIDs: []channels.ID{public, 999}}, chat.CodeBadRequest, "Invalid channel ID 999. No invites were sent."},
		{"private channel the member cannot see", "member", chat.CreateInviteLinkParams{StreamIDs: []channels.ID{secret}}, chat.CodeBadRequest,
			"Invalid channel ID " + itoa(int64(secret)) + ". No invites were sent."},
		{"unknown group", "admin", chat.CreateInviteLinkParams{GroupIDs: []users.GroupID{999}}, chat.CodeBadRequest, "Invalid user group"},
		{"group the member may not add to", "member", chat.CreateInviteLinkParams{GroupIDs: []users.GroupID{group}}, chat.CodeBadRequest, "Insufficient permission"},
		{"welcome text too long", "admin", chat.CreateInviteLinkParams{WelcomeMessageCustomText: ptr(strings.Repeat("é", users.MaxWelcomeMessageLength+1))}, chat.CodeBadRequest,
			"welcome_message_custom_text is too long (limit: 8000 characters)"},
		{"zero minutes", "admin", chat.CreateInviteLinkParams{InviteExpiresInMinutes: ptr(int64(0))}, chat.CodeBadRequest, "Invalid invite_expires_in_minutes"},
		{"too many minutes", "admin", chat.CreateInviteLinkParams{InviteExpiresInMinutes: ptr(int64(users.MaxInviteValidityMinutes + 1))}, chat.CodeBadRequest, "invite_expires_in_minutes is too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.CreateInviteLink(ctx, f.actor(tt.actor), tt.p)
			wantError(t, err, tt.code, 400, tt.msg)
			if diff := cmp.Diff(before, f.mustInvites(t, "admin")); diff != "" {
				t.Errorf("invites changed (-before +after):\n%s", diff)
			}
			if evs := f.poll(t, "admin", q, -1, true); len(evs) != 0 {
				t.Errorf("events after a refusal: %v", wireEvents(t, evs))
			}
		})
	}

	t.Run("members outside create_multiuse_invite_group", func(t *testing.T) {
		g := newFixture(t)
		_, err := g.svc.CreateInviteLink(ctx, g.actor("member"), chat.CreateInviteLinkParams{})
		wantError(t, err, chat.CodeBadRequest, 400, "Insufficient permission")
		if got := g.mustInvites(t, "admin"); len(got) != 0 {
			t.Errorf("invites = %+v", got)
		}
	})
	t.Run("subscribing others needs the organization's permission", func(t *testing.T) {
		g := newFixture(t, func(o *chat.Options) { o.CreateMultiuseInviteGroup = users.GroupMembers })
		ch := g.inviteChannel(t, "public", false, true)
		// Restrict can_add_subscribers_group to administrators.
		err := g.store.Update(ctx, func(tx storage.Tx) error {
			r, err := tx.Realm().Get()
			if err != nil {
				return err
			}
			admins, err := tx.Groups().GetByName(users.GroupAdministrators)
			if err != nil {
				return err
			}
			r.CanAddSubscribersGroup = users.Named(admins.ID)
			return tx.Realm().Put(r)
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = g.svc.CreateInviteLink(ctx, g.actor("member"), chat.CreateInviteLinkParams{StreamIDs: []channels.ID{ch}})
		wantError(t, err, chat.CodeBadRequest, 400, "You do not have permission to subscribe other users to channels.")
		// Without channels the member may still invite.
		g.mustInviteLink(t, "member", chat.CreateInviteLinkParams{})
	})
	t.Run("a member's welcome text is ignored", func(t *testing.T) {
		f.mustInviteLink(t, "member", chat.CreateInviteLinkParams{WelcomeMessageCustomText: ptr(strings.Repeat("x", 9000))})
	})
}

func TestRevokeInviteLink(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.CreateMultiuseInviteGroup = users.GroupMembers })
	ctx := t.Context()
	f.mustInviteLink(t, "member", chat.CreateInviteLinkParams{})
	f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{})
	mine := f.mustInvites(t, "member")
	if len(mine) != 1 || len(f.mustInvites(t, "admin")) != 2 {
		t.Fatalf("member sees %+v", mine)
	}
	adminInvite := f.mustInvites(t, "admin")[1].ID
	q := f.register(t, "member", "invites_changed")

	_, err := f.svc.RevokeInviteLink(ctx, f.actor("member"), chat.RevokeInviteLinkParams{InviteID: adminInvite})
	wantError(t, err, chat.CodeUnauthorizedPrincipal, 400, "Must be an organization administrator")
	_, err = f.svc.RevokeInviteLink(ctx, f.actor("member"), chat.RevokeInviteLinkParams{InviteID: 999})
	wantError(t, err, chat.CodeBadRequest, 400, "No such invitation")
	if got := f.mustInvites(t, "admin"); len(got) != 2 {
		t.Fatalf("refusals changed the invites: %+v", got)
	}
	if _, err := f.svc.RevokeInviteLink(ctx, f.actor("admin"), chat.RevokeInviteLinkParams{InviteID: mine[0].ID}); err != nil {
		t.Fatal(err)
	}
	if got := wireEvents(t, f.poll(t, "member", q, -1, true)); len(got) != 1 {
		t.Errorf("the inviter got %v", got)
	}
	_, err = f.svc.RevokeInviteLink(ctx, f.actor("member"), chat.RevokeInviteLinkParams{InviteID: mine[0].ID})
	wantError(t, err, chat.CodeBadRequest, 400, "Invitation has already been revoked")
	if got := f.mustInvites(t, "member"); len(got) != 0 {
		t.Errorf("revoked invitation still listed: %+v", got)
	}
}

func TestRedeemInviteLink(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	public := f.inviteChannel(t, "public", false, false)
	secret := f.inviteChannel(t, "secret", true, false)
	def := f.inviteChannel(t, "welcome", false, true)
	other := f.inviteChannel(t, "other", false, false)
	group := f.inviteGroup(t, "newcomers")
	link := f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{
		InviteAs: ptr(users.RoleGuest), StreamIDs: []channels.ID{public, secret}, GroupIDs: []users.GroupID{group},
		IncludeRealmDefaultSubscriptions: true, InviteExpiresInMinutes: ptr(int64(10)),
	})
	q := f.register(t, "admin")

	res, err := f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: link, Email: "new@example.com", FullName: "New Guest", Password: "a good password"})
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.svc.GetUser(ctx, f.actor("admin"), chat.GetUserParams{UserID: res.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if u.User.Role != users.RoleGuest || u.User.FullName != "New Guest" {
		t.Errorf("new user = %+v", u.User)
	}
	subs, err := f.svc.GetSubscriptions(ctx, chat.Actor{UserID: res.UserID}, chat.GetSubscriptionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var got []channels.ID
	for _, s := range subs.Subscriptions {
		got = append(got, s.StreamID)
	}
	if diff := cmp.Diff([]channels.ID{public, secret, def}, got); diff != "" {
		t.Errorf("subscriptions (-want +got):\n%s", diff)
	}
	_ = other
	member, err := f.svc.GetIsUserGroupMember(ctx, f.actor("admin"), chat.GetIsUserGroupMemberParams{GroupID: group, UserID: res.UserID})
	if err != nil || !member.IsUserGroupMember {
		t.Errorf("group membership = %+v, %v", member, err)
	}
	// The administrator learns of the user, of the group's new member (besides the system
	// group of the role) and of the new subscriber of each of the three channels.
	evs := wireEvents(t, f.poll(t, "admin", q, -1, true))
	joined := `"op":"add_members","group_id":` + itoa(int64(group)) + `,"user_ids":[` + itoa(int64(res.UserID)) + `]`
	var realmUser, groupAdd, peerAdd int
	for _, e := range evs {
		switch {
		case strings.Contains(e, `"type":"realm_user","op":"add"`):
			realmUser++
		case strings.Contains(e, joined):
			groupAdd++
		case strings.Contains(e, `"op":"peer_add"`):
			peerAdd++
		}
	}
	if realmUser != 1 || groupAdd != 1 || peerAdd != 3 {
		t.Errorf("the administrator's events: %v", evs)
	}

	// The link stays usable until it expires.
	if _, err := f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: link, Email: "second@example.com", FullName: "Second"}); err != nil {
		t.Fatal(err)
	}
	count := f.userCount(t)
	f.clock.Advance(11 * time.Minute)
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: link, Email: "late@example.com", FullName: "Too Late"})
	wantError(t, err, chat.CodeBadRequest, 400, "The invitation link has expired.")
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: "aaaaaaaaaaaaaaaaaaaaaaaa", Email: "x@example.com", FullName: "Nobody"})
	wantError(t, err, chat.CodeBadRequest, 400, "The invitation link is not valid.")
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: "not a key", Email: "x@example.com", FullName: "Nobody"})
	wantError(t, err, chat.CodeBadRequest, 400, "The invitation link is not valid.")

	forever := f.mustInviteLink(t, "admin", chat.CreateInviteLinkParams{NeverExpires: true})
	key := inviteLinkRE.FindStringSubmatch(forever)[1]
	f.clock.Advance(1000 * 24 * time.Hour)
	if _, err := f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: key, Email: "forever@example.com", FullName: "Patient"}); err != nil {
		t.Fatalf("never-expiring link: %v", err)
	}
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: key, Email: "forever@example.com", FullName: "Twice"})
	wantError(t, err, chat.CodeBadRequest, 400, "Email 'forever@example.com' already in use")
	invites := f.mustInvites(t, "admin")
	if _, err := f.svc.RevokeInviteLink(ctx, f.actor("admin"), chat.RevokeInviteLinkParams{InviteID: invites[len(invites)-1].ID}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.RedeemInviteLink(ctx, chat.RedeemInviteLinkParams{Key: key, Email: "revoked@example.com", FullName: "Revoked"})
	wantError(t, err, chat.CodeBadRequest, 400, "The invitation link has been revoked.")
	if got := f.userCount(t); got != count+1 {
		t.Errorf("%d users, want %d: a refused redemption created a user", got, count+1)
	}
}
