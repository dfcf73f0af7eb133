package conversations

import (
	"context"
	"errors"
	"slices"

	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// ReactionRecord is one reaction in a message record.
type ReactionRecord struct {
	EmojiName    string   `json:"emoji_name"`
	EmojiCode    string   `json:"emoji_code"`
	ReactionType string   `json:"reaction_type"`
	UserID       users.ID `json:"user_id"`
}

// ReactionEvent is a reaction event (op add or remove). User is the deprecated copy of the
// reacting user that Zulip still sends.
type ReactionEvent struct {
	Type         string            `json:"type"`
	Op           string            `json:"op"`
	UserID       users.ID          `json:"user_id"`
	User         ReactionEventUser `json:"user"`
	MessageID    messages.ID       `json:"message_id"`
	EmojiName    string            `json:"emoji_name"`
	EmojiCode    string            `json:"emoji_code"`
	ReactionType string            `json:"reaction_type"`
}

// ReactionEventUser is the reacting user in a reaction event.
type ReactionEventUser struct {
	UserID   users.ID `json:"user_id"`
	Email    string   `json:"email"`
	FullName string   `json:"full_name"`
}

// AddReactionParams are the parameters of POST /messages/{message_id}/reactions. Without
// EmojiCode or ReactionType, the emoji named EmojiName supplies them.
type AddReactionParams struct {
	MessageID    messages.ID
	EmojiName    string
	EmojiCode    *string
	ReactionType *string
}

// RemoveReactionParams are the parameters of DELETE /messages/{message_id}/reactions. The
// reaction is found by code and type; without EmojiCode, the emoji named EmojiName supplies
// it. ReactionType defaults to unicode_emoji.
type RemoveReactionParams struct {
	MessageID    messages.ID
	EmojiName    *string
	EmojiCode    *string
	ReactionType *string
}

// Errors of reactions; their text and codes are Zulip's.
var (
	errReactionExists       = &engine.Error{Code: engine.CodeReactionAlreadyExists, Msg: "Reaction already exists."}
	errReactionDoesNotExist = &engine.Error{Code: engine.CodeReactionDoesNotExist, Msg: "Reaction doesn't exist."}
)

// AddReactionResult is AddReaction's answer: nothing beyond success.
type AddReactionResult struct{}

// AddReaction adds the actor's emoji reaction to a message they may read. When someone
// already reacted with the same emoji, the reaction counts as a vote for theirs and takes its
// name. A user without a row for the message (a channel's history) gets one.
func (s *Service) AddReaction(ctx context.Context, actor engine.Actor, p AddReactionParams) (AddReactionResult, error) {
	if err := org.CheckEmojiFields(p.EmojiName, p.EmojiCode); err != nil {
		return AddReactionResult{}, err
	}
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		m, row, err := ReactableMessage(w, tx.Messages(), me, p.MessageID)
		if err != nil {
			return err
		}
		custom, err := tx.Realm().ListEmoji()
		if err != nil {
			return err
		}
		r := messages.Reaction{MessageID: m.ID, UserID: me.ID, EmojiName: p.EmojiName}
		if p.EmojiCode == nil || p.ReactionType == nil {
			code, typ, err := s.org.EmojiByName(custom, p.EmojiName)
			if err != nil {
				return err
			}
			r.EmojiCode, r.ReactionType = code, string(typ)
		}
		if p.EmojiCode != nil {
			r.EmojiCode = *p.EmojiCode
		}
		if p.ReactionType != nil {
			r.ReactionType = *p.ReactionType
		}
		existing, err := tx.Messages().Reactions([]messages.ID{m.ID})
		if err != nil {
			return err
		}
		voted := false
		for _, o := range existing {
			if !o.SameEmoji(r) {
				continue
			}
			if o.UserID == me.ID {
				return errReactionExists
			}
			if !voted {
				r.EmojiName, voted = o.EmojiName, true
			}
		}
		if !voted {
			if err := s.org.CheckEmojiRequest(custom, r); err != nil {
				return err
			}
		}
		if row == nil {
			hist := messages.UserMessage{UserID: me.ID, MessageID: m.ID, Flags: messages.FlagRead | messages.FlagHistorical}
			if err := tx.Messages().PutRows([]messages.UserMessage{hist}); err != nil {
				return err
			}
		}
		if err := tx.Messages().AddReaction(r); err != nil {
			if errors.Is(err, storage.ErrConflict) {
				return errReactionExists
			}
			return err
		}
		return noteReaction(w, tx.Messages(), ev, "add", me, m, r)
	})
	return AddReactionResult{}, err
}

// RemoveReactionResult is RemoveReaction's answer: nothing beyond success.
type RemoveReactionResult struct{}

// RemoveReaction removes the actor's reaction with an emoji from a message. The emoji is not
// checked against the current emoji: a deactivated custom emoji's reaction can be removed.
func (s *Service) RemoveReaction(ctx context.Context, actor engine.Actor, p RemoveReactionParams) (RemoveReactionResult, error) {
	name := ""
	if p.EmojiName != nil {
		name = *p.EmojiName
	}
	if err := org.CheckEmojiFields(name, p.EmojiCode); err != nil {
		return RemoveReactionResult{}, err
	}
	typ := string(emoji.Unicode)
	if p.ReactionType != nil {
		typ = *p.ReactionType
	}
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		m, _, err := ReactableMessage(w, tx.Messages(), me, p.MessageID)
		if err != nil {
			return err
		}
		r := messages.Reaction{MessageID: m.ID, UserID: me.ID, ReactionType: typ}
		switch {
		case p.EmojiCode != nil:
			r.EmojiCode = *p.EmojiCode
		case p.EmojiName == nil:
			return engine.BadRequest("At least one of the following arguments must be present: emoji_name, emoji_code")
		default:
			custom, err := tx.Realm().ListEmoji()
			if err != nil {
				return err
			}
			if r.EmojiCode, _, err = s.org.EmojiByName(custom, *p.EmojiName); err != nil {
				return err
			}
		}
		existing, err := tx.Messages().Reactions([]messages.ID{m.ID})
		if err != nil {
			return err
		}
		i := slices.IndexFunc(existing, func(o messages.Reaction) bool { return o.UserID == me.ID && o.SameEmoji(r) })
		if i < 0 {
			return errReactionDoesNotExist
		}
		r.EmojiName = existing[i].EmojiName
		missing := func() *engine.Error { return errReactionDoesNotExist }
		if err := engine.NotFound(tx.Messages().RemoveReaction(r), missing); err != nil {
			return err
		}
		return noteReaction(w, tx.Messages(), ev, "remove", me, m, r)
	})
	return RemoveReactionResult{}, err
}

// ReactableMessage loads a message the user may read and react to (not in an archived
// channel), with the user's row of it (nil for a channel's history).
func ReactableMessage(w *world.World, mr storage.MessageReader, me users.User, id messages.ID) (messages.Message, *messages.UserMessage, error) {
	m, row, err := narrows.ReadableMessage(w, mr, me, id)
	if err != nil {
		return m, nil, err
	}
	if c, ok := w.Channel(m.ChannelID); !m.IsDirect() && (!ok || c.IsArchived) {
		return m, nil, errInvalidMessage
	}
	return m, row, nil
}

// noteReaction queues a reaction event for everyone who has the message (a row for it) and,
// in a channel whose history subscribers may read, its subscribers.
func noteReaction(w *world.World, mr storage.MessageReader, ev *engine.Events, op string, me users.User, m messages.Message, r messages.Reaction) error {
	rows, err := mr.Rows([]messages.ID{m.ID})
	if err != nil {
		return err
	}
	to := make([]users.ID, 0, len(rows))
	for _, row := range rows {
		to = append(to, row.UserID)
	}
	if !m.IsDirect() {
		if c, ok := w.Channel(m.ChannelID); ok && (!c.InviteOnly || c.HistoryPublicToSubscribers) {
			to = append(to, w.SubscribersOf(c.ID)...)
		}
	}
	e := ReactionEvent{
		Type: "reaction", Op: op, UserID: me.ID,
		User:      ReactionEventUser{UserID: me.ID, Email: w.APIEmail(me), FullName: me.FullName},
		MessageID: m.ID, EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType,
	}
	ev.Emit(e, engine.Recipients(to))
	return nil
}

// reactionRecords groups the reactions of messages by message, as message records show them.
func reactionRecords(list []messages.Reaction) map[messages.ID][]ReactionRecord {
	out := map[messages.ID][]ReactionRecord{}
	for _, r := range list {
		out[r.MessageID] = append(out[r.MessageID], ReactionRecord{
			EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType, UserID: r.UserID,
		})
	}
	return out
}

// reactionsOf reads the reactions of matched messages for their records.
func reactionsOf(mr storage.MessageReader, matches []storage.MessageMatch) (map[messages.ID][]ReactionRecord, error) {
	if len(matches) == 0 {
		return nil, nil
	}
	ids := make([]messages.ID, len(matches))
	for i, m := range matches {
		ids[i] = m.Message.ID
	}
	list, err := mr.Reactions(ids)
	if err != nil {
		return nil, err
	}
	return reactionRecords(list), nil
}
