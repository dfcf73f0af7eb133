package chat

import (
	"errors"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// historyChannels lists the channels whose whole history u may read: content access and a
// history that is public (to subscribers).
func historyChannels(w *world.World, u users.User) []channels.ID {
	var out []channels.ID
	for _, c := range w.AllChannels() {
		if (!c.InviteOnly || c.HistoryPublicToSubscribers) && w.Content(c, u) {
			out = append(out, c.ID)
		}
	}
	return out
}

// canRead reports whether u may read m: a row for it, or a channel whose history u may read.
func canRead(w *world.World, u users.User, m messages.Message, received bool) bool {
	if received {
		return true
	}
	if m.IsDirect() {
		return false
	}
	c, ok := w.Channel(m.ChannelID)
	return ok && (!c.InviteOnly || c.HistoryPublicToSubscribers) && w.Content(c, u)
}

// errMessageNotFound maps a storage miss to the API's error.
func errMessageNotFound(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return errInvalidMessage
	}
	return err
}

// readableMessage loads the message id and u's row of it (nil when u did not receive it) if u
// may read it; an unknown message and one u may not read give the same error.
func readableMessage(w *world.World, mr storage.MessageReader, u users.User, id messages.ID) (messages.Message, *messages.UserMessage, error) {
	m, err := mr.Get(id)
	if err != nil {
		return messages.Message{}, nil, errMessageNotFound(err)
	}
	rows, err := mr.UserRows(u.ID, []messages.ID{m.ID})
	if err != nil {
		return messages.Message{}, nil, err
	}
	if !canRead(w, u, m, len(rows) == 1) {
		return messages.Message{}, nil, errInvalidMessage
	}
	if len(rows) == 1 {
		return m, &rows[0], nil
	}
	return m, nil, nil
}
