package chat

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// ChannelRecord is a channel as the API shows it (GET /streams, register's streams and
// never_subscribed, stream create events). Subscribers is set only where the API lists them.
type ChannelRecord struct {
	StreamID                          channels.ID        `json:"stream_id"`
	Name                              string             `json:"name"`
	Description                       string             `json:"description"`
	RenderedDescription               string             `json:"rendered_description"`
	DateCreated                       int64              `json:"date_created"`
	CreatorID                         *users.ID          `json:"creator_id"`
	InviteOnly                        bool               `json:"invite_only"`
	IsWebPublic                       bool               `json:"is_web_public"`
	HistoryPublicToSubscribers        bool               `json:"history_public_to_subscribers"`
	MessageRetentionDays              *int               `json:"message_retention_days"`
	FirstMessageID                    *int64             `json:"first_message_id"`
	IsArchived                        bool               `json:"is_archived"`
	IsRecentlyActive                  bool               `json:"is_recently_active"`
	FolderID                          *channels.FolderID `json:"folder_id"`
	TopicsPolicy                      string             `json:"topics_policy"`
	StreamPostPolicy                  int                `json:"stream_post_policy"`
	IsAnnouncementOnly                bool               `json:"is_announcement_only"`
	StreamWeeklyTraffic               *int               `json:"stream_weekly_traffic"`
	SubscriberCount                   int                `json:"subscriber_count"`
	CanAddSubscribersGroup            users.GroupSetting `json:"can_add_subscribers_group"`
	CanAdministerChannelGroup         users.GroupSetting `json:"can_administer_channel_group"`
	CanCreateTopicGroup               users.GroupSetting `json:"can_create_topic_group"`
	CanDeleteAnyMessageGroup          users.GroupSetting `json:"can_delete_any_message_group"`
	CanDeleteOwnMessageGroup          users.GroupSetting `json:"can_delete_own_message_group"`
	CanMoveMessagesOutOfChannelGroup  users.GroupSetting `json:"can_move_messages_out_of_channel_group"`
	CanMoveMessagesWithinChannelGroup users.GroupSetting `json:"can_move_messages_within_channel_group"`
	CanRemoveSubscribersGroup         users.GroupSetting `json:"can_remove_subscribers_group"`
	CanResolveTopicsGroup             users.GroupSetting `json:"can_resolve_topics_group"`
	CanSendMessageGroup               users.GroupSetting `json:"can_send_message_group"`
	CanSubscribeGroup                 users.GroupSetting `json:"can_subscribe_group"`
	// IsDefault is sent by GET /streams?include_default=true only.
	IsDefault *bool `json:"is_default,omitempty"`
	// Subscribers lists the subscriber ids where requested (empty when the viewer may not
	// know them); PartialSubscribers replaces it for large channels with
	// include_subscribers=partial.
	Subscribers        *[]users.ID `json:"subscribers,omitempty"`
	PartialSubscribers *[]users.ID `json:"partial_subscribers,omitempty"`
}

// SubscriptionRecord is a subscription as the API shows it: the channel's fields plus the
// subscriber's own settings.
type SubscriptionRecord struct {
	ChannelRecord
	Color                  string `json:"color"`
	IsMuted                bool   `json:"is_muted"`
	InHomeView             bool   `json:"in_home_view"`
	PinToTop               bool   `json:"pin_to_top"`
	DesktopNotifications   *bool  `json:"desktop_notifications"`
	AudibleNotifications   *bool  `json:"audible_notifications"`
	PushNotifications      *bool  `json:"push_notifications"`
	EmailNotifications     *bool  `json:"email_notifications"`
	WildcardMentionsNotify *bool  `json:"wildcard_mentions_notify"`
}

// StreamEvent is a stream event: op create (Streams, ForUnarchiving) or delete (Streams
// holding stream_id only, StreamIDs, ForArchiving).
type StreamEvent struct {
	Type           string        `json:"type"`
	Op             string        `json:"op"`
	Streams        any           `json:"streams"`
	StreamIDs      []channels.ID `json:"stream_ids,omitempty"`
	ForUnarchiving *bool         `json:"for_unarchiving,omitempty"`
	ForArchiving   *bool         `json:"for_archiving,omitempty"`
}

// StreamUpdateEvent is a stream update event: one property of a channel changed. Name is the
// channel's name before the change. A description change carries rendered_description; a
// privacy change (property invite_only) carries history_public_to_subscribers and
// is_web_public.
type StreamUpdateEvent struct {
	Type                       string      `json:"type"`
	Op                         string      `json:"op"`
	StreamID                   channels.ID `json:"stream_id"`
	Name                       string      `json:"name"`
	Property                   string      `json:"property"`
	Value                      any         `json:"value"`
	RenderedDescription        *string     `json:"rendered_description,omitempty"`
	HistoryPublicToSubscribers *bool       `json:"history_public_to_subscribers,omitempty"`
	IsWebPublic                *bool       `json:"is_web_public,omitempty"`
}

// SubscriptionEvent is a subscription event: op add (Subscriptions are records), remove
// (Subscriptions hold name and stream_id), peer_add and peer_remove (StreamIDs, UserIDs).
type SubscriptionEvent struct {
	Type          string        `json:"type"`
	Op            string        `json:"op"`
	Subscriptions any           `json:"subscriptions,omitempty"`
	StreamIDs     []channels.ID `json:"stream_ids,omitempty"`
	UserIDs       []users.ID    `json:"user_ids,omitempty"`
}

// SubscriptionUpdateEvent is a subscription update event: one property of the recipient's
// subscription changed.
type SubscriptionUpdateEvent struct {
	Type     string      `json:"type"`
	Op       string      `json:"op"`
	StreamID channels.ID `json:"stream_id"`
	Property string      `json:"property"`
	Value    any         `json:"value"`
}

// DefaultStreamsEvent lists the default channels after a change.
type DefaultStreamsEvent struct {
	Type           string        `json:"type"`
	DefaultStreams []channels.ID `json:"default_streams"`
}

// world is what channel decisions need from one transaction: the organization, every user,
// every group (as a Membership), every channel, and the active subscribers of each channel.
type world struct {
	realm       realms.Realm
	users       map[users.ID]users.User
	all         []users.User // ascending by id
	groups      []users.Group
	groupByNm   map[string]users.GroupID
	groupName   map[users.GroupID]string
	m           *users.Membership
	channels    []channels.Channel
	byName      map[string]int // NormalizeName → index in channels
	byID        map[channels.ID]int
	subscribers map[channels.ID][]users.ID // active subscribers, ascending
	linkify     markdown.Linkify           // the organization's linkifiers; nil when none
	// msgs reads the channels' message activity (first_message_id) when a record needs it.
	msgs     storage.MessageReader
	activity map[channels.ID]storage.ChannelActivity
}

// loadWorld reads the world. The readers come from one transaction (read-only or not).
func loadWorld(rr storage.RealmReader, ur storage.UserReader, gr storage.GroupReader, cr storage.ChannelReader, sr storage.SubscriptionReader) (*world, error) {
	realm, err := rr.Get()
	if err != nil {
		return nil, err
	}
	all, err := ur.List()
	if err != nil {
		return nil, err
	}
	groups, err := gr.List()
	if err != nil {
		return nil, err
	}
	chs, err := cr.List()
	if err != nil {
		return nil, err
	}
	w := &world{
		realm: realm, users: make(map[users.ID]users.User, len(all)), all: all, groups: groups,
		groupByNm: map[string]users.GroupID{}, groupName: map[users.GroupID]string{},
		channels: chs, byName: map[string]int{}, byID: map[channels.ID]int{},
		subscribers: map[channels.ID][]users.ID{},
	}
	active := make(map[users.ID]bool, len(all))
	for _, u := range all {
		w.users[u.ID] = u
		active[u.ID] = u.IsActive
	}
	for _, g := range groups {
		w.groupByNm[g.Name] = g.ID
		w.groupName[g.ID] = g.Name
	}
	w.m = users.NewMembership(groups, active)
	ids := make([]channels.ID, len(chs))
	for i, c := range chs {
		w.byName[channels.NormalizeName(c.Name)] = i
		w.byID[c.ID] = i
		ids[i] = c.ID
	}
	if len(ids) > 0 {
		subs, err := sr.ListForChannels(ids, true)
		if err != nil {
			return nil, err
		}
		// One backing array for every list (rows come grouped by channel); each list's
		// capacity ends at its length, so addSubscribers copies instead of overwriting the next.
		all := make([]users.ID, len(subs))
		for i, s := range subs {
			all[i] = s.UserID
		}
		for start := 0; start < len(subs); {
			end := start + 1
			for end < len(subs) && subs[end].ChannelID == subs[start].ChannelID {
				end++
			}
			w.subscribers[subs[start].ChannelID] = all[start:end:end]
			start = end
		}
	}
	return w, nil
}

// loadWorldRead loads the world in a read-only transaction.
func loadWorldRead(tx storage.ReadTx) (*world, error) {
	w, err := loadWorld(tx.Realm(), tx.Users(), tx.Groups(), tx.Channels(), tx.Subscriptions())
	if err != nil {
		return nil, err
	}
	w.linkify, err = linkifyFunc(tx.Linkifiers())
	w.msgs = tx.Messages()
	return w, err
}

// loadWorldWrite loads the world in a read-write transaction.
func loadWorldWrite(tx storage.Tx) (*world, error) {
	w, err := loadWorld(tx.Realm(), tx.Users(), tx.Groups(), tx.Channels(), tx.Subscriptions())
	if err != nil {
		return nil, err
	}
	w.linkify, err = linkifyFunc(tx.Linkifiers())
	w.msgs = tx.Messages()
	return w, err
}

// channel returns the channel with id (ok false when unknown).
func (w *world) channel(id channels.ID) (channels.Channel, bool) {
	i, ok := w.byID[id]
	if !ok {
		return channels.Channel{}, false
	}
	return w.channels[i], true
}

// setChannel records a created or changed channel in the world.
func (w *world) setChannel(c channels.Channel) {
	if i, ok := w.byID[c.ID]; ok {
		delete(w.byName, channels.NormalizeName(w.channels[i].Name))
		w.channels[i] = c
		w.byName[channels.NormalizeName(c.Name)] = i
		return
	}
	w.channels = append(w.channels, c)
	w.byID[c.ID] = len(w.channels) - 1
	w.byName[channels.NormalizeName(c.Name)] = len(w.channels) - 1
}

// isSubscribed reports whether u is an active subscriber of c.
func (w *world) isSubscribed(c channels.ID, u users.ID) bool {
	_, ok := slices.BinarySearch(w.subscribers[c], u)
	return ok
}

// addSubscribers records new active subscribers.
func (w *world) addSubscribers(c channels.ID, ids []users.ID) {
	l := append(w.subscribers[c], ids...)
	slices.Sort(l)
	w.subscribers[c] = slices.Compact(l)
}

// removeSubscribers records unsubscriptions.
func (w *world) removeSubscribers(c channels.ID, ids []users.ID) {
	w.subscribers[c] = slices.DeleteFunc(w.subscribers[c], func(u users.ID) bool { return slices.Contains(ids, u) })
}

// viewer is the access-rule view of u for channel c.
func (w *world) viewer(c channels.ID, u users.User) channels.Viewer {
	return channels.Viewer{User: u, Subscribed: w.isSubscribed(c, u.ID)}
}

func (w *world) metadata(c channels.Channel, u users.User) bool {
	return channels.HasMetadataAccess(w.m, c, w.viewer(c.ID, u))
}

func (w *world) content(c channels.Channel, u users.User) bool {
	return channels.HasContentAccess(w.m, c, w.viewer(c.ID, u))
}

// canSeeSubscribers reports whether u may know who is subscribed to c: metadata access and,
// for private channels, a subscription or the right to administer.
func (w *world) canSeeSubscribers(c channels.Channel, u users.User) bool {
	if !w.metadata(c, u) {
		return false
	}
	if !c.InviteOnly {
		return true
	}
	v := w.viewer(c.ID, u)
	return v.Subscribed || channels.CanAdminister(w.m, c, v) || u.Role.IsAdmin()
}

// watchers lists the active users with metadata access to c, ascending, leaving out skip.
func (w *world) watchers(c channels.Channel, skip []users.ID) []int64 {
	var out []int64
	for _, u := range w.all {
		if !u.IsActive || slices.Contains(skip, u.ID) {
			continue
		}
		if w.metadata(c, u) {
			out = append(out, int64(u.ID))
		}
	}
	return out
}

// activeSubscriberCount counts the non-deactivated subscribers of c.
func (w *world) activeSubscriberCount(c channels.ID) int {
	n := 0
	for _, id := range w.subscribers[c] {
		if w.users[id].IsActive {
			n++
		}
	}
	return n
}

// groupID returns the id of a system group by name.
func (w *world) groupID(name string) users.GroupID { return w.groupByNm[name] }

// channelRecord renders c (subscribers not included).
func (w *world) channelRecord(c channels.Channel) ChannelRecord {
	rec := ChannelRecord{
		StreamID:                          c.ID,
		Name:                              c.Name,
		Description:                       c.Description,
		RenderedDescription:               markdown.RenderLinkified(c.Description, w.linkify),
		DateCreated:                       c.DateCreated,
		InviteOnly:                        c.InviteOnly,
		IsWebPublic:                       c.IsWebPublic,
		HistoryPublicToSubscribers:        c.HistoryPublicToSubscribers,
		MessageRetentionDays:              c.MessageRetentionDays,
		IsArchived:                        c.IsArchived,
		TopicsPolicy:                      c.TopicsPolicy.String(),
		StreamPostPolicy:                  channels.StreamPostPolicy(c, func(g users.GroupID) string { return w.groupName[g] }),
		SubscriberCount:                   w.activeSubscriberCount(c.ID),
		CanAddSubscribersGroup:            c.CanAddSubscribersGroup,
		CanAdministerChannelGroup:         c.CanAdministerChannelGroup,
		CanCreateTopicGroup:               c.CanCreateTopicGroup,
		CanDeleteAnyMessageGroup:          c.CanDeleteAnyMessageGroup,
		CanDeleteOwnMessageGroup:          c.CanDeleteOwnMessageGroup,
		CanMoveMessagesOutOfChannelGroup:  c.CanMoveMessagesOutOfChannelGroup,
		CanMoveMessagesWithinChannelGroup: c.CanMoveMessagesWithinChannelGroup,
		CanRemoveSubscribersGroup:         c.CanRemoveSubscribersGroup,
		CanResolveTopicsGroup:             c.CanResolveTopicsGroup,
		CanSendMessageGroup:               c.CanSendMessageGroup,
		CanSubscribeGroup:                 c.CanSubscribeGroup,
	}
	rec.IsAnnouncementOnly = rec.StreamPostPolicy == 2
	rec.FirstMessageID = w.firstMessageID(c.ID)
	if c.CreatorID != 0 {
		id := c.CreatorID
		rec.CreatorID = &id
	}
	if c.FolderID != 0 {
		id := c.FolderID
		rec.FolderID = &id
	}
	return rec
}

// subscriberList is the subscribers of c as viewer may know them (empty when they may not).
func (w *world) subscriberList(c channels.Channel, viewer users.User) *[]users.ID {
	l := []users.ID{}
	if w.canSeeSubscribers(c, viewer) {
		l = append(l, w.subscribers[c.ID]...)
	}
	return &l
}

// subscriptionRecord renders one subscription row.
func (w *world) subscriptionRecord(c channels.Channel, s channels.Subscription) SubscriptionRecord {
	color := s.Color
	if color == "" {
		color = channels.DefaultColor
	}
	return SubscriptionRecord{
		ChannelRecord:          w.channelRecord(c),
		Color:                  color,
		IsMuted:                s.IsMuted,
		InHomeView:             !s.IsMuted,
		PinToTop:               s.PinToTop,
		DesktopNotifications:   s.DesktopNotifications,
		AudibleNotifications:   s.AudibleNotifications,
		PushNotifications:      s.PushNotifications,
		EmailNotifications:     s.EmailNotifications,
		WildcardMentionsNotify: s.WildcardMentionsNotify,
	}
}
