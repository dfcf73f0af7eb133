package people

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// The two formats of presence data. The modern one (slim_presence, last_update_id) is keyed by
// user id and gives two timestamps; the legacy one is keyed by API email and gives a status per
// client, where the only client is always "website" (the server does not keep which client
// reported).

// ModernPresence is a user's presence in the modern format.
type ModernPresence struct {
	ActiveTimestamp int64 `json:"active_timestamp"`
	IdleTimestamp   int64 `json:"idle_timestamp"`
}

// LegacyClientPresence is the "website" entry of the legacy format.
type LegacyClientPresence struct {
	Client    string `json:"client"`
	Status    string `json:"status"`
	Timestamp int64  `json:"timestamp"`
	Pushable  bool   `json:"pushable"`
}

// LegacyAggregatedPresence is the "aggregated" entry of the legacy format.
type LegacyAggregatedPresence struct {
	Client    string `json:"client"`
	Status    string `json:"status"`
	Timestamp int64  `json:"timestamp"`
}

// LegacyPresence is a user's presence in the legacy format.
type LegacyPresence struct {
	Aggregated LegacyAggregatedPresence `json:"aggregated"`
	Website    LegacyClientPresence     `json:"website"`
}

// presenceClient is the client name of the legacy format.
const presenceClient = "website"

func modernPresence(p users.Presence, joined time.Time) ModernPresence {
	active, connected := p.Times(joined)
	return ModernPresence{ActiveTimestamp: active.Unix(), IdleTimestamp: connected.Unix()}
}

func legacyClientPresence(p users.Presence, joined time.Time) LegacyClientPresence {
	status, at := users.LegacyPresenceStatus(p.Times(joined))
	return LegacyClientPresence{Client: presenceClient, Status: status, Timestamp: at.Unix()}
}

func legacyPresence(p users.Presence, joined time.Time) LegacyPresence {
	w := legacyClientPresence(p, joined)
	return LegacyPresence{Aggregated: LegacyAggregatedPresence{Client: w.Client, Status: w.Status, Timestamp: w.Timestamp}, Website: w}
}

// serverTimestamp is the server_timestamp of presence data: seconds, with a fraction.
func serverTimestamp(now time.Time) float64 { return float64(now.UnixNano()) / 1e9 }

// presenceQuery selects the presence data a client asks for.
type presenceQuery struct {
	slim bool
	// lastUpdateID is the client's cursor (nil: none given).
	lastUpdateID *int64
	// historyDays limits how far back data reaches (nil: users.PresenceHistoryLimitDays);
	// ignored when the client holds a positive cursor.
	historyDays *int64
}

// maxPresenceHistoryDays is where history_limit_days stops mattering: larger values reach
// back to the beginning.
const maxPresenceHistoryDays = 100000

// CheckHistoryDays validates a history limit (named param for the error).
func CheckHistoryDays(param string, days *int64) error {
	if days != nil && *days < 0 {
		return engine.BadRequest("%s is too small", param)
	}
	return nil
}

// presenceData returns the presences q selects, keyed and formatted for the client, with the
// update id they reach (the client's cursor when nothing is newer, -1 when there is neither).
// Deactivated users and bots are left out.
func presenceData(pr storage.PresenceReader, ur storage.UserReader, domain string, q presenceQuery, now time.Time) (map[string]any, int64, error) {
	out := map[string]any{}
	last := int64(-1)
	if q.lastUpdateID != nil {
		last = *q.lastUpdateID
	}
	f := storage.PresenceFilter{AfterUpdateID: last}
	days := int64(users.PresenceHistoryLimitDays)
	if q.historyDays != nil {
		days = *q.historyDays
	}
	if days == 0 {
		return out, last, nil
	}
	if (q.lastUpdateID == nil || *q.lastUpdateID <= 0) && days < maxPresenceHistoryDays {
		f.ConnectedSince = now.AddDate(0, 0, -int(days))
	}
	list, err := pr.List(f)
	if err != nil || len(list) == 0 {
		return out, last, err
	}
	ids := make([]users.ID, len(list))
	for i, p := range list {
		ids[i] = p.UserID
	}
	people, err := ur.GetMany(ids)
	if err != nil {
		return nil, 0, err
	}
	byID := make(map[users.ID]users.User, len(people))
	for _, u := range people {
		byID[u.ID] = u
	}
	for _, p := range list {
		u, ok := byID[p.UserID]
		if !ok || !u.IsActive || u.IsBot() {
			continue
		}
		last = max(last, p.LastUpdateID)
		if q.slim {
			out[strconv.FormatInt(int64(u.ID), 10)] = modernPresence(p, u.DateJoined)
		} else {
			out[world.APIEmail(domain, u)] = legacyPresence(p, u.DateJoined)
		}
	}
	return out, last, nil
}

// PresenceChange is the payload of a presence event: clients with the
// simplified_presence_events capability get the modern form, the others the legacy one.
type PresenceChange struct {
	Legacy LegacyPresenceEvent
	Modern SimplifiedPresenceEvent
}

// LegacyPresenceEvent is the presence event of clients without simplified_presence_events.
type LegacyPresenceEvent struct {
	Type            string                          `json:"type"`
	UserID          users.ID                        `json:"user_id"`
	Email           string                          `json:"email"`
	ServerTimestamp float64                         `json:"server_timestamp"`
	Presence        map[string]LegacyClientPresence `json:"presence"`
}

// SimplifiedPresenceEvent is the presence event of clients with simplified_presence_events.
type SimplifiedPresenceEvent struct {
	Type      string                    `json:"type"`
	Presences map[string]ModernPresence `json:"presences"`
}

func newPresenceChange(domain string, u users.User, p users.Presence, now time.Time) PresenceChange {
	return PresenceChange{
		Legacy: LegacyPresenceEvent{Type: "presence", UserID: u.ID, Email: world.APIEmail(domain, u), ServerTimestamp: serverTimestamp(now),
			Presence: map[string]LegacyClientPresence{presenceClient: legacyClientPresence(p, u.DateJoined)}},
		Modern: SimplifiedPresenceEvent{Type: "presence",
			Presences: map[string]ModernPresence{strconv.FormatInt(int64(u.ID), 10): modernPresence(p, u.DateJoined)}},
	}
}

func (c PresenceChange) ForClient(o clients.Options) (any, bool) {
	if o.Capabilities.SimplifiedPresenceEvents {
		return c.Modern, true
	}
	return c.Legacy, true
}

// MarshalJSON writes the legacy form (queues always receive an adapted form).
func (c PresenceChange) MarshalJSON() ([]byte, error) { return json.Marshal(c.Legacy) }
