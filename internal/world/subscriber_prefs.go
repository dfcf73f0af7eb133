package world

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// SubscriberPrefs are the settings of one subscription that decide its channel email
// notifications: whether the channel is muted and its email_notifications (nil inherits the
// user's enable_stream_email_notifications).
type SubscriberPrefs struct {
	Muted bool
	Email *bool
}

// notePrefs keeps the prefs of the rows (active subscriptions of the channels just read)
// that differ from the defaults.
func (c *subscriberCache) notePrefs(rows []channels.Subscription) {
	for _, s := range rows {
		if !s.IsMuted && s.EmailNotifications == nil {
			continue
		}
		if c.prefs == nil {
			c.prefs = map[channels.ID]map[users.ID]SubscriberPrefs{}
		}
		m := c.prefs[s.ChannelID]
		if m == nil {
			m = map[users.ID]SubscriberPrefs{}
			c.prefs[s.ChannelID] = m
		}
		p := SubscriberPrefs{Muted: s.IsMuted}
		if s.EmailNotifications != nil {
			v := *s.EmailNotifications
			p.Email = &v
		}
		m[s.UserID] = p
	}
}

// SubscriberPrefsOf returns the prefs of the subscriptions to c that are muted or set
// email_notifications, by user, as read with c's subscribers (SubscribersOf); the others
// have the defaults. The map belongs to the world: do not modify it.
func (w *World) SubscriberPrefsOf(c channels.ID) map[users.ID]SubscriberPrefs {
	w.SubscribersOf(c)
	return w.subs.prefs[c]
}
