package channels_test

import (
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// Group ids of a small organization: the system groups by role, plus group 20 holding only
// user 14 (a member) and group 21 holding only user 15 (a guest).
const (
	gNobody, gOwners, gAdmins, gModerators, gFull, gMembers, gEveryone users.GroupID = 1, 2, 3, 4, 5, 6, 7
	gMember14, gGuest15                                                users.GroupID = 20, 21
)

var roleUsers = map[string]users.User{
	"owner":     {ID: 10, Role: users.RoleOwner, IsActive: true},
	"admin":     {ID: 11, Role: users.RoleAdministrator, IsActive: true},
	"moderator": {ID: 12, Role: users.RoleModerator, IsActive: true},
	"member":    {ID: 13, Role: users.RoleMember, IsActive: true},
	"grouped":   {ID: 14, Role: users.RoleMember, IsActive: true},
	"guest":     {ID: 15, Role: users.RoleGuest, IsActive: true},
	"gone":      {ID: 16, Role: users.RoleAdministrator, IsActive: false},
}

func membership() *users.Membership {
	groups := []users.Group{
		{ID: gNobody}, {ID: gOwners, Members: []users.ID{10}},
		{ID: gAdmins, Members: []users.ID{11, 16}, Subgroups: []users.GroupID{gOwners}},
		{ID: gModerators, Members: []users.ID{12}, Subgroups: []users.GroupID{gAdmins}},
		{ID: gFull, Members: []users.ID{13, 14}, Subgroups: []users.GroupID{gModerators}},
		{ID: gMembers, Subgroups: []users.GroupID{gFull}},
		{ID: gEveryone, Members: []users.ID{15}, Subgroups: []users.GroupID{gMembers}},
		{ID: gMember14, Members: []users.ID{14}},
		{ID: gGuest15, Members: []users.ID{15}},
	}
	active := map[users.ID]bool{}
	for _, u := range roleUsers {
		active[u.ID] = u.IsActive
	}
	return users.NewMembership(groups, active)
}

// channel is a channel with Zulip's defaults (administered by its creator, the owner).
func channel(private bool, edit func(*channels.Channel)) channels.Channel {
	c := channels.Channel{ID: 1, Name: "c", CreatorID: 10, InviteOnly: private, HistoryPublicToSubscribers: !private}
	names := map[string]users.GroupID{users.GroupNobody: gNobody, users.GroupAdministrators: gAdmins, users.GroupEveryone: gEveryone}
	c.ApplyDefaults(func(n string) users.GroupID { return names[n] })
	if edit != nil {
		edit(&c)
	}
	return c
}

type predicate struct {
	name string
	fn   func(m *users.Membership, c channels.Channel, v channels.Viewer) bool
}

var predicates = []predicate{
	{"content", channels.HasContentAccess},
	{"metadata", channels.HasMetadataAccess},
	{"administer", channels.CanAdminister},
	{"subscribe self", func(m *users.Membership, c channels.Channel, v channels.Viewer) bool {
		return channels.CanSubscribeSelf(m, c, v, users.Named(gMembers))
	}},
	{"add subscribers", func(m *users.Membership, c channels.Channel, v channels.Viewer) bool {
		return channels.CanAddSubscribers(m, c, v, users.Named(gMembers))
	}},
	{"remove subscribers", channels.CanRemoveSubscribers},
	{"post", channels.CanPost},
	{"create topic", channels.CanCreateTopic},
}

// TestAccessMatrix pins every predicate for every role, for each group setting that grants
// something, on public and private channels, subscribed or not. Each row lists the users for
// whom the predicate holds.
func TestAccessMatrix(t *testing.T) {
	t.Parallel()
	all := []string{"owner", "admin", "moderator", "member", "grouped", "guest"}
	nonGuests := []string{"owner", "admin", "moderator", "member", "grouped"}
	admins := []string{"owner", "admin"}
	tests := []struct {
		name       string
		c          channels.Channel
		subscribed []string
		want       map[string][]string // predicate -> users
	}{
		{"public channel, defaults", channel(false, nil), nil, map[string][]string{
			"content": nonGuests, "metadata": nonGuests, "administer": admins,
			"subscribe self": nonGuests, "add subscribers": nonGuests, "remove subscribers": admins,
			"post": nonGuests, "create topic": nonGuests,
		}},
		{"public channel, guest subscribed", channel(false, nil), []string{"guest"}, map[string][]string{
			"content": all, "metadata": all, "administer": admins,
			"subscribe self": all, "add subscribers": nonGuests, "remove subscribers": admins,
			"post": all, "create topic": all,
		}},
		{"private channel, nobody subscribed", channel(true, nil), nil, map[string][]string{
			"metadata": admins, "administer": admins, "subscribe self": admins, "add subscribers": admins,
			"remove subscribers": admins,
		}},
		{"private channel, member and guest subscribed", channel(true, nil), []string{"member", "guest"}, map[string][]string{
			"content": {"member", "guest"}, "metadata": {"owner", "admin", "member", "guest"}, "administer": admins,
			"subscribe self": {"owner", "admin", "member", "guest"}, "add subscribers": {"owner", "admin", "member"},
			"remove subscribers": admins, "post": {"member", "guest"}, "create topic": {"member", "guest"},
		}},
		{"private channel, can_subscribe_group", channel(true, func(c *channels.Channel) {
			c.CanSubscribeGroup = users.GroupSetting{Subgroups: []users.GroupID{gMember14, gGuest15}}
		}), nil, map[string][]string{
			"content": {"grouped"}, "metadata": {"owner", "admin", "grouped"}, "administer": admins,
			"subscribe self": {"owner", "admin", "grouped"}, "add subscribers": admins, "remove subscribers": admins,
			"post": {"grouped"}, "create topic": {"grouped"},
		}},
		{"private channel, can_add_subscribers_group", channel(true, func(c *channels.Channel) {
			c.CanAddSubscribersGroup = users.GroupSetting{Members: []users.ID{14, 15}}
		}), nil, map[string][]string{
			"content": {"grouped"}, "metadata": {"owner", "admin", "grouped"}, "administer": admins,
			"subscribe self": {"owner", "admin", "grouped"}, "add subscribers": {"owner", "admin", "grouped"},
			"remove subscribers": admins, "post": {"grouped"}, "create topic": {"grouped"},
		}},
		{"private channel, can_administer_channel_group", channel(true, func(c *channels.Channel) {
			c.CanAdministerChannelGroup = users.Named(gMember14)
		}), nil, map[string][]string{
			"metadata": {"owner", "admin", "grouped"}, "administer": {"owner", "admin", "grouped"},
			"subscribe self": {"owner", "admin", "grouped"}, "add subscribers": {"owner", "admin", "grouped"},
			"remove subscribers": {"owner", "admin", "grouped"},
		}},
		{"public channel, can_remove_subscribers_group is moderators", channel(false, func(c *channels.Channel) {
			c.CanRemoveSubscribersGroup = users.Named(gModerators)
		}), nil, map[string][]string{
			"content": nonGuests, "metadata": nonGuests, "administer": admins,
			"subscribe self": nonGuests, "add subscribers": nonGuests, "remove subscribers": {"owner", "admin", "moderator"},
			"post": nonGuests, "create topic": nonGuests,
		}},
		{"public channel, only administrators post, full members create topics", channel(false, func(c *channels.Channel) {
			c.CanSendMessageGroup = users.Named(gAdmins)
			c.CanCreateTopicGroup = users.Named(gFull)
		}), nil, map[string][]string{
			"content": nonGuests, "metadata": nonGuests, "administer": admins,
			"subscribe self": nonGuests, "add subscribers": nonGuests, "remove subscribers": admins,
			"post": admins, "create topic": admins,
		}},
		{"web-public channel", channel(false, func(c *channels.Channel) { c.IsWebPublic = true }), nil, map[string][]string{
			"content": all, "metadata": all, "administer": admins,
			"subscribe self": all, "add subscribers": nonGuests, "remove subscribers": admins,
			"post": all, "create topic": all,
		}},
		{"archived channel", channel(false, func(c *channels.Channel) { c.IsArchived = true }), nil, map[string][]string{
			"content": nonGuests, "metadata": nonGuests, "administer": admins,
			"subscribe self": nonGuests, "add subscribers": nonGuests, "remove subscribers": admins,
		}},
	}
	m := membership()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range predicates {
				want := map[string]bool{}
				for _, u := range tt.want[p.name] {
					want[u] = true
				}
				for name, u := range roleUsers {
					sub := false
					for _, s := range tt.subscribed {
						sub = sub || s == name
					}
					got := p.fn(m, tt.c, channels.Viewer{User: u, Subscribed: sub})
					if got != want[name] {
						t.Errorf("%s for %s = %v, want %v", p.name, name, got, want[name])
					}
				}
			}
		})
	}
}

func TestStreamPostPolicy(t *testing.T) {
	t.Parallel()
	names := map[users.GroupID]string{gAdmins: users.GroupAdministrators, gFull: users.GroupFullMembers, gModerators: users.GroupModerators, gEveryone: users.GroupEveryone}
	for g, want := range map[users.GroupID]int{gAdmins: 2, gFull: 3, gModerators: 4, gEveryone: 1, gMember14: 1} {
		c := channels.Channel{CanSendMessageGroup: users.Named(g)}
		if got := channels.StreamPostPolicy(&c, func(id users.GroupID) string { return names[id] }); got != want {
			t.Errorf("group %d: stream_post_policy %d, want %d", g, got, want)
		}
	}
	anon := channels.Channel{CanSendMessageGroup: users.GroupSetting{Members: []users.ID{1}}}
	if got := channels.StreamPostPolicy(&anon, func(users.GroupID) string { return "" }); got != 1 {
		t.Errorf("anonymous group: %d", got)
	}
}
