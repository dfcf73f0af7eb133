package narrows

import (
	"errors"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// MaxDirectRecipients bounds the recipients of one direct message (and of a dm operand).
const MaxDirectRecipients = 1000

// ErrInvalidMessage is the error of a message that does not exist or that the user may not
// read: the same, so that an id tells nothing of a message one may not read.
var ErrInvalidMessage = &engine.Error{Code: engine.CodeBadRequest, Msg: "Invalid message(s)"}

// errMessageNotFound maps a storage miss to the API's error.
func errMessageNotFound(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return ErrInvalidMessage
	}
	return err
}

// ReadableMessage loads the message id and u's row of it (nil when u did not receive it) if u
// may read it; an unknown message and one u may not read give the same error.
func ReadableMessage(w *world.World, mr storage.MessageReader, u users.User, id messages.ID) (messages.Message, *messages.UserMessage, error) {
	m, err := mr.Get(id)
	if err != nil {
		return messages.Message{}, nil, errMessageNotFound(err)
	}
	rows, err := mr.UserRows(u.ID, []messages.ID{m.ID})
	if err != nil {
		return messages.Message{}, nil, err
	}
	if !w.CanRead(u, m, len(rows) == 1) {
		return messages.Message{}, nil, ErrInvalidMessage
	}
	if len(rows) == 1 {
		return m, &rows[0], nil
	}
	return m, nil, nil
}
