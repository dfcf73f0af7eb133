package sqlstore

import (
	"database/sql"
	"slices"

	"github.com/teamchat/chat/messages"
)

func scanReaction(row *sql.Rows) (messages.Reaction, error) {
	var r messages.Reaction
	return r, row.Scan(&r.MessageID, &r.UserID, &r.EmojiName, &r.EmojiCode, &r.ReactionType)
}

// Reactions reads the reactions of the messages of list. A list of ids sent as one parameter
// (idSet) costs SQLite a temporary index of its own, built id by id, before any reaction is
// read; a list whose ids lie close together (a page of messages, a single id) is read as the
// range from its lowest to its highest id instead, the few reactions of messages outside the
// list dropped here.
func (a messageTx) Reactions(list []messages.ID) ([]messages.Reaction, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	const columns = "SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reactions"
	lo, hi := slices.Min(list), slices.Max(list)
	if int64(hi-lo) >= denseSpan*int64(len(list)) {
		return scanAll(a.t, scanReaction, columns+` WHERE message_id IN (`+a.t.d.idSet+`) ORDER BY message_id, id`, ids(a.t.d, list))
	}
	out, err := scanAll(a.t, scanReaction, columns+` WHERE message_id >= ? AND message_id <= ? ORDER BY message_id, id`, lo, hi)
	if err != nil || len(out) == 0 {
		return out, err
	}
	sorted := slices.Sorted(slices.Values(list))
	return slices.DeleteFunc(out, func(r messages.Reaction) bool {
		_, found := slices.BinarySearch(sorted, r.MessageID)
		return !found
	}), nil
}

// denseSpan is how many ids per listed id a range may span and still be read as a range.
const denseSpan = 4

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
