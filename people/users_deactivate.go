package people

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// DeactivateUserActions are the optional clean-ups of a deactivation, applied to the user's
// bots and then to the user.
type DeactivateUserActions struct {
	DeleteProfile                bool `json:"delete_profile"`
	DeletePublicChannelMessages  bool `json:"delete_public_channel_messages"`
	DeletePrivateChannelMessages bool `json:"delete_private_channel_messages"`
	DeleteDirectMessages         bool `json:"delete_direct_messages"`
}

// DeactivateUserParams are the parameters of DELETE /users/{user_id}.
type DeactivateUserParams struct {
	UserID  users.ID
	Actions *DeactivateUserActions
	// DeactivationNotificationComment, when not nil, asks for a notification email (at most
	// 2000 characters; this server sends no email and only validates it).
	DeactivationNotificationComment *string
}

// DeactivateUserResult is DeactivateUser's answer: nothing beyond success.
type DeactivateUserResult struct{}

// DeactivateUser deactivates a human user (administrators; an owner only by an owner; never
// the only owner). The bots the user owns are deactivated first, then the user; the actions
// apply to each in that order. Everyone who can access them gets realm_user update
// is_active=false. Group memberships are kept but never count for deactivated users, so the
// user leaves every group as far as anyone can tell.
func (s *Service) DeactivateUser(ctx context.Context, actor engine.Actor, p DeactivateUserParams) (DeactivateUserResult, error) {
	if c := p.DeactivationNotificationComment; c != nil && utf8.RuneCountInString(strings.TrimSpace(*c)) > MaxDeactivationCommentLength {
		return DeactivateUserResult{}, engine.BadRequest("deactivation_notification_comment is too long (limit: %d characters)", MaxDeactivationCommentLength)
	}
	var actions DeactivateUserActions
	if p.Actions != nil {
		actions = *p.Actions
	}
	return DeactivateUserResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, me := o.Tx, o.Me
		target, err := engine.TargetUser(tx.Users(), p.UserID)
		if err != nil {
			return err
		}
		if target.IsBot() {
			return engine.ErrNoSuchUser()
		}
		if !target.IsActive {
			return engine.BadRequest(msgUserDeactivated400)
		}
		if !me.Role.IsAdmin() {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		if target.Role == users.RoleOwner && me.Role != users.RoleOwner {
			return engine.ErrMustBeOwner()
		}
		if only, err := isOnlyOwner(tx.Users(), target); err != nil {
			return err
		} else if only {
			return engine.BadRequest(msgOnlyOwnerDeactivate)
		}
		return s.deactivateWithBots(o, target, actions)
	})
}

// deactivateWithBots deactivates the active bots u owns, then u, each with the actions.
func (s *Service) deactivateWithBots(o *engine.WriteOp, u users.User, a DeactivateUserActions) error {
	all, err := o.Tx.Users().List()
	if err != nil {
		return err
	}
	for _, bot := range all {
		if bot.IsBot() && bot.IsActive && bot.BotOwnerID == u.ID {
			if err := s.deactivateOne(o, bot, a); err != nil {
				return err
			}
		}
	}
	return s.deactivateOne(o, u, a)
}

// deactivateOne applies the actions to u and deactivates it (me is the acting administrator).
func (s *Service) deactivateOne(o *engine.WriteOp, u users.User, a DeactivateUserActions) error {
	tx, ev := o.Tx, o.Ev
	if err := s.deleteMessagesOf(o, u, a); err != nil {
		return err
	}
	if a.DeleteProfile {
		u.FullName = users.DeletedUserName
		u.AvatarSource = users.AvatarJdenticon
		u.AvatarVersion++
		u.IsDeleted = true
	}
	u.IsActive = false
	if err := tx.Users().Update(u); err != nil {
		return err
	}
	if err := s.endSessions(tx, ev, u.ID, ""); err != nil {
		return err
	}
	if a.DeleteProfile {
		if err := announceUserUpdate(tx.Users(), ev, person{"user_id": u.ID, "full_name": u.FullName}); err != nil {
			return err
		}
		if err := announceAvatar(tx.Users(), ev, u); err != nil {
			return err
		}
		if err := announceUserUpdate(tx.Users(), ev, person{"user_id": u.ID, "is_deleted": true}); err != nil {
			return err
		}
		if u.IsBot() {
			if err := announceBotUpdate(tx.Users(), ev, u, map[string]any{"full_name": u.FullName, "avatar_url": AvatarURL(u)}); err != nil {
				return err
			}
		}
	}
	ids, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: person{"user_id": u.ID, "is_active": false}}, ids)
	if u.IsBot() {
		if err := announceBotUpdate(tx.Users(), ev, u, map[string]any{"is_active": false}); err != nil {
			return err
		}
	}
	ev.EndQueuesOf(u.ID)
	return nil
}

// deleteMessagesOf applies the message-deleting actions of a deactivation to the messages u
// sent: to public channels (delete_public_channel_messages), to invite-only channels
// (delete_private_channel_messages) and direct messages (delete_direct_messages). As for any
// deletion, those who received them and still have access, and me when able to read them, get
// delete_message events, and channels whose oldest message goes a stream update.
func (s *Service) deleteMessagesOf(o *engine.WriteOp, u users.User, a DeactivateUserActions) error {
	tx, ev, me := o.Tx, o.Ev, o.Me
	if !a.DeletePublicChannelMessages && !a.DeletePrivateChannelMessages && !a.DeleteDirectMessages {
		return nil
	}
	sent, err := tx.Messages().SentBy(u.ID)
	if err != nil || len(sent) == 0 {
		return err
	}
	w := o.World()
	var ids []messages.ID
	for _, m := range sent {
		var doomed bool
		if m.IsDirect() {
			doomed = a.DeleteDirectMessages
		} else if c, ok := w.Channel(m.ChannelID); ok && !c.InviteOnly {
			doomed = a.DeletePublicChannelMessages
		} else {
			doomed = a.DeletePrivateChannelMessages
		}
		if doomed {
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return s.hooks.DeleteMessages(tx, ev, w, me, ids)
}

// ReactivateUserParams are the parameters of POST /users/{user_id}/reactivate.
type ReactivateUserParams struct {
	UserID users.ID
}

// ReactivateUserResult is ReactivateUser's answer: nothing beyond success.
type ReactivateUserResult struct{}

// ReactivateUser reactivates a deactivated user or bot (administrators, or a bot's owner).
// Everyone who can access the user gets realm_user update is_active=true.
func (s *Service) ReactivateUser(ctx context.Context, actor engine.Actor, p ReactivateUserParams) (ReactivateUserResult, error) {
	return ReactivateUserResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		target, err := engine.AdminTarget(tx.Users(), me, p.UserID)
		if err != nil {
			return err
		}
		if target.IsActive {
			return engine.BadRequest("User is already active")
		}
		if target.IsBot() && target.BotOwnerID != 0 {
			owner, err := tx.Users().Get(target.BotOwnerID)
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			if err != nil || !owner.IsActive {
				return engine.BadRequest("Bot owner is deactivated")
			}
		}
		wasDeleted := target.IsDeleted
		target.IsActive, target.IsDeleted = true, false
		if err := tx.Users().Update(target); err != nil {
			return err
		}
		s.credentialsChanged(ev, target.ID)
		if wasDeleted {
			// Deleted users are deactivated ones: an active user is no longer deleted.
			if err := announceUserUpdate(tx.Users(), ev, person{"user_id": target.ID, "is_deleted": false}); err != nil {
				return err
			}
		}
		if err := announceUserUpdate(tx.Users(), ev, person{"user_id": target.ID, "is_active": true}); err != nil {
			return err
		}
		if target.IsBot() {
			if err := announceBotUpdate(tx.Users(), ev, target, map[string]any{"is_active": true}); err != nil {
				return err
			}
		}
		return announceRestoredMemberships(tx.Users(), tx.Groups(), ev, target.ID)
	})
}

// DeactivateOwnUserParams are the parameters of DELETE /users/me (none).
type DeactivateOwnUserParams struct{}

// errCannotDeactivateLast is Zulip's CannotDeactivateLastUserError: the organization's last
// active user, or its only owner, cannot leave.
func errCannotDeactivateLast(owner bool) *engine.Error {
	entity := "user"
	if owner {
		entity = "organization owner"
	}
	return engine.Errorf(engine.CodeCannotDeactivateLastUser, "Cannot deactivate the only %s.", entity).
		With("is_last_owner", owner).With("entity", entity)
}

// DeactivateOwnUserResult is DeactivateOwnUser's answer: nothing beyond success.
type DeactivateOwnUserResult struct{}

// DeactivateOwnUser deactivates the actor's own account, and first the bots the actor owns,
// as an administrator's deactivation does. The organization's last active user and its only
// owner are refused (CANNOT_DEACTIVATE_LAST_USER).
func (s *Service) DeactivateOwnUser(ctx context.Context, actor engine.Actor, _ DeactivateOwnUserParams) (DeactivateOwnUserResult, error) {
	return DeactivateOwnUserResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, me := o.Tx, o.Me
		ids, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		if len(ids) == 1 {
			return errCannotDeactivateLast(false)
		}
		if only, err := isOnlyOwner(tx.Users(), me); err != nil {
			return err
		} else if only {
			return errCannotDeactivateLast(true)
		}
		return s.deactivateWithBots(o, me, DeactivateUserActions{})
	})
}
