package conversations

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/jsonw"
	"github.com/teamchat/chat/internal/world"
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
	DefaultPushNotifications          bool               `json:"default_push_notifications"`
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

// channelRecord renders c (subscribers not included); its group settings list no
// deactivated user.
func channelRecord(w *world.World, c channels.Channel) ChannelRecord {
	var rec ChannelRecord
	fillChannelRecord(w, &rec, &c)
	return rec
}

// fillChannelRecord renders c into rec, a zero record (as channelRecord): records are written
// in place, since copying a record of a kilobyte (eleven group settings) into a slice moves it
// under write barriers. c is only read.
func fillChannelRecord(w *world.World, rec *ChannelRecord, c *channels.Channel) {
	fillChannelSettings(w, rec, c)
	rec.SubscriberCount = w.ActiveSubscriberCount(c.ID)
	rec.FirstMessageID = firstMessageID(w, c.ID)
	rec.IsRecentlyActive, rec.StreamWeeklyTraffic = recentlyActive(w, *c), weeklyTraffic(w, *c)
}

// fillChannelActivity sets the members of rec that come from its channel's message activity a
// (read with its traffic count) at now: fillChannelRecord's, from an activity read already.
// Its pointers point into slots' i-th values.
func fillChannelActivity(rec *ChannelRecord, c *channels.Channel, a storage.ChannelActivity, now int64, slots *recordSlots, i int) {
	if a.FirstMessageID != 0 {
		slots.firsts[i] = int64(a.FirstMessageID)
		rec.FirstMessageID = &slots.firsts[i]
	}
	rec.IsRecentlyActive = recentlyActiveAt(c, a, now)
	if hasWeeklyTraffic(c, now) {
		slots.traffic[i] = weeklyTrafficValue(c, a.RecentCount, now)
		rec.StreamWeeklyTraffic = &slots.traffic[i]
	}
}

// recordSlots holds the values that a list of records points at (creator_id,
// first_message_id, stream_weekly_traffic), by record: one allocation per kind for the list
// instead of one per record and member.
type recordSlots struct {
	creators []users.ID
	firsts   []int64
	traffic  []int
}

// newRecordSlots returns the slots of n records.
func newRecordSlots(n int) *recordSlots {
	return &recordSlots{creators: make([]users.ID, n), firsts: make([]int64, n), traffic: make([]int, n)}
}

// fillChannelSettings renders the members of rec that come from c itself (every member but
// subscriber_count and the activity's: first_message_id, is_recently_active,
// stream_weekly_traffic). The group settings list no deactivated user.
func fillChannelSettings(w *world.World, rec *ChannelRecord, c *channels.Channel) {
	fillChannelSettingsWith(w, rec, c, func(id users.ID) bool { return w.User(id).IsActive }, nil, 0)
}

// fillChannelSettingsWith is fillChannelSettings with active saying which users are active;
// creator_id points into slots' i-th creator (a value of its own when slots is nil).
func fillChannelSettingsWith(w *world.World, rec *ChannelRecord, c *channels.Channel, active func(users.ID) bool, slots *recordSlots, i int) {
	rec.StreamID = c.ID
	rec.Name = c.Name
	rec.Description = c.Description
	rec.RenderedDescription = w.RenderDescription(c.Description)
	rec.DateCreated = c.DateCreated
	rec.InviteOnly = c.InviteOnly
	rec.IsWebPublic = c.IsWebPublic
	rec.HistoryPublicToSubscribers = c.HistoryPublicToSubscribers
	rec.MessageRetentionDays = c.MessageRetentionDays
	rec.IsArchived = c.IsArchived
	rec.TopicsPolicy = c.TopicsPolicy.String()
	rec.DefaultPushNotifications = c.DefaultPushNotifications
	rec.StreamPostPolicy = channels.StreamPostPolicy(c, w.GroupNameOf)
	setActiveOnly(&rec.CanAddSubscribersGroup, &c.CanAddSubscribersGroup, active)
	setActiveOnly(&rec.CanAdministerChannelGroup, &c.CanAdministerChannelGroup, active)
	setActiveOnly(&rec.CanCreateTopicGroup, &c.CanCreateTopicGroup, active)
	setActiveOnly(&rec.CanDeleteAnyMessageGroup, &c.CanDeleteAnyMessageGroup, active)
	setActiveOnly(&rec.CanDeleteOwnMessageGroup, &c.CanDeleteOwnMessageGroup, active)
	setActiveOnly(&rec.CanMoveMessagesOutOfChannelGroup, &c.CanMoveMessagesOutOfChannelGroup, active)
	setActiveOnly(&rec.CanMoveMessagesWithinChannelGroup, &c.CanMoveMessagesWithinChannelGroup, active)
	setActiveOnly(&rec.CanRemoveSubscribersGroup, &c.CanRemoveSubscribersGroup, active)
	setActiveOnly(&rec.CanResolveTopicsGroup, &c.CanResolveTopicsGroup, active)
	setActiveOnly(&rec.CanSendMessageGroup, &c.CanSendMessageGroup, active)
	setActiveOnly(&rec.CanSubscribeGroup, &c.CanSubscribeGroup, active)
	rec.IsAnnouncementOnly = rec.StreamPostPolicy == 2
	if c.CreatorID != 0 {
		if slots != nil {
			slots.creators[i] = c.CreatorID
			rec.CreatorID = &slots.creators[i]
		} else {
			id := c.CreatorID
			rec.CreatorID = &id
		}
	}
	if c.FolderID != 0 {
		id := c.FolderID
		rec.FolderID = &id
	}
}

// lastActive says whether users are active, as the world's users say, remembering its last
// answer: the group settings of a user's channels mostly name the same user (their creator).
// For reads only, where the world's users do not change.
type lastActive struct {
	w      *world.World
	id     users.ID
	active bool
	known  bool
}

func (m *lastActive) is(id users.ID) bool {
	if !m.known || m.id != id {
		m.id, m.active, m.known = id, m.w.User(id).IsActive, true
	}
	return m.active
}

// setActiveOnly sets *dst, a zero setting, to s.ActiveOnly(active). A setting naming a group
// (most of them) only sets the group: copying the whole setting into a record on the heap
// moved its two slices under write barriers, eleven times per record.
func setActiveOnly(dst, s *users.GroupSetting, active func(users.ID) bool) {
	if s.Members == nil && s.Subgroups == nil {
		dst.Group = s.Group
		return
	}
	*dst = s.ActiveOnly(active)
}

// subscriberList is the subscribers of c as viewer may know them (empty when they may not).
func subscriberList(w *world.World, c channels.Channel, viewer users.User) *[]users.ID {
	l := []users.ID{}
	if w.CanSeeSubscribers(c, viewer) {
		l = append(l, w.SubscribersOf(c.ID)...)
	}
	return &l
}

// subscriptionRecord renders one subscription row.
func subscriptionRecord(w *world.World, c channels.Channel, s channels.Subscription) SubscriptionRecord {
	var rec SubscriptionRecord
	fillSubscriptionRecord(w, &rec, &c, &s)
	return rec
}

// fillSubscriptionRecord renders one subscription row into rec, a zero record (see
// fillChannelRecord). c and s are only read.
func fillSubscriptionRecord(w *world.World, rec *SubscriptionRecord, c *channels.Channel, s *channels.Subscription) {
	fillChannelRecord(w, &rec.ChannelRecord, c)
	fillSubscriptionFields(rec, s)
}

// fillSubscriptionFields sets the subscription's own fields of rec from row s.
func fillSubscriptionFields(rec *SubscriptionRecord, s *channels.Subscription) {
	rec.Color = s.Color
	if rec.Color == "" {
		rec.Color = channels.DefaultColor
	}
	rec.IsMuted = s.IsMuted
	rec.InHomeView = !s.IsMuted
	rec.PinToTop = s.PinToTop
	rec.DesktopNotifications = s.DesktopNotifications
	rec.AudibleNotifications = s.AudibleNotifications
	rec.PushNotifications = s.PushNotifications
	rec.EmailNotifications = s.EmailNotifications
	rec.WildcardMentionsNotify = s.WildcardMentionsNotify
}

// The records' JSON is written by hand (channels_record_test.go holds it to encoding/json's
// output for records with every field set, unset and null): a subscription list is most of GET
// /users/me/subscriptions and of register, and reflection cost more than building the records.
// A struct that embeds ChannelRecord must define its own MarshalJSON, as SubscriptionRecord
// does, or the embedded method would write the channel's fields alone.

// MarshalJSON writes the record as encoding/json would from its field tags.
func (r ChannelRecord) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, channelRecordSize)), nil
}

// AppendJSON appends what MarshalJSON writes.
func (r *ChannelRecord) AppendJSON(b []byte) []byte {
	b = append(b, '{')
	b = r.appendFields(b)
	return append(b, '}')
}

// channelRecordSize is about the size of a channel record's JSON (without description or
// subscribers), for buffers.
const channelRecordSize = 960

// appendFields appends the record's members, without braces.
func (r *ChannelRecord) appendFields(b []byte) []byte {
	b = append(b, `"stream_id":`...)
	b = jsonw.Int(b, r.StreamID)
	b = append(b, `,"name":`...)
	b = jsonw.String(b, r.Name)
	b = append(b, `,"description":`...)
	b = jsonw.String(b, r.Description)
	b = append(b, `,"rendered_description":`...)
	b = jsonw.String(b, r.RenderedDescription)
	b = append(b, `,"date_created":`...)
	b = jsonw.Int(b, r.DateCreated)
	b = append(b, `,"creator_id":`...)
	b = jsonw.IntPtr(b, r.CreatorID)
	b = append(b, `,"invite_only":`...)
	b = jsonw.Bool(b, r.InviteOnly)
	b = append(b, `,"is_web_public":`...)
	b = jsonw.Bool(b, r.IsWebPublic)
	b = append(b, `,"history_public_to_subscribers":`...)
	b = jsonw.Bool(b, r.HistoryPublicToSubscribers)
	b = append(b, `,"message_retention_days":`...)
	b = jsonw.IntPtr(b, r.MessageRetentionDays)
	b = append(b, `,"first_message_id":`...)
	b = jsonw.IntPtr(b, r.FirstMessageID)
	b = append(b, `,"is_archived":`...)
	b = jsonw.Bool(b, r.IsArchived)
	b = append(b, `,"is_recently_active":`...)
	b = jsonw.Bool(b, r.IsRecentlyActive)
	b = append(b, `,"folder_id":`...)
	b = jsonw.IntPtr(b, r.FolderID)
	b = append(b, `,"topics_policy":`...)
	b = jsonw.String(b, r.TopicsPolicy)
	b = append(b, `,"default_push_notifications":`...)
	b = jsonw.Bool(b, r.DefaultPushNotifications)
	b = append(b, `,"stream_post_policy":`...)
	b = jsonw.Int(b, r.StreamPostPolicy)
	b = append(b, `,"is_announcement_only":`...)
	b = jsonw.Bool(b, r.IsAnnouncementOnly)
	b = append(b, `,"stream_weekly_traffic":`...)
	b = jsonw.IntPtr(b, r.StreamWeeklyTraffic)
	b = append(b, `,"subscriber_count":`...)
	b = jsonw.Int(b, r.SubscriberCount)
	b = r.appendGroupSettings(b)
	if r.IsDefault != nil {
		b = append(b, `,"is_default":`...)
		b = jsonw.Bool(b, *r.IsDefault)
	}
	if r.Subscribers != nil {
		b = append(b, `,"subscribers":`...)
		b = jsonw.Ints(b, *r.Subscribers)
	}
	if r.PartialSubscribers != nil {
		b = append(b, `,"partial_subscribers":`...)
		b = jsonw.Ints(b, *r.PartialSubscribers)
	}
	return b
}

// appendGroupSettings appends the can_*_group members.
func (r *ChannelRecord) appendGroupSettings(b []byte) []byte {
	b = append(b, `,"can_add_subscribers_group":`...)
	b = r.CanAddSubscribersGroup.AppendJSON(b)
	b = append(b, `,"can_administer_channel_group":`...)
	b = r.CanAdministerChannelGroup.AppendJSON(b)
	b = append(b, `,"can_create_topic_group":`...)
	b = r.CanCreateTopicGroup.AppendJSON(b)
	b = append(b, `,"can_delete_any_message_group":`...)
	b = r.CanDeleteAnyMessageGroup.AppendJSON(b)
	b = append(b, `,"can_delete_own_message_group":`...)
	b = r.CanDeleteOwnMessageGroup.AppendJSON(b)
	b = append(b, `,"can_move_messages_out_of_channel_group":`...)
	b = r.CanMoveMessagesOutOfChannelGroup.AppendJSON(b)
	b = append(b, `,"can_move_messages_within_channel_group":`...)
	b = r.CanMoveMessagesWithinChannelGroup.AppendJSON(b)
	b = append(b, `,"can_remove_subscribers_group":`...)
	b = r.CanRemoveSubscribersGroup.AppendJSON(b)
	b = append(b, `,"can_resolve_topics_group":`...)
	b = r.CanResolveTopicsGroup.AppendJSON(b)
	b = append(b, `,"can_send_message_group":`...)
	b = r.CanSendMessageGroup.AppendJSON(b)
	b = append(b, `,"can_subscribe_group":`...)
	return r.CanSubscribeGroup.AppendJSON(b)
}

// MarshalJSON writes the record as encoding/json would from its field tags (the channel's
// members, then the subscription's).
func (r SubscriptionRecord) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, channelRecordSize+240)), nil
}

// AppendJSON appends what MarshalJSON writes.
func (r *SubscriptionRecord) AppendJSON(b []byte) []byte { return r.appendJSON(b, nil) }

// appendJSON is AppendJSON with the channel's members from c (recordJSONCache; nil encodes
// them).
func (r *SubscriptionRecord) appendJSON(b []byte, c *recordJSONCache) []byte {
	b = append(b, '{')
	b = c.appendFields(b, &r.ChannelRecord)
	b = append(b, `,"color":`...)
	b = jsonw.String(b, r.Color)
	b = append(b, `,"is_muted":`...)
	b = jsonw.Bool(b, r.IsMuted)
	b = append(b, `,"in_home_view":`...)
	b = jsonw.Bool(b, r.InHomeView)
	b = append(b, `,"pin_to_top":`...)
	b = jsonw.Bool(b, r.PinToTop)
	b = append(b, `,"desktop_notifications":`...)
	b = jsonw.BoolPtr(b, r.DesktopNotifications)
	b = append(b, `,"audible_notifications":`...)
	b = jsonw.BoolPtr(b, r.AudibleNotifications)
	b = append(b, `,"push_notifications":`...)
	b = jsonw.BoolPtr(b, r.PushNotifications)
	b = append(b, `,"email_notifications":`...)
	b = jsonw.BoolPtr(b, r.EmailNotifications)
	b = append(b, `,"wildcard_mentions_notify":`...)
	b = jsonw.BoolPtr(b, r.WildcardMentionsNotify)
	return append(b, '}')
}

// AppendSubscriptionsJSON appends a JSON array of records (register's subscriptions and
// unsubscribed, GET /users/me/subscriptions); a nil slice is null, as encoding/json writes it.
func AppendSubscriptionsJSON(b []byte, l []SubscriptionRecord) []byte {
	return appendRecordsJSON(b, l)
}

// AppendChannelsJSON appends a JSON array of channel records (register's streams and
// never_subscribed, GET /streams); a nil slice is null.
func AppendChannelsJSON(b []byte, l []ChannelRecord) []byte {
	return appendRecordsJSON(b, l)
}

// appendRecordsJSON appends l as a JSON array, each element by its own AppendJSON; a nil
// slice is null.
func appendRecordsJSON[T any, P interface {
	*T
	AppendJSON([]byte) []byte
}](b []byte, l []T) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = P(&l[i]).AppendJSON(b)
	}
	return append(b, ']')
}
