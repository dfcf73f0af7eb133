package storage

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// ChannelReader reads channels.
type ChannelReader interface {
	Get(channels.ID) (channels.Channel, error)
	// GetByName finds a channel by name, case-insensitively.
	GetByName(name string) (channels.Channel, error)
	// GetMany returns the channels with the given ids that exist, ascending by id.
	GetMany(ids []channels.ID) ([]channels.Channel, error)
	// List returns every channel (archived ones included), ascending by id.
	List() ([]channels.Channel, error)
	// ListShared returns what List returns, but the list and every slice inside its channels
	// may be shared with other transactions (a backend hands out the list it keeps instead
	// of a copy): the caller must not modify any of it. Reads of a user's own channels (GET
	// /users/me/subscriptions) take theirs from it without copying every channel.
	ListShared() ([]channels.Channel, error)
	// EmailAddress returns the channel email address of (channel, creator, sender);
	// ErrNotFound when there is none.
	EmailAddress(c channels.ID, creator, sender users.ID) (channels.EmailAddress, error)
	// EmailAddressByToken finds a channel email address by its token; ErrNotFound when none
	// has it.
	EmailAddressByToken(token string) (channels.EmailAddress, error)
}

// ChannelWriter reads and writes channels.
type ChannelWriter interface {
	ChannelReader
	// Create stores a new channel and returns its id (the ID field is ignored). ErrConflict
	// when the name is taken (case-insensitively).
	Create(channels.Channel) (channels.ID, error)
	// Update replaces a channel. ErrNotFound for an unknown id; ErrConflict as for Create.
	Update(channels.Channel) error
	// CreateEmailAddress stores a channel email address and returns its id (the ID field is
	// ignored). ErrConflict when the token is taken or (channel, creator, sender) has one.
	CreateEmailAddress(channels.EmailAddress) (int64, error)
}

// SubscriptionReader reads subscriptions, active and inactive.
type SubscriptionReader interface {
	// Get returns the subscription row of a user and a channel (active or not); ErrNotFound
	// when the user was never subscribed.
	Get(users.ID, channels.ID) (channels.Subscription, error)
	// ListForUsers returns the rows of the given users, ascending by user id then channel id.
	ListForUsers(ids []users.ID) ([]channels.Subscription, error)
	// ListForChannels returns the rows of the given channels, ascending by channel id then
	// user id. With activeOnly, inactive rows are left out.
	ListForChannels(ids []channels.ID, activeOnly bool) ([]channels.Subscription, error)
	// Counts returns the subscriber count of every channel: its active subscriptions held by
	// active (not deactivated) users. Channels without any are left out. Backends maintain
	// the counts as subscriptions and users change, so reading them does not scan the rows.
	Counts() (map[channels.ID]int, error)
	// CountsOf returns what Counts returns for the given channels alone (those without
	// subscribers, and unknown ids, left out): a read about a user's own channels needs
	// theirs, not every channel's.
	CountsOf(ids []channels.ID) (map[channels.ID]int, error)
}

// SubscriberList is a channel's active subscribers as a send decides its recipients: their
// user ids, ascending, and the subscriptions among them whose muting or notification settings
// differ from the defaults (ascending by user; few, even in a big channel).
type SubscriberList struct {
	IDs        []users.ID
	Customized []channels.Subscription
}

// Customized reports whether s's muting or notification settings differ from the defaults:
// whether a SubscriberList carries the row.
func Customized(s channels.Subscription) bool {
	return s.IsMuted || s.DesktopNotifications != nil || s.AudibleNotifications != nil ||
		s.PushNotifications != nil || s.EmailNotifications != nil || s.WildcardMentionsNotify != nil
}

// SubscriberListReader is an optional capability of a SubscriptionReader (see
// ActiveSubscribers).
type SubscriberListReader interface {
	// ActiveSubscribers returns, for each of the given channels in order, its SubscriberList:
	// what ListForChannels(ids, true) holds, without copying every row. The lists may be
	// shared with other transactions (the backend keeps them until a write changes the
	// channel's subscriptions), their slices' capacities end at their lengths, and the caller
	// must not modify them.
	ActiveSubscribers(ids []channels.ID) ([]SubscriberList, error)
}

// ActiveSubscribers returns what SubscriberListReader.ActiveSubscribers does, through r's
// capability when it has it (a send to a big channel then copies no subscription row), else
// from ListForChannels.
func ActiveSubscribers(r SubscriptionReader, ids []channels.ID) ([]SubscriberList, error) {
	if c, ok := r.(SubscriberListReader); ok {
		return c.ActiveSubscribers(ids)
	}
	rows, err := r.ListForChannels(ids, true)
	if err != nil {
		return nil, err
	}
	return SubscriberListsOf(ids, rows), nil
}

// SubscriberListsOf groups subscription rows (ascending by channel, then user) into the
// SubscriberList of each channel of ids, in order.
func SubscriberListsOf(ids []channels.ID, rows []channels.Subscription) []SubscriberList {
	flat := make([]users.ID, len(rows))
	at := make(map[channels.ID][2]int, len(ids))
	for i, s := range rows {
		flat[i] = s.UserID
		r, ok := at[s.ChannelID]
		if !ok {
			r[0] = i
		}
		r[1] = i + 1
		at[s.ChannelID] = r
	}
	out := make([]SubscriberList, len(ids))
	for i, c := range ids {
		r := at[c]
		out[i].IDs = flat[r[0]:r[1]:r[1]]
		for _, s := range rows[r[0]:r[1]] {
			if Customized(s) {
				out[i].Customized = append(out[i].Customized, s.Clone())
			}
		}
		out[i].Customized = slices.Clip(out[i].Customized)
	}
	return out
}

// SubscriptionWriter reads and writes subscriptions.
type SubscriptionWriter interface {
	SubscriptionReader
	// Put creates or replaces the rows, keyed by (UserID, ChannelID).
	Put([]channels.Subscription) error
}

// ChannelFolderReader reads channel folders.
type ChannelFolderReader interface {
	Get(channels.FolderID) (channels.Folder, error)
	// List returns every folder (archived ones included), ascending by id.
	List() ([]channels.Folder, error)
}

// ChannelFolderWriter reads and writes channel folders. Names are not unique in storage
// (an archived folder may share a live one's name); the Service checks them.
type ChannelFolderWriter interface {
	ChannelFolderReader
	// Create stores a new folder and returns its id (the ID field is ignored).
	Create(channels.Folder) (channels.FolderID, error)
	// Update replaces a folder. ErrNotFound for an unknown id.
	Update(channels.Folder) error
}
