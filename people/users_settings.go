package people

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/transfer"
	"github.com/teamchat/chat/users"
)

// EmailChangeValidity is how long an email-change confirmation stays valid.
const EmailChangeValidity = 24 * time.Hour

// TargetUsers selects the users an administrator changes settings for (target_users).
type TargetUsers struct {
	UserIDs  []users.ID      `json:"user_ids"`
	GroupIDs []users.GroupID `json:"group_ids"`
	// SkipIfAlreadyEdited (required) leaves alone the users who changed a setting themselves.
	SkipIfAlreadyEdited *bool `json:"skip_if_already_edited"`
}

// UpdateSettingsParams are the parameters of PATCH /settings. Nil fields are left unchanged.
type UpdateSettingsParams struct {
	FullName *string
	// Email starts an email-change confirmation (see ConfirmEmailChange).
	Email       *string
	OldPassword *string
	NewPassword *string
	Timezone    *string
	// Values are the settings of users.SettingsTable by name: bool, int64 or string values.
	Values map[string]any
	// TargetUsers, for administrators, changes the settings of other users instead.
	TargetUsers *TargetUsers
	// ClientAddress is the caller's network address, for rate limiting password checks.
	ClientAddress string
}

// UserSettingsEvent is user_settings update, sent to the user only.
type UserSettingsEvent struct {
	Type         string `json:"type"`
	Op           string `json:"op"`
	Property     string `json:"property"`
	Value        any    `json:"value"`
	LanguageName string `json:"language_name,omitempty"`
}

func settingEvent(name string, v any) UserSettingsEvent {
	e := UserSettingsEvent{Type: "user_settings", Op: "update", Property: name, Value: v}
	if name == "default_language" {
		e.LanguageName = users.Languages[v.(string)]
	}
	return e
}

// validate checks every given value against the settings table.
func (p UpdateSettingsParams) validate() error {
	for name, v := range p.Values {
		st, ok := users.LookupSetting(name)
		if !ok {
			return engine.BadRequest("Invalid setting %s", name)
		}
		if err := st.Check(v); err != nil {
			return engine.BadRequest("%s", users.TrimSettingTypeError(err))
		}
	}
	if p.Timezone != nil {
		if err := users.CheckTimezone(*p.Timezone); err != nil {
			return engine.BadRequest("Invalid timezone")
		}
	}
	if p.FullName != nil {
		if _, err := users.CheckFullName(*p.FullName); err != nil {
			return engine.RuleError(err)
		}
	}
	if p.Email != nil {
		if err := users.CheckEmail(strings.TrimSpace(*p.Email)); err != nil {
			return engine.BadRequest("Invalid email address.")
		}
	}
	return nil
}

// UpdateSettingsResult is UpdateSettings's answer: nothing beyond success.
type UpdateSettingsResult struct{}

// UpdateSettings changes the actor's own settings (or, with TargetUsers, other users'). Only
// values that change are written, each with a user_settings update event to its user; name
// and time-zone changes also send realm_user updates; an email change only starts a
// confirmation; a password change needs the old password.
func (s *Service) UpdateSettings(ctx context.Context, actor engine.Actor, p UpdateSettingsParams) (UpdateSettingsResult, error) {
	if err := p.validate(); err != nil {
		return UpdateSettingsResult{}, err
	}
	if p.TargetUsers != nil {
		return UpdateSettingsResult{}, s.updateOthersSettings(ctx, actor, p)
	}
	var newHash, oldHash string
	if p.NewPassword != nil && *p.NewPassword != "" {
		var err error
		if newHash, oldHash, err = s.checkPasswordChange(ctx, actor, p); err != nil {
			return UpdateSettingsResult{}, err
		}
	}
	key := ""
	if p.Email != nil {
		k, err := randomString(32, "abcdefghijklmnopqrstuvwxyz0123456789")
		if err != nil {
			return UpdateSettingsResult{}, engine.InternalError(err)
		}
		key = k
	}
	return UpdateSettingsResult{}, s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		now := o.Now
		tx, ev, me := o.Tx, o.Ev, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		if newHash != "" && me.PasswordHash != oldHash {
			return engine.BadRequest("Wrong password!")
		}
		old := me
		if err := applySettingValues(o, realm, &me, p, now); err != nil {
			return err
		}
		if p.FullName != nil {
			me.FullName, _ = users.CheckFullName(*p.FullName)
		}
		if p.Timezone != nil && *p.Timezone != me.Timezone {
			me.Timezone = *p.Timezone
			ev.Emit(settingEvent("timezone", me.Timezone), []int64{int64(me.ID)})
		}
		if newHash != "" {
			me.PasswordHash = newHash
			if err := s.endOtherSessions(o, actor, me.ID); err != nil {
				return err
			}
		}
		if me != old {
			if err := tx.Users().Update(me); err != nil {
				return err
			}
			s.userRewritten(ev, old, me)
		}
		if err := announceOwnChanges(tx.Users(), ev, s.EmailDomain(realm), old, me); err != nil {
			return err
		}
		if p.Email != nil {
			return s.requestEmailChange(o, me, strings.TrimSpace(*p.Email), key, now)
		}
		return nil
	})
}

// applySettingValues writes the changed values of p.Values for *me (the email visibility on
// the user record itself, the rest in the stored settings), each with a user_settings event,
// and follows up what a setting drives (drafts synchronization, presence).
func applySettingValues(o *engine.WriteOp, realm realms.Realm, me *users.User, p UpdateSettingsParams, now time.Time) error {
	tx, ev := o.Tx, o.Ev
	stored, err := tx.UserSettings().Get(me.ID)
	if err != nil {
		return err
	}
	changed := false
	for _, name := range sortedNames(p.Values) {
		st, _ := users.LookupSetting(name)
		v := p.Values[name]
		if st.OnUser {
			if vis := users.EmailVisibility(v.(int64)); vis != me.EmailVisibility {
				me.EmailVisibility = vis
				ev.Emit(settingEvent(name, v), []int64{int64(me.ID)})
			}
			continue
		}
		if stored.Value(name) == v {
			continue
		}
		stored.Set(name, v, true)
		changed = true
		ev.Emit(settingEvent(name, v), []int64{int64(me.ID)})
		if err := settingFollowUp(tx, ev, o.World().EmailDomain(), *me, name, v, now); err != nil {
			return err
		}
	}
	if !changed {
		return nil
	}
	return tx.UserSettings().PutMany(map[users.ID]users.Settings{me.ID: stored})
}

// settingFollowUp applies what a changed setting drives beyond itself.
func settingFollowUp(tx storage.Tx, ev *engine.Events, domain string, me users.User, name string, v any, now time.Time) error {
	switch name {
	case "enable_drafts_synchronization":
		return SetDraftsSynchronization(tx, me.ID, v.(bool))
	case "presence_enabled":
		if err := PresenceToggled(tx, ev, domain, me, v.(bool), now); err != nil {
			return err
		}
		return announceAway(tx.Users(), ev, me, v.(bool))
	case "allow_private_data_export":
		return transfer.ConsentChanged(storage.ReadsOf(tx), ev, me, v.(bool))
	}
	return nil
}

// announceOwnChanges sends the realm_user updates of a user's own changes to others: name,
// time zone and email visibility.
func announceOwnChanges(r storage.UserReader, ev *engine.Events, domain string, old, me users.User) error {
	if me.FullName != old.FullName {
		if err := announceUserUpdate(r, ev, person{"user_id": me.ID, "full_name": me.FullName}); err != nil {
			return err
		}
	}
	if me.Timezone != old.Timezone {
		if err := announceUserUpdate(r, ev, person{"user_id": me.ID, "email": world.APIEmail(domain, me), "timezone": me.Timezone}); err != nil {
			return err
		}
	}
	if me.EmailVisibility != old.EmailVisibility {
		return announceVisibilityOf(r, ev, domain, old, me)
	}
	return nil
}

// requestEmailChange records a change of me's email to email (unless it is the same), to be
// confirmed with key, and hands the key to Options.EmailChangeRequested after commit.
func (s *Service) requestEmailChange(o *engine.WriteOp, me users.User, email, key string, now time.Time) error {
	tx, ev := o.Tx, o.Ev
	if users.NormalizeEmail(email) == users.NormalizeEmail(me.Email) {
		return nil
	}
	if other, err := tx.Users().GetByEmail(email); err == nil && other.ID != me.ID {
		return engine.BadRequest("Email '%s' already in use", email)
	} else if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	change := users.EmailChange{Key: key, UserID: me.ID, NewEmail: email, Expires: now.Add(EmailChangeValidity)}
	if err := tx.UserSettings().PutEmailChange(change); err != nil {
		return err
	}
	if hook := s.cfg.EmailChangeRequested; hook != nil {
		ev.AfterCommit(func() { hook(change.UserID, change.NewEmail, change.Key) })
	}
	return nil
}

// checkPasswordChange verifies old_password (rate limited like logins) and hashes the new
// password outside any transaction. It returns the new hash and the hash it checked, which
// must still be current when the change is written.
func (s *Service) checkPasswordChange(ctx context.Context, actor engine.Actor, p UpdateSettingsParams) (string, string, error) {
	if !s.passwordStrong(*p.NewPassword) {
		return "", "", engine.BadRequest("New password is too weak!")
	}
	var current users.User
	err := s.eng.Read(ctx, actor, engine.Humans, func(o *engine.ReadOp) error {
		current = o.Me
		return nil
	})
	if err != nil {
		return "", "", err
	}
	key := "user:" + users.NormalizeEmail(current.Email)
	if err := RateLimited(s.loginByUser.Allow(key)); err != nil {
		return "", "", err
	}
	if p.OldPassword == nil || current.PasswordHash == "" || !checkPassword(current.PasswordHash, *p.OldPassword) {
		return "", "", engine.BadRequest("Wrong password!")
	}
	s.loginByUser.Reset(key)
	h, err := s.hashing.hashPassword(*p.NewPassword)
	if err != nil {
		return "", "", engine.InternalError(err)
	}
	return h, current.PasswordHash, nil
}

func sortedNames(m map[string]any) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// announceVisibilityOf tells each viewer whose view of u's email changed between before and
// after: delivery_email (the address or null), the avatar_url that client_gravatar clients
// see for a Gravatar avatar, and everyone the new API email when it changes.
func announceVisibilityOf(r storage.UserReader, ev *engine.Events, domain string, before, after users.User) error {
	all, err := r.List()
	if err != nil {
		return err
	}
	for _, v := range all {
		if !v.IsActive || v.ID == after.ID {
			continue
		}
		was, is := users.CanSeeEmail(v, before), users.CanSeeEmail(v, after)
		if was == is {
			continue
		}
		var email, url any
		if is {
			email = after.Email
		} else {
			url = AvatarURL(after)
		}
		to := []int64{int64(v.ID)}
		ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: person{"user_id": after.ID, "delivery_email": email}}, to)
		if after.AvatarSource == users.AvatarGravatar {
			ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: avatarPerson(after, url),
				onlyGravatarClients: true}, to)
		}
	}
	if a, b := world.APIEmail(domain, before), world.APIEmail(domain, after); a != b {
		return announceUserUpdate(r, ev, person{"user_id": after.ID, "new_email": b})
	}
	return nil
}

// UserSettingsState is register's "user_settings" section.
type UserSettingsState struct {
	UserSettings map[string]any `json:"user_settings"`
}

// EmojisetChoice is one entry of emojiset_choices (users.EmojisetChoice).
type EmojisetChoice = users.EmojisetChoice

// UserSettingsStateOf is the viewer's settings with their defaults filled in.
func UserSettingsStateOf(tx storage.ReadTx, viewer users.User) (*UserSettingsState, error) {
	stored, err := tx.UserSettings().Get(viewer.ID)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, st := range users.SettingsTable() {
		out[st.Name] = stored.Value(st.Name)
	}
	out["email_address_visibility"] = int64(viewer.EmailVisibility)
	out["timezone"] = viewer.Timezone
	choices := slices.Clone(users.EmojisetChoices)
	out["emojiset_choices"] = choices
	out["available_notification_sounds"] = slices.Clone(users.NotificationSounds)
	return &UserSettingsState{UserSettings: out}, nil
}

// ConfirmEmailChangeParams are the parameters of the email-change confirmation (the link the
// server would mail).
type ConfirmEmailChangeParams struct {
	Key string
}

// ConfirmEmailChangeResult reports the changed address.
type ConfirmEmailChangeResult struct {
	UserID   users.ID
	NewEmail string
}

// ConfirmEmailChange completes an email change started through UpdateSettings. It is a
// trusted operation (the key is the credential): unknown, used or expired keys are refused.
// Those who may see the email get realm_user update delivery_email (and everyone new_email
// when it is the API email).
func (s *Service) ConfirmEmailChange(ctx context.Context, p ConfirmEmailChangeParams) (ConfirmEmailChangeResult, error) {
	var res ConfirmEmailChangeResult
	err := s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		now := o.Now
		tx, ev := o.Tx, o.Ev
		invalid := engine.BadRequest("The confirmation link has expired or been deactivated.")
		change, err := tx.UserSettings().GetEmailChange(p.Key)
		if errors.Is(err, storage.ErrNotFound) {
			return invalid
		} else if err != nil {
			return err
		}
		if !now.Before(change.Expires) {
			return invalid
		}
		u, err := tx.Users().Get(change.UserID)
		if err != nil {
			return err
		}
		if !u.IsActive {
			return invalid
		}
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		u.Email = change.NewEmail
		if err := tx.Users().Update(u); errors.Is(err, storage.ErrConflict) {
			return engine.BadRequest("Email '%s' already in use", change.NewEmail)
		} else if err != nil {
			return err
		}
		s.credentialsChanged(o.Ev, u.ID)
		if err := tx.UserSettings().DeleteEmailChange(p.Key); err != nil {
			return err
		}
		res = ConfirmEmailChangeResult{UserID: u.ID, NewEmail: u.Email}
		return announceEmailChange(tx.Users(), ev, s.EmailDomain(realm), u)
	})
	return res, err
}

// SetDraftsSynchronization applies the user setting enable_drafts_synchronization: turning it
// off deletes the user's stored drafts (without drafts events: clients keep their local
// copies) and makes every draft operation fail until it is turned on again. PATCH /settings
// calls it inside its transaction.
func SetDraftsSynchronization(tx storage.Tx, user users.ID, enabled bool) error {
	if !enabled {
		if err := tx.Drafts().DeleteForUser(user); err != nil {
			return err
		}
	}
	return tx.Drafts().SetSyncDisabled(user, !enabled)
}
