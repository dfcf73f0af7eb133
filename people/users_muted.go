package people

import (
	"context"
	"errors"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// MutedUserRecord is one entry of muted_users: the muted user and when (Unix seconds).
type MutedUserRecord struct {
	ID        users.ID `json:"id"`
	Timestamp int64    `json:"timestamp"`
}

// MutedUsersEvent is the muted_users event: the user's whole list after a change, sent to
// that user only.
type MutedUsersEvent struct {
	Type       string            `json:"type"`
	MutedUsers []MutedUserRecord `json:"muted_users"`
}

// MutedUsersState is register's muted_users key.
type MutedUsersState struct {
	MutedUsers []MutedUserRecord `json:"muted_users"`
}

// MuteUserParams are the parameters of POST and DELETE /users/me/muted_users/{muted_user_id}.
type MuteUserParams struct {
	MutedUserID users.ID
}

// mutedUserRecords is the user's list as the API shows it.
func mutedUserRecords(r storage.MutedUserReader, u users.ID) ([]MutedUserRecord, error) {
	list, err := r.List(u)
	if err != nil {
		return nil, err
	}
	out := make([]MutedUserRecord, len(list))
	for i, m := range list {
		out[i] = MutedUserRecord{ID: m.MutedUserID, Timestamp: m.DateMuted.Unix()}
	}
	return out, nil
}

// mutingTarget loads the user to mute or unmute: any user of the organization, bots and
// deactivated users included.
func mutingTarget(r storage.UserReader, id users.ID) (users.User, error) {
	return engine.TargetUser(r, id)
}

// MuteUserResult is MuteUser's answer: nothing beyond success.
type MuteUserResult struct{}

// MuteUser mutes a user for the actor: the actor's unread messages from that user are marked
// read (an update_message_flags event), their later messages arrive already read, and the
// actor gets a muted_users event.
func (s *Service) MuteUser(ctx context.Context, actor engine.Actor, p MuteUserParams) (MuteUserResult, error) {
	if p.MutedUserID == actor.UserID && !actor.Anonymous() {
		return MuteUserResult{}, engine.BadRequest("Cannot mute self")
	}
	return MuteUserResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		now := o.Now
		tx, ev, me := o.Tx, o.Ev, o.Me
		target, err := mutingTarget(tx.Users(), p.MutedUserID)
		if err != nil {
			return err
		}
		err = tx.MutedUsers().Add(users.MutedUser{UserID: me.ID, MutedUserID: target.ID, DateMuted: now})
		if errors.Is(err, storage.ErrConflict) {
			return engine.BadRequest("User already muted")
		} else if err != nil {
			return err
		}
		if err := s.markSenderRead(tx, ev, me.ID, target.ID); err != nil {
			return err
		}
		return announceMutedUsers(tx, ev, me.ID)
	})
}

// UnmuteUserResult is UnmuteUser's answer: nothing beyond success.
type UnmuteUserResult struct{}

// UnmuteUser unmutes a user for the actor, who gets a muted_users event. Messages marked read
// by the mute stay read.
func (s *Service) UnmuteUser(ctx context.Context, actor engine.Actor, p MuteUserParams) (UnmuteUserResult, error) {
	return UnmuteUserResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		target, err := mutingTarget(tx.Users(), p.MutedUserID)
		if err != nil {
			return err
		}
		notMuted := func() *engine.Error { return engine.BadRequest("User is not muted") }
		if err := engine.NotFound(tx.MutedUsers().Remove(me.ID, target.ID), notMuted); err != nil {
			return err
		}
		return announceMutedUsers(tx, ev, me.ID)
	})
}

// announceMutedUsers sends u its muted_users list.
func announceMutedUsers(tx storage.Tx, ev *engine.Events, u users.ID) error {
	list, err := mutedUserRecords(tx.MutedUsers(), u)
	if err != nil {
		return err
	}
	ev.Emit(MutedUsersEvent{Type: "muted_users", MutedUsers: list}, []int64{int64(u)})
	return nil
}

// markSenderRead marks read u's unread messages sent by sender, with the
// update_message_flags event of a read.
func (s *Service) markSenderRead(tx storage.Tx, ev *engine.Events, u, sender users.ID) error {
	unread, err := tx.Messages().UserRowsWhere(u, 0, messages.FlagRead)
	if err != nil || len(unread) == 0 {
		return err
	}
	ids := make([]messages.ID, len(unread))
	for i, r := range unread {
		ids[i] = r.MessageID
	}
	msgs, err := tx.Messages().GetMany(ids)
	if err != nil {
		return err
	}
	var theirs []messages.ID
	for _, m := range msgs {
		if m.SenderID == sender {
			theirs = append(theirs, m.ID)
		}
	}
	if len(theirs) == 0 {
		return nil
	}
	changed, err := tx.Messages().SetFlags(u, theirs, messages.FlagRead, 0)
	if err != nil || len(changed) == 0 {
		return err
	}
	s.hooks.MessagesRead(ev, u, changed)
	return nil
}

// MutedUsersStateOf is register's muted_users: the viewer's list (empty for spectators).
func MutedUsersStateOf(tx storage.ReadTx, viewer users.User) (*MutedUsersState, error) {
	if viewer.ID == 0 {
		return &MutedUsersState{MutedUsers: []MutedUserRecord{}}, nil
	}
	list, err := mutedUserRecords(tx.MutedUsers(), viewer.ID)
	if err != nil {
		return nil, err
	}
	return &MutedUsersState{MutedUsers: list}, nil
}
