package people

import (
	"context"
	"errors"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Presence: clients report their user's status every server_presence_ping_interval_seconds
// and fetch everyone's presence in the same call. A user's presence changes (and takes the
// organization's next update id) at most about once a minute; a presence event tells everyone
// at once only when a user comes online (a first report, or an active one after long enough
// without activity) or changes their presence_enabled setting. Every user can access every
// other user here, so every active user receives presence events and data. A user whose
// presence_enabled setting is off is invisible: their reports are not recorded.

// UpdatePresenceParams are the parameters of POST /users/me/presence.
type UpdatePresenceParams struct {
	// Status is "active" or "idle".
	Status   string
	PingOnly bool
	// NewUserInput says the user interacted with the client (usage statistics only).
	NewUserInput bool
	// SlimPresence asks for the modern format; LastUpdateID implies it.
	SlimPresence bool
	// LastUpdateID is the presence_last_update_id the client holds (-1 at first); only newer
	// data is returned.
	LastUpdateID *int64
	// HistoryLimitDays limits how far back data reaches (default 14 days) when the client
	// holds no positive LastUpdateID.
	HistoryLimitDays *int64
}

// UpdatePresenceResult holds the presence data of the organization, except for ping_only
// requests (then everything is absent).
type UpdatePresenceResult struct {
	Presences            *map[string]any `json:"presences,omitempty"`
	ServerTimestamp      *float64        `json:"server_timestamp,omitempty"`
	PresenceLastUpdateID *int64          `json:"presence_last_update_id,omitempty"`
}

// maxStatusEcho bounds how much of an invalid status the error repeats.
const maxStatusEcho = 100

// UpdatePresence records the actor's presence report and returns the presence data the client
// needs. Bots cannot report presence.
func (s *Service) UpdatePresence(ctx context.Context, actor engine.Actor, p UpdatePresenceParams) (UpdatePresenceResult, error) {
	status, ok := users.ParsePresenceStatus(p.Status)
	if !ok {
		shown := p.Status
		if utf8.RuneCountInString(shown) > maxStatusEcho {
			shown = string([]rune(shown)[:maxStatusEcho]) + "…"
		}
		return UpdatePresenceResult{}, engine.BadRequest("Invalid status: %s", shown)
	}
	if err := CheckHistoryDays("history_limit_days", p.HistoryLimitDays); err != nil {
		return UpdatePresenceResult{}, err
	}
	var res UpdatePresenceResult
	err := s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		now := o.Now
		tx, ev, me := o.Tx, o.Ev, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		settings, err := tx.UserSettings().Get(me.ID)
		if err != nil {
			return err
		}
		if enabled, _ := settings.Value("presence_enabled").(bool); enabled {
			if err := recordPresence(tx, ev, s.EmailDomain(realm), me, status, now, false); err != nil {
				return err
			}
		}
		if p.PingOnly {
			return nil
		}
		data, last, err := presenceData(tx.Presence(), tx.Users(), s.EmailDomain(realm), presenceQuery{
			slim: p.SlimPresence || p.LastUpdateID != nil, lastUpdateID: p.LastUpdateID, historyDays: p.HistoryLimitDays,
		}, now)
		if err != nil {
			return err
		}
		ts := serverTimestamp(now)
		res = UpdatePresenceResult{Presences: &data, ServerTimestamp: &ts, PresenceLastUpdateID: &last}
		return nil
	})
	if err != nil {
		return UpdatePresenceResult{}, err
	}
	return res, nil
}

// recordPresence applies a report of u's status at now; a change is stored with a new update
// id, and a user coming online (or any change when forced) is announced.
func recordPresence(tx storage.Tx, ev *engine.Events, domain string, u users.User, status users.PresenceStatus, now time.Time, force bool) error {
	old, err := tx.Presence().Get(u.ID)
	exists := err == nil
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	old.UserID = u.ID
	next, changed, announce := old.Report(exists, status, now)
	if changed {
		if next.LastUpdateID, err = tx.Presence().Put(next); err != nil {
			return err
		}
	}
	if announce || force {
		return announcePresence(tx.Users(), ev, domain, u, next, now, force)
	}
	return nil
}

// announcePresence sends u's presence to every active user; in organizations above
// users.PresenceEventUserLimit only when forced.
func announcePresence(r storage.UserReader, ev *engine.Events, domain string, u users.User, p users.Presence, now time.Time, force bool) error {
	ids, err := engine.ActiveUserIDs(r)
	if err != nil {
		return err
	}
	if len(ids) > users.PresenceEventUserLimit && !force {
		return nil
	}
	ev.Emit(newPresenceChange(domain, u, p, now), ids)
	return nil
}

// PresenceToggled follows a change of u's presence_enabled setting with an immediate
// presence update, so that everyone sees u as the setting says: online when it is turned on,
// last seen a few minutes before when it is turned off.
func PresenceToggled(tx storage.Tx, ev *engine.Events, domain string, u users.User, enabled bool, now time.Time) error {
	if enabled {
		return recordPresence(tx, ev, domain, u, users.PresenceActive, now, true)
	}
	gone := now.Add(-users.PresenceOfflineThreshold - 2*time.Minute)
	p, err := tx.Presence().Get(u.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	p = users.Presence{UserID: u.ID, LastActiveTime: p.LastActiveTime, LastConnectedTime: gone}
	if p.LastActiveTime.After(gone) {
		p.LastActiveTime = gone
	}
	if p.LastUpdateID, err = tx.Presence().Put(p); err != nil {
		return err
	}
	return announcePresence(tx.Users(), ev, domain, u, p, now, true)
}

// GetRealmPresenceParams are the parameters of GET /realm/presence (none).
type GetRealmPresenceParams struct{}

// GetRealmPresenceResult is every active user's presence of the last two weeks, in the
// legacy format.
type GetRealmPresenceResult struct {
	Presences       map[string]any `json:"presences"`
	ServerTimestamp float64        `json:"server_timestamp"`
}

// GetRealmPresence returns the organization's presence data.
func (s *Service) GetRealmPresence(ctx context.Context, actor engine.Actor, _ GetRealmPresenceParams) (GetRealmPresenceResult, error) {
	var res GetRealmPresenceResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		now := o.Now
		tx := o.Tx
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		data, _, err := presenceData(tx.Presence(), tx.Users(), s.EmailDomain(realm), presenceQuery{}, now)
		res = GetRealmPresenceResult{Presences: data, ServerTimestamp: serverTimestamp(now)}
		return err
	})
	if err != nil {
		return GetRealmPresenceResult{}, err
	}
	return res, nil
}

// GetUserPresenceParams are the parameters of GET /users/{user_id_or_email}/presence: a user
// id, or an email when Email is not empty.
type GetUserPresenceParams struct {
	UserID       users.ID
	Email        string
	SlimPresence bool
}

// UserPresenceStatus is one entry of a user's presence in the legacy form of
// GET /users/{user_id_or_email}/presence.
type UserPresenceStatus struct {
	Status    string `json:"status"`
	Timestamp int64  `json:"timestamp"`
}

// UserLegacyPresence is a user's presence in the legacy form of
// GET /users/{user_id_or_email}/presence: the aggregated status is "offline" once the
// timestamp is older than the offline threshold.
type UserLegacyPresence struct {
	Aggregated UserPresenceStatus `json:"aggregated"`
	Website    UserPresenceStatus `json:"website"`
}

// GetUserPresenceResult holds a UserLegacyPresence, or a ModernPresence with slim_presence.
type GetUserPresenceResult struct {
	Presence any `json:"presence"`
}

// GetUserPresence returns one active human user's presence.
func (s *Service) GetUserPresence(ctx context.Context, actor engine.Actor, p GetUserPresenceParams) (GetUserPresenceResult, error) {
	var res GetUserPresenceResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		now := o.Now
		tx, me := o.Tx, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		var target users.User
		if p.Email != "" {
			target, err = engine.UserByAPIEmail(tx.Users(), s.EmailDomain(realm), me, p.Email)
		} else {
			target, err = engine.TargetUser(tx.Users(), p.UserID)
		}
		if err != nil {
			return err
		}
		if !target.IsActive {
			return engine.ErrNoSuchUser()
		}
		if target.IsBot() {
			return engine.BadRequest("Presence is not supported for bot users.")
		}
		pr, err := tx.Presence().Get(target.ID)
		if errors.Is(err, storage.ErrNotFound) {
			key := p.Email
			if key == "" {
				key = strconv.FormatInt(int64(p.UserID), 10)
			}
			return engine.BadRequest("No presence data for %s", key)
		} else if err != nil {
			return err
		}
		if p.SlimPresence {
			res.Presence = modernPresence(pr, target.DateJoined)
			return nil
		}
		w := legacyClientPresence(pr, target.DateJoined)
		agg := UserPresenceStatus{Status: w.Status, Timestamp: w.Timestamp}
		if now.Unix()-w.Timestamp > int64(users.PresenceOfflineThreshold/time.Second) {
			agg.Status = "offline"
		}
		res.Presence = UserLegacyPresence{Aggregated: agg, Website: UserPresenceStatus{Status: w.Status, Timestamp: w.Timestamp}}
		return nil
	})
	if err != nil {
		return GetUserPresenceResult{}, err
	}
	return res, nil
}

// PresenceState is register's presence keys.
type PresenceState struct {
	Presences            map[string]any `json:"presences"`
	ServerTimestamp      float64        `json:"server_timestamp"`
	PresenceLastUpdateID int64          `json:"presence_last_update_id"`
}

// RegisterPresence computes register's presence keys for viewer (none for spectators) at now,
// the registration's time.
func RegisterPresence(tx storage.ReadTx, domain string, viewer users.User, p clients.Register, now time.Time) (*PresenceState, error) {
	st := &PresenceState{Presences: map[string]any{}, ServerTimestamp: serverTimestamp(now), PresenceLastUpdateID: -1}
	if viewer.ID == 0 {
		return st, nil
	}
	var err error
	st.Presences, st.PresenceLastUpdateID, err = presenceData(tx.Presence(), tx.Users(), domain, presenceQuery{slim: p.SlimPresence, historyDays: p.PresenceHistoryLimitDays}, now)
	return st, err
}
