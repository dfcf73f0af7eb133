package people

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// UserStatus is a user's status as the API shows it: only the keys that are set. Away is the
// inverse of the user's presence_enabled setting (Zulip keeps it for older clients).
type UserStatus struct {
	Away         bool   `json:"away,omitempty"`
	StatusText   string `json:"status_text,omitempty"`
	EmojiName    string `json:"emoji_name,omitempty"`
	EmojiCode    string `json:"emoji_code,omitempty"`
	ReactionType string `json:"reaction_type,omitempty"`
}

// userStatusOf is the API form of a stored status and presence_enabled setting.
func userStatusOf(s users.Status, presenceEnabled bool) UserStatus {
	out := UserStatus{Away: !presenceEnabled, StatusText: s.StatusText}
	if s.EmojiName != "" {
		out.EmojiName, out.EmojiCode, out.ReactionType = s.EmojiName, s.EmojiCode, s.ReactionType
	}
	return out
}

// empty reports whether the status has no key to show.
func (s UserStatus) empty() bool { return s == UserStatus{} }

// UserStatusEvent is the user_status event: the user and the fields that changed (away, the
// text, or the emoji with its code and type), sent to every active user.
type UserStatusEvent struct {
	Type         string   `json:"type"`
	UserID       users.ID `json:"user_id"`
	Away         *bool    `json:"away,omitempty"`
	StatusText   *string  `json:"status_text,omitempty"`
	EmojiName    *string  `json:"emoji_name,omitempty"`
	EmojiCode    *string  `json:"emoji_code,omitempty"`
	ReactionType *string  `json:"reaction_type,omitempty"`
}

// UserStatusState is register's user_status key: the status of every active user who has one,
// keyed by user id.
type UserStatusState struct {
	UserStatus map[string]UserStatus `json:"user_status"`
}

// UpdateStatusParams are the parameters of POST /users/me/status (and, without Away, of POST
// /users/{user_id}/status). Absent fields (nil) are left unchanged; an empty emoji_name clears
// the emoji, an empty status_text the text.
type UpdateStatusParams struct {
	Away         *bool
	StatusText   *string
	EmojiName    *string
	EmojiCode    *string
	ReactionType *string
}

// newStatus is a validated status change. A new emoji is checked against the organization's
// emoji inside the transaction (resolveEmoji).
type newStatus struct {
	away                          *bool
	text                          *string
	emojiName, emojiCode, emojiTy *string
	// givenCode and givenType are the emoji code and type as the client gave them (nil when
	// absent).
	givenCode, givenType *string
}

// check validates a status change as Zulip's check_update_user_status does, but for the
// emoji, which resolveEmoji checks.
func (p UpdateStatusParams) check() (newStatus, error) {
	n := newStatus{away: p.Away}
	if p.StatusText != nil {
		text, err := users.CheckStatusText(*p.StatusText)
		if err != nil {
			return n, engine.RuleError(err)
		}
		n.text = &text
	}
	if p.Away == nil && p.StatusText == nil && p.EmojiName == nil {
		return n, engine.BadRequest("Client did not pass any new values.")
	}
	switch {
	case p.EmojiName != nil && *p.EmojiName == "":
		empty, unicode := "", string(emoji.Unicode)
		n.emojiName, n.emojiCode, n.emojiTy = &empty, &empty, &unicode
	case p.EmojiName != nil:
		if err := org.CheckEmojiFields(*p.EmojiName, p.EmojiCode); err != nil {
			return n, err
		}
		n.emojiName, n.givenCode, n.givenType = p.EmojiName, p.EmojiCode, p.ReactionType
	case p.EmojiCode != nil && *p.EmojiCode != "" || p.ReactionType != nil && *p.ReactionType != "":
		return n, engine.BadRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.")
	}
	return n, nil
}

// resolveEmoji completes and checks a new status emoji as a reaction's: a missing code or
// type is looked up by name (custom emoji first), and the three must name a current emoji.
func (s *Service) resolveEmoji(r storage.RealmReader, n *newStatus) error {
	if n.emojiName == nil || *n.emojiName == "" {
		return nil
	}
	custom, err := r.ListEmoji()
	if err != nil {
		return err
	}
	e := messages.Reaction{EmojiName: *n.emojiName}
	if n.givenCode == nil || n.givenType == nil {
		code, typ, err := s.org.EmojiByName(custom, e.EmojiName)
		if err != nil {
			return err
		}
		e.EmojiCode, e.ReactionType = code, string(typ)
	}
	setIf(&e.EmojiCode, n.givenCode)
	setIf(&e.ReactionType, n.givenType)
	if err := s.org.CheckEmojiRequest(custom, e); err != nil {
		return err
	}
	n.emojiCode, n.emojiTy = &e.EmojiCode, &e.ReactionType
	return nil
}

// UpdateStatusResult is UpdateStatus's answer: nothing beyond success.
type UpdateStatusResult struct{}

// UpdateStatus changes the actor's status (human users only). Away turns the presence_enabled
// setting off (or on), as Zulip still does for older clients; every active user gets a
// user_status event with the fields given.
func (s *Service) UpdateStatus(ctx context.Context, actor engine.Actor, p UpdateStatusParams) (UpdateStatusResult, error) {
	n, err := p.check()
	if err != nil {
		return UpdateStatusResult{}, err
	}
	return UpdateStatusResult{}, s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		now := o.Now
		tx, ev, me := o.Tx, o.Ev, o.Me
		if err := s.resolveEmoji(tx.Realm(), &n); err != nil {
			return err
		}
		return s.setStatus(tx, ev, me, n, now)
	})
}

// UpdateStatusForUserParams are the parameters of POST /users/{user_id}/status.
type UpdateStatusForUserParams struct {
	UserID users.ID
	UpdateStatusParams
}

// UpdateStatusForUserResult is UpdateStatusForUser's answer: nothing beyond success.
type UpdateStatusForUserResult struct{}

// UpdateStatusForUser changes another user's status text and emoji (administrators only; the
// target is a human user, active). Away cannot be set for someone else.
func (s *Service) UpdateStatusForUser(ctx context.Context, actor engine.Actor, p UpdateStatusForUserParams) (UpdateStatusForUserResult, error) {
	p.Away = nil
	n, err := p.check()
	if err != nil {
		return UpdateStatusForUserResult{}, err
	}
	return UpdateStatusForUserResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		now := o.Now
		tx, ev, me := o.Tx, o.Ev, o.Me
		target, err := statusTarget(tx.Users(), p.UserID)
		if err != nil {
			return err
		}
		if !me.Role.IsAdmin() {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		if err := s.resolveEmoji(tx.Realm(), &n); err != nil {
			return err
		}
		return s.setStatus(tx, ev, target, n, now)
	})
}

// statusTarget loads the user whose status is read or set: humans only, active.
func statusTarget(r storage.UserReader, id users.ID) (users.User, error) {
	u, err := engine.TargetUser(r, id)
	if err != nil {
		return u, err
	}
	if u.IsBot() {
		return users.User{}, engine.ErrNoSuchUser()
	}
	if !u.IsActive {
		return users.User{}, engine.BadRequest(msgUserDeactivated400)
	}
	return u, nil
}

// setStatus writes a validated change of u's status and announces it.
func (s *Service) setStatus(tx storage.Tx, ev *engine.Events, u users.User, n newStatus, now time.Time) error {
	if n.away != nil {
		if err := s.setPresenceEnabled(tx, ev, u, !*n.away, now); err != nil {
			return err
		}
	}
	st, err := tx.UserStatuses().Get(u.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	st.UserID, st.Timestamp = u.ID, now
	e := UserStatusEvent{Type: "user_status", UserID: u.ID, Away: n.away, StatusText: n.text}
	if n.text != nil {
		st.StatusText = *n.text
	}
	if n.emojiName != nil {
		st.EmojiName, st.EmojiCode, st.ReactionType = *n.emojiName, *n.emojiCode, *n.emojiTy
		e.EmojiName, e.EmojiCode, e.ReactionType = n.emojiName, n.emojiCode, n.emojiTy
	}
	if err := tx.UserStatuses().Put(st); err != nil {
		return err
	}
	ids, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	ev.Emit(e, ids)
	return nil
}

// setPresenceEnabled changes u's presence_enabled setting when it differs, as PATCH /settings
// does: a user_settings event to u and the immediate presence update.
func (s *Service) setPresenceEnabled(tx storage.Tx, ev *engine.Events, u users.User, enabled bool, now time.Time) error {
	stored, err := tx.UserSettings().Get(u.ID)
	if err != nil {
		return err
	}
	if stored.Value("presence_enabled") == enabled {
		return nil
	}
	stored.Set("presence_enabled", enabled, true)
	if err := tx.UserSettings().PutMany(map[users.ID]users.Settings{u.ID: stored}); err != nil {
		return err
	}
	ev.Emit(settingEvent("presence_enabled", enabled), []int64{int64(u.ID)})
	realm, err := tx.Realm().Get()
	if err != nil {
		return err
	}
	return PresenceToggled(tx, ev, s.EmailDomain(realm), u, enabled, now)
}

// announceAway tells every active user that u's away flag (the inverse of presence_enabled)
// changed through PATCH /settings, so that their user_status data follows.
func announceAway(r storage.UserReader, ev *engine.Events, u users.User, enabled bool) error {
	ids, err := engine.ActiveUserIDs(r)
	if err != nil {
		return err
	}
	away := !enabled
	ev.Emit(UserStatusEvent{Type: "user_status", UserID: u.ID, Away: &away}, ids)
	return nil
}

// GetUserStatusParams are the parameters of GET /users/{user_id}/status.
type GetUserStatusParams struct {
	UserID users.ID
}

// GetUserStatusResult is a user's status ({} when none is set).
type GetUserStatusResult struct {
	Status UserStatus `json:"status"`
}

// GetUserStatus returns a human user's status.
func (s *Service) GetUserStatus(ctx context.Context, actor engine.Actor, p GetUserStatusParams) (GetUserStatusResult, error) {
	var res GetUserStatusResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx := o.Tx
		target, err := statusTarget(tx.Users(), p.UserID)
		if err != nil {
			return err
		}
		st, err := tx.UserStatuses().Get(target.ID)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		settings, err := tx.UserSettings().Get(target.ID)
		if err != nil {
			return err
		}
		enabled, _ := settings.Value("presence_enabled").(bool)
		res.Status = userStatusOf(st, enabled)
		return nil
	})
	if err != nil {
		return GetUserStatusResult{}, err
	}
	return res, nil
}

// UserStatusStateOf is register's user_status: every active user with a status text, an emoji
// or presence turned off.
func UserStatusStateOf(tx storage.ReadTx, all []users.User) (*UserStatusState, error) {
	st := &UserStatusState{UserStatus: map[string]UserStatus{}}
	active := make([]users.ID, 0, len(all))
	for _, u := range all {
		if u.IsActive && !u.IsBot() {
			active = append(active, u.ID)
		}
	}
	settings, err := tx.UserSettings().List()
	if err != nil {
		return nil, err
	}
	stored, err := tx.UserStatuses().List()
	if err != nil {
		return nil, err
	}
	byUser := make(map[users.ID]users.Status, len(stored))
	for _, s := range stored {
		byUser[s.UserID] = s
	}
	// Most users have no stored settings: their presence_enabled is the default.
	byDefault, _ := users.Settings{}.Value("presence_enabled").(bool)
	for _, id := range active {
		enabled := byDefault
		if set, ok := settings[id]; ok {
			enabled, _ = set.Value("presence_enabled").(bool)
		}
		if s := userStatusOf(byUser[id], enabled); !s.empty() {
			st.UserStatus[strconv.FormatInt(int64(id), 10)] = s
		}
	}
	return st, nil
}
