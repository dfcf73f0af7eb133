package sqlstore

import (
	"database/sql"

	"github.com/teamchat/chat/messages"
)

func scanReaction(row *sql.Rows) (messages.Reaction, error) {
	var r messages.Reaction
	return r, row.Scan(&r.MessageID, &r.UserID, &r.EmojiName, &r.EmojiCode, &r.ReactionType)
}

// Reactions reads the reactions of the messages of list, as one range of ids when they lie
// close together (idranges.go).
func (a messageTx) Reactions(list []messages.ID) ([]messages.Reaction, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	cond, args, dense := a.listed(list)
	out, err := scanAll(a.t, scanReaction, `SELECT message_id, user_id, emoji_name, emoji_code, reaction_type
		FROM reactions WHERE message_id `+cond+` ORDER BY message_id, id`, args...)
	return onlyListed(out, err, list, dense, func(r *messages.Reaction) messages.ID { return r.MessageID })
}

func (a messageTx) AddReaction(r messages.Reaction) error {
	var n int
	if err := a.t.get("SELECT COUNT(*) FROM messages WHERE id = ?", []any{r.MessageID}, &n); err != nil {
		return err
	}
	if n == 0 {
		return notFound("message", r.MessageID)
	}
	return a.t.guarded(func() error {
		_, err := a.t.exec(`INSERT INTO reactions (message_id, user_id, emoji_name, emoji_code, reaction_type)
			VALUES (?, ?, ?, ?, ?)`, r.MessageID, r.UserID, r.EmojiName, r.EmojiCode, r.ReactionType)
		return err
	})
}

func (a messageTx) RemoveReaction(r messages.Reaction) error {
	res, err := a.t.exec(`DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND emoji_code = ?
		AND reaction_type = ?`, r.MessageID, r.UserID, r.EmojiCode, r.ReactionType)
	if err != nil {
		return err
	}
	return mustAffect(res, "reaction", r)
}
