package users

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Presence is what the server keeps of a user's availability: when a client last reported the
// user active, when one was last connected at all, and the organization-wide update id of the
// last change (clients fetch the changes after the id they hold).
type Presence struct {
	UserID ID
	// LastActiveTime is zero when no client ever reported the user active.
	LastActiveTime    time.Time
	LastConnectedTime time.Time
	LastUpdateID      int64
}

// Presence timing, as Zulip's defaults.
const (
	// PresencePingInterval is how often clients report presence
	// (server_presence_ping_interval_seconds).
	PresencePingInterval = 60 * time.Second
	// PresenceOfflineThreshold is how long without a report makes a user offline
	// (server_presence_offline_threshold_seconds).
	PresenceOfflineThreshold = 200 * time.Second
	// PresenceUpdateMinInterval is how much newer a report must be than the stored time for
	// that time to be written again (several open windows report every minute each).
	PresenceUpdateMinInterval = 55 * time.Second
	// PresenceLegacyActivityOffset is how far the last activity may lie before the last
	// connection for the legacy format to still say "active".
	PresenceLegacyActivityOffset = 70 * time.Second
	// PresenceHistoryLimitDays is how far back presence data reaches by default.
	PresenceHistoryLimitDays = 14
	// PresenceEventUserLimit is the organization size (active users) above which a user coming
	// online is not announced through events: clients learn it at their next poll.
	PresenceEventUserLimit = 100
)

// PresenceStatus is a client's report: active (the user is using the device) or idle.
type PresenceStatus int

// The statuses of POST /users/me/presence.
const (
	PresenceActive PresenceStatus = iota + 1
	PresenceIdle
)

// ParsePresenceStatus reads "active" or "idle".
func ParsePresenceStatus(s string) (PresenceStatus, bool) {
	switch s {
	case "active":
		return PresenceActive, true
	case "idle":
		return PresenceIdle, true
	}
	return 0, false
}

// presenceComesOnline is how long since the last activity makes an active report a user coming
// online: the user has missed a couple of regular reports and risks being shown offline
// before the next one.
const presenceComesOnline = PresenceOfflineThreshold - PresencePingInterval - 10*time.Second

// Report applies a client's report at now to the user's presence (exists: whether the user has
// one yet). It returns the new presence, whether it changed (and must be stored with a new
// update id), and whether the change is to be announced: a first report, or an active one
// after long enough without activity.
func (p Presence) Report(exists bool, status PresenceStatus, now time.Time) (next Presence, changed, announce bool) {
	active := status == PresenceActive
	if !exists {
		next = Presence{UserID: p.UserID, LastConnectedTime: now}
		if active {
			next.LastActiveTime = now
		}
		return next, true, true
	}
	// Never-set times count as long ago, so that the user comes online.
	sinceActive, sinceConnected := 24*time.Hour, 24*time.Hour
	if !p.LastActiveTime.IsZero() {
		sinceActive = now.Sub(p.LastActiveTime)
	}
	if !p.LastConnectedTime.IsZero() {
		sinceConnected = now.Sub(p.LastConnectedTime)
	}
	next = p
	if sinceConnected > PresenceUpdateMinInterval {
		next.LastConnectedTime = now
		changed = true
	}
	if active && sinceActive > PresenceUpdateMinInterval {
		next.LastActiveTime = now
		if next.LastConnectedTime.Before(now) {
			next.LastConnectedTime = now
		}
		changed = true
	}
	return next, changed, active && sinceActive > presenceComesOnline
}

// Times returns the presence's last activity and connection, with joined (the user's
// date_joined) standing in for a time never set, as the API always gives timestamps.
func (p Presence) Times(joined time.Time) (active, connected time.Time) {
	active, connected = p.LastActiveTime, p.LastConnectedTime
	if active.IsZero() {
		active = joined
	}
	if connected.IsZero() {
		connected = joined
	}
	return active, connected
}

// LegacyPresenceStatus is the status and timestamp of the legacy presence format: "active"
// at the last activity when it is recent enough compared with the last connection, else
// "idle" at the last connection.
func LegacyPresenceStatus(active, connected time.Time) (string, time.Time) {
	if !active.Add(PresenceLegacyActivityOffset).Before(connected) {
		return "active", active
	}
	return "idle", connected
}

// Alert words: words or phrases whose mention in a message alerts the user.
const (
	// MaxAlertWordLength bounds one alert word (Zulip's limit), in characters.
	MaxAlertWordLength = 100
	// MaxAlertWords bounds how many alert words one user keeps.
	MaxAlertWords = 1000
)

// AddAlertWords returns existing with the words of add appended: each trimmed, empty ones
// dropped, and those already present (compared case-insensitively, with existing or earlier
// words of add) skipped. Among case variants of one new word, the last one's spelling is kept
// at the first one's place.
func AddAlertWords(existing, add []string) []string {
	out := append([]string(nil), existing...)
	at := make(map[string]int, len(existing)+len(add))
	for _, w := range existing {
		at[strings.ToLower(w)] = -1
	}
	for _, w := range add {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		key := strings.ToLower(w)
		switch i, seen := at[key]; {
		case !seen:
			at[key] = len(out)
			out = append(out, w)
		case i >= 0:
			out[i] = w
		}
	}
	return out
}

// RemoveAlertWords returns existing without the words equal, ignoring case, to one of remove.
func RemoveAlertWords(existing, remove []string) []string {
	drop := make(map[string]bool, len(remove))
	for _, w := range remove {
		drop[strings.ToLower(w)] = true
	}
	out := make([]string, 0, len(existing))
	for _, w := range existing {
		if !drop[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	return out
}

// AlertWordTooLong reports whether a word given to add exceeds MaxAlertWordLength.
func AlertWordTooLong(w string) bool { return utf8.RuneCountInString(w) > MaxAlertWordLength }
