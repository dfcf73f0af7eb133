package conversations

import (
	"slices"

	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// delivery is a message's rows for its recipients without a row per recipient: every
// recipient has a row with no flags except those in flagged. A channel of ten thousand then
// costs a send its list of ids, not ten thousand rows (storage/receivers.go stores them so).
type delivery struct {
	// recipients are every recipient, in the order the send gave them.
	recipients []users.ID
	// flagged are the rows with flags, in the order of recipients.
	flagged []messages.UserMessage
}

// newDelivery decides m's rows for its recipients: read where read says so and for those who
// muted the sender (who are never notified of it), with the mentions of its content for
// everyone but the sender and the alert words it contains.
func newDelivery(w *world.World, tx storage.Tx, m messages.Message, mentions markdown.Mentions, recipients []users.ID, read func(users.ID) bool) (delivery, error) {
	d := delivery{recipients: recipients}
	mutedBy, err := w.MutersOf(tx.MutedUsers(), m.SenderID)
	if err != nil {
		return d, err
	}
	alerted, err := people.AlertedUsers(tx.AlertWords(), m.Content, recipients)
	if err != nil {
		return d, err
	}
	for _, id := range recipients {
		var f messages.Flags
		if read(id) || slices.Contains(mutedBy, id) {
			f |= messages.FlagRead
		}
		if id != m.SenderID {
			f |= mentionFlags(w, mentions, id)
		}
		if alerted[id] {
			f |= messages.FlagHasAlertWord
		}
		if f != 0 {
			d.flagged = append(d.flagged, messages.UserMessage{UserID: id, Flags: f})
		}
	}
	return d, nil
}

// walk calls fn with each recipient and their flags, in order.
func (d delivery) walk(fn func(u users.ID, f messages.Flags)) {
	next := 0
	for _, u := range d.recipients {
		var f messages.Flags
		if next < len(d.flagged) && d.flagged[next].UserID == u {
			f = d.flagged[next].Flags
			next++
		}
		fn(u, f)
	}
}

// rows are every recipient's row, in order.
func (d delivery) rows() []messages.UserMessage {
	out := make([]messages.UserMessage, 0, len(d.recipients))
	d.walk(func(u users.ID, f messages.Flags) { out = append(out, messages.UserMessage{UserID: u, Flags: f}) })
	return out
}

// storedRows are the rows a store keeping implicit rows needs: the flagged ones, and the
// sender's when they are a recipient (who may not receive the channel).
func (d delivery) storedRows(sender users.ID) []messages.UserMessage {
	out := slices.Clone(d.flagged)
	if !slices.ContainsFunc(out, func(r messages.UserMessage) bool { return r.UserID == sender }) && slices.Contains(d.recipients, sender) {
		out = append(out, messages.UserMessage{UserID: sender})
	}
	return out
}

// groups groups the recipients by their flags: the distinct flags in the order they first
// appear, and the users of each (a message has few distinct flags, so each recipient costs a
// short scan, and each list is allocated once at its size).
func (d delivery) groups() ([]messages.Flags, [][]int64) {
	var order []messages.Flags
	var sizes []int
	at := func(f messages.Flags) int {
		for i := len(order) - 1; i >= 0; i-- {
			if order[i] == f {
				return i
			}
		}
		order, sizes = append(order, f), append(sizes, 0)
		return len(order) - 1
	}
	d.walk(func(_ users.ID, f messages.Flags) {
		i := at(f)
		sizes[i]++
	})
	lists := make([][]int64, len(order))
	for i, n := range sizes {
		lists[i] = make([]int64, 0, n)
	}
	d.walk(func(u users.ID, f messages.Flags) {
		i := at(f)
		lists[i] = append(lists[i], int64(u))
	})
	return order, lists
}
