package conversations

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/clients"
)

// archiveEvent announces that a channel was archived or unarchived. Clients with the
// archived_channels capability get stream update is_archived; the others get stream delete
// (for_archiving) or stream create (for_unarchiving), as Zulip sends them.
type archiveEvent struct {
	update StreamUpdateEvent
	legacy StreamEvent
}

func (e archiveEvent) ForClient(o clients.Options) (any, bool) {
	if o.Capabilities.ArchivedChannels {
		return e.update, true
	}
	return e.legacy, true
}

// ReadsOptions: the form depends on archived_channels only.
func (archiveEvent) ReadsOptions() clients.Reads { return clients.ArchivedChannels }

// newArchiveEvent builds the event of archiving (archived true) or unarchiving c; rec is the
// channel's record after the change.
func newArchiveEvent(c channels.Channel, rec ChannelRecord, archived bool) archiveEvent {
	e := archiveEvent{update: StreamUpdateEvent{Type: "stream", Op: "update", StreamID: c.ID, Name: c.Name, Property: "is_archived", Value: archived}}
	if archived {
		e.legacy = streamDeleteEvent(c.ID, true)
	} else {
		e.legacy = StreamEvent{Type: "stream", Op: "create", Streams: []ChannelRecord{rec}, ForUnarchiving: ptr(true)}
	}
	return e
}

// ForClient gives clients without the notification_settings_null capability the resolved
// notification settings of new subscriptions instead of null, as register does.
func (e SubscriptionEvent) ForClient(o clients.Options) (any, bool) {
	recs, ok := e.Subscriptions.([]SubscriptionRecord)
	if e.Op != "add" || !ok || o.Capabilities.NotificationSettingsNull {
		return e, true
	}
	out := make([]SubscriptionRecord, len(recs))
	for i, r := range recs {
		resolveNotificationDefaults(&r)
		out[i] = r
	}
	e.Subscriptions = out
	return e, true
}

// ReadsOptions: the form depends on notification_settings_null only.
func (SubscriptionEvent) ReadsOptions() clients.Reads { return clients.NotificationSettingsNull }
