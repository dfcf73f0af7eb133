package conversations

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
)

// Channel activity windows (Zulip's values).
const (
	// recentlyActiveSeconds: a channel with a message this recent is recently active
	// (Stream.LAST_ACTIVITY_DAYS_BEFORE_FOR_ACTIVE, 180 days).
	recentlyActiveSeconds = 180 * 86400
	// newChannelActiveSeconds: a channel this young counts as recently active without
	// messages (Zulip creates channels active and reassesses them daily).
	newChannelActiveSeconds = 86400
	// trafficMinAgeDays is the age below which a channel has no stream_weekly_traffic (null;
	// its window is world.TrafficWindowDays).
	trafficMinAgeDays = 7
)

// firstMessageID is a channel's oldest message id (nil when it has none).
func firstMessageID(w *world.World, c channels.ID) *int64 {
	return firstMessageIDOf(w.ChannelEnds(c))
}

// firstMessageIDOf is first_message_id from a channel's activity (nil when it has none).
func firstMessageIDOf(a storage.ChannelActivity) *int64 {
	if a.FirstMessageID != 0 {
		v := int64(a.FirstMessageID)
		return &v
	}
	return nil
}

// recentlyActive is is_recently_active: a message in the last 180 days, or a channel created
// less than a day ago.
func recentlyActive(w *world.World, c channels.Channel) bool {
	return recentlyActiveAt(&c, w.ChannelEnds(c.ID), w.UnixNow())
}

// recentlyActiveAt is recentlyActive from c's activity a, at now (UNIX seconds).
func recentlyActiveAt(c *channels.Channel, a storage.ChannelActivity, now int64) bool {
	return a.LastTimestamp != 0 && a.LastTimestamp >= now-recentlyActiveSeconds ||
		c.DateCreated >= now-newChannelActiveSeconds
}

// weeklyTraffic is stream_weekly_traffic: the average number of messages per week over the
// traffic window (over the channel's age when younger than it), at least 1 when there were
// any, rounded to two significant digits; nil for a channel younger than a week (whose count
// is not read).
func weeklyTraffic(w *world.World, c channels.Channel) *int {
	if !hasWeeklyTraffic(&c, w.UnixNow()) {
		return nil
	}
	v := weeklyTrafficValue(&c, w.ChannelActivity(c.ID).RecentCount, w.UnixNow())
	return &v
}

// hasWeeklyTraffic reports whether c is old enough at now for a stream_weekly_traffic.
func hasWeeklyTraffic(c *channels.Channel, now int64) bool {
	return (now-c.DateCreated)/86400 >= trafficMinAgeDays
}

// weeklyTrafficValue is stream_weekly_traffic's value for c, which has one (hasWeeklyTraffic),
// from its message count over the traffic window, at now.
func weeklyTrafficValue(c *channels.Channel, count int, now int64) int {
	age := (now - c.DateCreated) / 86400
	n := int64(count)
	avg := n / 4
	if age < world.TrafficWindowDays {
		avg = n * 7 / age
	}
	if avg == 0 && n > 0 {
		avg = 1
	}
	return int(roundTwoSignificant(avg))
}

// roundTwoSignificant rounds n to two significant digits, halves to even (as Python's round
// with negative digits does).
func roundTwoSignificant(n int64) int64 {
	unit := int64(1)
	for m := n; m >= 100; m /= 10 {
		unit *= 10
	}
	if unit == 1 {
		return n
	}
	q, r := n/unit, n%unit
	if 2*r > unit || 2*r == unit && q%2 == 1 {
		q++
	}
	return q * unit
}

// noteChannelMessage records a message just stored in c (sent at ts) in the world's activity,
// and the stream update of is_recently_active when c was not recently active before it.
func noteChannelMessage(w *world.World, ev *engine.Events, c channels.Channel, id messages.ID, ts int64) {
	was := recentlyActive(w, c)
	a := w.ChannelEnds(c.ID)
	a.ChannelID = c.ID
	if a.FirstMessageID == 0 || id < a.FirstMessageID {
		a.FirstMessageID = id
	}
	a.LastTimestamp = max(a.LastTimestamp, ts)
	w.NoteActivity(a) // sent today: not in the traffic window yet
	if !was {
		refreshActivity(w, ev, []channels.ID{c.ID}, []bool{false})
	}
}

// activeStates is is_recently_active of the given channels, as the world sees them now.
func activeStates(w *world.World, ids []channels.ID) []bool {
	w.LoadEnds(ids)
	out := make([]bool, len(ids))
	for i, id := range ids {
		c, _ := w.Channel(id)
		out[i] = recentlyActive(w, c)
	}
	return out
}

// refreshActivity re-reads the channels' activity after messages moved or went away, and
// records the stream update of is_recently_active for each of ids whose value changed from
// before (activeStates of the same ids).
func refreshActivity(w *world.World, ev *engine.Events, ids []channels.ID, before []bool) {
	w.ForgetActivity(ids)
	w.LoadEnds(ids)
	for i, id := range ids {
		c, _ := w.Channel(id)
		if now := recentlyActive(w, c); now != before[i] {
			ev.Emit(StreamUpdateEvent{Type: "stream", Op: "update", StreamID: c.ID, Name: c.Name,
				Property: "is_recently_active", Value: now}, w.Watchers(c, nil))
		}
	}
}
