package channels

import (
	"github.com/teamchat/chat/users"
)

// Viewer is what the access rules need to know about a user and one channel: the user, and
// whether they hold an active subscription to it.
type Viewer struct {
	User       users.User
	Subscribed bool
}

// The access rules below follow Zulip's model. "In G" means recursive membership of a group
// setting; guests never gain access through can_add_subscribers_group, can_subscribe_group or
// can_administer_channel_group; deactivated users have no access at all.

// inGroup is membership for a non-guest active user.
func inGroup(m *users.Membership, s users.GroupSetting, v Viewer) bool {
	return v.User.Role != users.RoleGuest && m.Allows(s, v.User.ID)
}

// HasContentAccess reports whether v may read the channel's messages: web-public, subscribed,
// a public channel for a non-guest, or membership of can_subscribe_group or
// can_add_subscribers_group.
func HasContentAccess(m *users.Membership, c Channel, v Viewer) bool {
	if !v.User.IsActive {
		return false
	}
	switch {
	case c.IsWebPublic, v.Subscribed:
		return true
	case !c.InviteOnly && v.User.Role != users.RoleGuest:
		return true
	}
	return inGroup(m, c.CanSubscribeGroup, v) || inGroup(m, c.CanAddSubscribersGroup, v)
}

// HasMetadataAccess reports whether v may see the channel (name, description, subscribers):
// content access, an organization administrator, or membership of can_administer_channel_group.
func HasMetadataAccess(m *users.Membership, c Channel, v Viewer) bool {
	if !v.User.IsActive {
		return false
	}
	return HasContentAccess(m, c, v) || v.User.Role.IsAdmin() || inGroup(m, c.CanAdministerChannelGroup, v)
}

// CanAdminister reports whether v may change the channel's settings: organization
// administrators always, others through can_administer_channel_group.
func CanAdminister(m *users.Membership, c Channel, v Viewer) bool {
	if !v.User.IsActive {
		return false
	}
	return v.User.Role.IsAdmin() || inGroup(m, c.CanAdministerChannelGroup, v)
}

// CanSubscribeSelf reports whether v may subscribe to the channel: content access (which
// covers public channels, can_subscribe_group and can_add_subscribers_group), or the right to
// add subscribers.
func CanSubscribeSelf(m *users.Membership, c Channel, v Viewer, realmAddSubscribers users.GroupSetting) bool {
	return HasContentAccess(m, c, v) || CanAddSubscribers(m, c, v, realmAddSubscribers)
}

// CanAddSubscribers reports whether v may subscribe other users: membership of the channel's
// can_add_subscribers_group, the right to administer it, or the organization's
// can_add_subscribers_group together with content access (for a private channel, being
// subscribed).
func CanAddSubscribers(m *users.Membership, c Channel, v Viewer, realmAddSubscribers users.GroupSetting) bool {
	if !v.User.IsActive || v.User.Role == users.RoleGuest {
		return false
	}
	if inGroup(m, c.CanAddSubscribersGroup, v) || CanAdminister(m, c, v) {
		return true
	}
	return m.Allows(realmAddSubscribers, v.User.ID) && (v.Subscribed || !c.InviteOnly)
}

// CanRemoveSubscribers reports whether v may unsubscribe other users: the right to administer
// the channel, or metadata access plus can_remove_subscribers_group.
func CanRemoveSubscribers(m *users.Membership, c Channel, v Viewer) bool {
	if CanAdminister(m, c, v) {
		return true
	}
	return HasMetadataAccess(m, c, v) && m.Allows(c.CanRemoveSubscribersGroup, v.User.ID)
}

// CanPost reports whether v may send messages to the channel: not archived, content access
// and membership of can_send_message_group.
func CanPost(m *users.Membership, c Channel, v Viewer) bool {
	if c.IsArchived || !HasContentAccess(m, c, v) {
		return false
	}
	return m.Allows(c.CanSendMessageGroup, v.User.ID)
}

// CanCreateTopic reports whether v may start a new topic in the channel.
func CanCreateTopic(m *users.Membership, c Channel, v Viewer) bool {
	return CanPost(m, c, v) && m.Allows(c.CanCreateTopicGroup, v.User.ID)
}

// StreamPostPolicy is the deprecated stream_post_policy derived from can_send_message_group:
// 1 everyone, 2 administrators, 3 full members, 4 moderators. groupName names a group id. c is
// only read (a pointer: a channel is a kilobyte, and every channel record derives this).
func StreamPostPolicy(c *Channel, groupName func(users.GroupID) string) int {
	if !c.CanSendMessageGroup.IsNamed() {
		return 1
	}
	switch groupName(c.CanSendMessageGroup.Group) {
	case users.GroupAdministrators:
		return 2
	case users.GroupFullMembers:
		return 3
	case users.GroupModerators:
		return 4
	}
	return 1
}
