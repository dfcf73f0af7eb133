package chat

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
)

// activityCache is the channels' message activity (first_message_id, is_recently_active,
// stream_weekly_traffic), read when a record needs it, as of now (UNIX seconds, the
// operation's time). Read it through the world's methods, never from the fields.
type activityCache struct {
	r   storage.MessageReader
	now int64
	// byChannel holds what is read (or noted) so far; an entry read without its traffic count
	// has RecentCount uncounted.
	byChannel map[channels.ID]storage.ChannelActivity
}

// uncounted marks an activity entry read without its traffic count (Bounds).
const uncounted = -1

// messageReader is the transaction's messages, for decisions that read one.
func (w *world) messageReader() storage.MessageReader { return w.activity.r }

// unixNow is the operation's time (UNIX seconds), as the world's activity rules see it.
func (w *world) unixNow() int64 { return w.activity.now }

// channelActivity is c's message activity: its oldest message, its newest message's time, and
// its message count over the traffic window: the 28 whole days (UTC) before today, as Zulip
// counts from its daily statistics, so that today's messages change the traffic tomorrow and
// sending sends no event for it. Every channel not read yet (or read without its count) is read
// at once, in one set-based read, since records come for many channels.
func (w *world) channelActivity(c channels.ID) storage.ChannelActivity {
	a := &w.activity
	if e, ok := a.byChannel[c]; ok && e.RecentCount != uncounted || a.r == nil || w.failed() {
		return e
	}
	var missing []channels.ID
	for _, ch := range w.channels {
		if e, ok := a.byChannel[ch.ID]; !ok || e.RecentCount == uncounted {
			missing = append(missing, ch.ID)
		}
	}
	today := a.now - a.now%86400
	acts, err := a.r.Activity(missing, today-trafficWindowDays*86400, today)
	if w.fail(err) {
		return storage.ChannelActivity{}
	}
	a.remember(acts, false)
	return a.byChannel[c]
}

// channelEnds is c's oldest message and newest message's time: from what is read, else read
// with every other channel (channelActivity). Decisions about a few channels read theirs first
// (loadEnds).
func (w *world) channelEnds(c channels.ID) storage.ChannelActivity {
	if e, ok := w.activity.byChannel[c]; ok {
		return e
	}
	return w.channelActivity(c)
}

// loadEnds reads the oldest and newest messages of the given channels not read yet, with
// index lookups only (a send, a move or a deletion needs no traffic count).
func (w *world) loadEnds(ids []channels.ID) {
	a := &w.activity
	if a.r == nil || w.failed() {
		return
	}
	missing := missingKeys(ids, a.byChannel)
	if len(missing) == 0 {
		return
	}
	acts, err := a.r.Bounds(missing)
	if w.fail(err) {
		return
	}
	a.remember(acts, true)
}

// knowsEnds reports whether c's oldest and newest messages are read (or noted) already.
func (a *activityCache) knowsEnds(c channels.ID) bool {
	_, ok := a.byChannel[c]
	return ok
}

// remember caches activity entries (ends only: without their count).
func (a *activityCache) remember(acts []storage.ChannelActivity, endsOnly bool) {
	if a.byChannel == nil {
		a.byChannel = make(map[channels.ID]storage.ChannelActivity, len(acts))
	}
	for _, e := range acts {
		if endsOnly {
			e.RecentCount = uncounted
		}
		a.byChannel[e.ChannelID] = e
	}
}

// note records c's activity after a message was stored in it (when any activity is read).
func (a *activityCache) note(e storage.ChannelActivity) {
	if a.byChannel != nil {
		a.byChannel[e.ChannelID] = e
	}
}

// forget drops the channels' activity, to be read again (messages moved or went away).
func (a *activityCache) forget(ids []channels.ID) {
	for _, id := range ids {
		delete(a.byChannel, id)
	}
}
