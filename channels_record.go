package chat

import (
	"github.com/teamchat/chat/channels"
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

// channelRecord renders c (subscribers not included); its group settings list no
// deactivated user.
func (w *world) channelRecord(c channels.Channel) ChannelRecord {
	active := func(id users.ID) bool { return w.user(id).IsActive }
	for _, ns := range c.GroupSettings() {
		*ns.Value = ns.Value.ActiveOnly(active)
	}
	rec := ChannelRecord{
		StreamID:                          c.ID,
		Name:                              c.Name,
		Description:                       c.Description,
		RenderedDescription:               w.renderDescription(c.Description),
		DateCreated:                       c.DateCreated,
		InviteOnly:                        c.InviteOnly,
		IsWebPublic:                       c.IsWebPublic,
		HistoryPublicToSubscribers:        c.HistoryPublicToSubscribers,
		MessageRetentionDays:              c.MessageRetentionDays,
		IsArchived:                        c.IsArchived,
		TopicsPolicy:                      c.TopicsPolicy.String(),
		StreamPostPolicy:                  channels.StreamPostPolicy(c, func(g users.GroupID) string { return w.groupNameOf(g) }),
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
	rec.IsRecentlyActive, rec.StreamWeeklyTraffic = w.recentlyActive(c), w.weeklyTraffic(c)
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
		l = append(l, w.subscribersOf(c.ID)...)
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
