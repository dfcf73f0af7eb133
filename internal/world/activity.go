package world

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

// MessageReader is the transaction's messages, for decisions that read one.
func (w *World) MessageReader() storage.MessageReader { return w.activity.r }

// UnixNow is the operation's time (UNIX seconds), as the world's activity rules see it.
func (w *World) UnixNow() int64 { return w.activity.now }

// ChannelActivity is c's message activity: its oldest message, its newest message's time, and
// its message count over the traffic window: the 28 whole days (UTC) before today, as Zulip
// counts from its daily statistics, so that today's messages change the traffic tomorrow and
// sending sends no event for it. Every channel not read yet (or read without its count) is read
// at once, in one set-based read, since records come for many channels.
func (w *World) ChannelActivity(c channels.ID) storage.ChannelActivity {
	a := &w.activity
	if e, ok := a.byChannel[c]; ok && e.RecentCount != uncounted || a.r == nil || w.Failed() {
		return e
	}
	var missing []channels.ID
	for _, ch := range w.channels {
		if e, ok := a.byChannel[ch.ID]; !ok || e.RecentCount == uncounted {
			missing = append(missing, ch.ID)
		}
	}
	today := a.now - a.now%86400
	acts, err := a.r.Activity(missing, today-TrafficWindowDays*86400, today)
	if w.Fail(err) {
		return storage.ChannelActivity{}
	}
	a.remember(acts, false)
	return a.byChannel[c]
}

// ChannelEnds is c's oldest message and newest message's time: from what is read, else read
// with every other channel (channelActivity). Decisions about a few channels read theirs first
// (loadEnds).
func (w *World) ChannelEnds(c channels.ID) storage.ChannelActivity {
	if e, ok := w.activity.byChannel[c]; ok {
		return e
	}
	return w.ChannelActivity(c)
}

// LoadEnds reads the oldest and newest messages of the given channels not read yet, with
// index lookups only (a send, a move or a deletion needs no traffic count).
func (w *World) LoadEnds(ids []channels.ID) {
	a := &w.activity
	if a.r == nil || w.Failed() {
		return
	}
	missing := missingKeys(ids, a.byChannel)
	if len(missing) == 0 {
		return
	}
	acts, err := a.r.Bounds(missing)
	if w.Fail(err) {
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

// ReadsActivity reports whether the world reads the channels' message activity (a world
// loaded without a transaction reads none).
func (w *World) ReadsActivity() bool { return w.activity.r != nil }

// KnowsEnds reports whether the world has read the first and last message of channel c.
func (w *World) KnowsEnds(c channels.ID) bool { return w.activity.knowsEnds(c) }

// RememberActivity records activity read by the caller (endsOnly: only the channels' first and
// last messages are known).
func (w *World) RememberActivity(acts []storage.ChannelActivity, endsOnly bool) {
	w.activity.remember(acts, endsOnly)
}

// NoteActivity records a message sent in this transaction in its channel's activity.
func (w *World) NoteActivity(e storage.ChannelActivity) { w.activity.note(e) }

// ForgetActivity drops what the world knows of the activity of channels ids (their messages
// moved or were deleted in this transaction).
func (w *World) ForgetActivity(ids []channels.ID) { w.activity.forget(ids) }
