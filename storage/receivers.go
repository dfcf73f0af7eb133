package storage

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// A channel message's rows without a row per recipient.
//
// A user receives a channel while they hold an active subscription to it and are active
// themselves (the subscribers SubscriptionReader.Counts counts). A backend keeps, for every
// (user, channel), the intervals of message ids during which the user received the channel:
// an interval opens when the user starts receiving (it holds the messages created after that
// moment) and closes when they stop. It also keeps a read mark per (user, channel).
//
// A message stored with CreateForSubscribers has implicit rows: every user whose interval of
// its channel holds its id has a row with flags FlagRead when the id is at most the user's
// read mark of the channel, else no flags. Explicit rows (those given to CreateForSubscribers,
// PutRows, and those the flag changes write) replace the implicit row of their user and add
// rows for users who do not receive the channel. Every method of MessageReader and
// MessageWriter sees a message's rows as these implicit and explicit rows together, exactly
// as if each had been written: which rows are stored is the backend's business. (A backend
// moves marks forward over read messages and drops explicit rows equal to the implicit ones,
// so that what is stored does not grow with a channel's size; it gives a message moved to
// another channel, or whose rows are deleted, explicit rows of everyone first, so that its
// rows stay the same.)
//
// Messages stored with Create have explicit rows only.

// SubscriberMessageCreator is an optional capability of a MessageWriter (see
// CreateForSubscribers).
type SubscriberMessageCreator interface {
	// CreateForSubscribers stores the channel message m, whose recipients are the users
	// receiving its channel with no flags, except for the given rows (their MessageID is
	// ignored), which replace the row of their user or add one. It returns the new id and the
	// Bounds of the channel from just before the message, as CreateInChannel does.
	CreateForSubscribers(m messages.Message, rows []messages.UserMessage) (messages.ID, ChannelActivity, error)
}

// CreateForSubscribers stores the channel message m for the users receiving its channel,
// recipients (ascending; each of them receiving the channel), with no flags except for rows,
// which replace the rows of their users or add rows: through w's SubscriberMessageCreator,
// which writes no row per recipient, else as CreateInChannel with a row for each recipient.
// It returns what CreateInChannel returns.
func CreateForSubscribers(w MessageWriter, m messages.Message, recipients []users.ID, rows []messages.UserMessage) (messages.ID, ChannelActivity, error) {
	if c, ok := w.(SubscriberMessageCreator); ok {
		return c.CreateForSubscribers(m, rows)
	}
	return CreateInChannel(w, m, FullRows(recipients, rows))
}

// FullRows is the list of rows of a message whose recipients receive it with no flags except
// for rows, which replace the rows of their users or add rows: ascending by user.
func FullRows(recipients []users.ID, rows []messages.UserMessage) []messages.UserMessage {
	byUser := make(map[users.ID]messages.Flags, len(rows))
	for _, r := range rows {
		byUser[r.UserID] = r.Flags
	}
	out := make([]messages.UserMessage, 0, len(recipients)+len(rows))
	for _, u := range recipients {
		f, ok := byUser[u]
		if ok {
			delete(byUser, u)
		}
		out = append(out, messages.UserMessage{UserID: u, Flags: f})
	}
	for _, r := range rows {
		if _, ok := byUser[r.UserID]; ok {
			out = append(out, messages.UserMessage{UserID: r.UserID, Flags: r.Flags})
			delete(byUser, r.UserID)
		}
	}
	slices.SortFunc(out, func(a, b messages.UserMessage) int { return cmp.Compare(a.UserID, b.UserID) })
	return out
}
