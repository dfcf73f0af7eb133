package conversations

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Readers says which recipients of a message have it read from the start: the users of ids,
// or, when where is set, those where says so of (a call per recipient).
type Readers struct {
	ids   []users.ID
	where func(users.ID) bool
}

// ReadBy has a message read for the given users (none: unread for every recipient).
func ReadBy(ids ...users.ID) Readers { return Readers{ids: ids} }

// ReadWhere has a message read for the recipients read says so of.
func ReadWhere(read func(users.ID) bool) Readers { return Readers{where: read} }

func (r Readers) has(u users.ID) bool {
	if r.where != nil {
		return r.where(u)
	}
	return slices.Contains(r.ids, u)
}

// delivery is a message's rows for its recipients without a row per recipient: every
// recipient has a row with no flags except those in flagged. A channel of ten thousand then
// costs a send its list of ids, not ten thousand rows (storage/receivers.go stores them so).
type delivery struct {
	// recipients are every recipient, in the order the send gave them. The list may be the
	// world's list of the channel's subscribers: it is never written.
	recipients recipientIndex
	// flagged are the rows with flags, in the order of recipients; at are their positions in
	// recipients.
	flagged []messages.UserMessage
	at      []int
}

// newDelivery decides m's rows for its recipients: read for read's users and for those who
// muted the sender (who are never notified of it), with the mentions of its content for
// everyone but the sender and the alert words it contains (decideFlags).
func newDelivery(w *world.World, tx storage.Tx, m messages.Message, mentions markdown.Mentions, recipients []users.ID, read Readers) (delivery, error) {
	index := newRecipientIndex(recipients)
	mutedBy, err := w.MutersOf(tx.MutedUsers(), m.SenderID)
	if err != nil {
		return delivery{recipients: index}, err
	}
	alerted, err := people.AlertedWhere(tx.AlertWords(), m.Content, func(u users.ID) bool { return index.find(u) >= 0 })
	if err != nil {
		return delivery{recipients: index}, err
	}
	return decideFlags(index, flagFacts{
		sender: m.SenderID, read: read, mutedBy: mutedBy, mentions: mentions, alerted: alerted,
		isMember: func(g users.GroupID, u users.ID) bool { return w.Membership().IsMember(g, u, false) },
		members:  func(g users.GroupID) []users.ID { return w.Membership().Members(g, false) },
	}), nil
}

// flagFacts are what decides the flags of a message's rows.
type flagFacts struct {
	sender   users.ID
	read     Readers
	mutedBy  []users.ID // who muted the sender
	mentions markdown.Mentions
	alerted  map[users.ID]bool
	// isMember and members answer about the mentioned groups, their subgroups included.
	isMember func(users.GroupID, users.ID) bool
	members  func(users.GroupID) []users.ID
}

// flagsOf are u's flags.
func (x flagFacts) flagsOf(u users.ID) messages.Flags {
	var f messages.Flags
	if x.read.has(u) || slices.Contains(x.mutedBy, u) {
		f |= messages.FlagRead
	}
	if u != x.sender {
		f |= mentionFlagsOf(x.mentions, u, x.isMember)
	}
	if x.alerted[u] {
		f |= messages.FlagHasAlertWord
	}
	return f
}

// candidates are the users who may have flags when x reads for a list of users and the
// message has no wildcard mention: the sender, the readers, the muters, the mentioned users
// and the members of the mentioned groups, and the alerted users; ascending.
func (x flagFacts) candidates() []users.ID {
	out := append([]users.ID{x.sender}, x.read.ids...)
	out = append(out, x.mutedBy...)
	for _, u := range x.mentions.UserIDs {
		out = append(out, users.ID(u))
	}
	for _, g := range x.mentions.GroupIDs {
		out = append(out, x.members(users.GroupID(g))...)
	}
	for u := range x.alerted {
		out = append(out, u)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// decideFlags decides the flags of every recipient. Unless x's readers or a wildcard mention
// ask about every recipient, or the recipients are in no order to search, it decides those of
// the few candidates (flagFacts.candidates) and nothing per recipient; decideEveryFlag is
// the same decision recipient by recipient.
func decideFlags(index recipientIndex, x flagFacts) delivery {
	if x.read.where != nil || x.mentions.StreamWildcard || x.mentions.TopicWildcard || !index.sortedHead {
		return decideEveryFlag(index, x)
	}
	d := delivery{recipients: index}
	type found struct {
		at int
		id users.ID
	}
	var among []found
	for _, id := range x.candidates() {
		if i := index.find(id); i >= 0 {
			among = append(among, found{i, id})
		}
	}
	slices.SortFunc(among, func(a, b found) int { return cmp.Compare(a.at, b.at) })
	for _, c := range among {
		d.note(c.at, c.id, x.flagsOf(c.id))
	}
	return d
}

// decideEveryFlag decides the flags of each recipient in turn.
func decideEveryFlag(index recipientIndex, x flagFacts) delivery {
	d := delivery{recipients: index}
	for i, id := range index.ids {
		d.note(i, id, x.flagsOf(id))
	}
	return d
}

// note records the flags f of the recipient at position i, when there are any.
func (d *delivery) note(i int, id users.ID, f messages.Flags) {
	if f != 0 {
		d.flagged = append(d.flagged, messages.UserMessage{UserID: id, Flags: f})
		d.at = append(d.at, i)
	}
}

// recipientIndex is a message's recipients, found by binary search when they ascend but for
// the last one (a channel's subscribers, and the sender when not one of them).
type recipientIndex struct {
	ids []users.ID
	// sortedHead says that ids but the last ascend without repeats.
	sortedHead bool
}

func newRecipientIndex(ids []users.ID) recipientIndex {
	head := true
	for i := 1; i < len(ids)-1; i++ {
		if ids[i-1] >= ids[i] {
			head = false
			break
		}
	}
	return recipientIndex{ids: ids, sortedHead: head}
}

// ascending says that every recipient is in ascending order, without repeats.
func (x recipientIndex) ascending() bool {
	n := len(x.ids)
	return x.sortedHead && (n < 2 || x.ids[n-2] < x.ids[n-1])
}

// find returns u's position among the recipients, or -1.
func (x recipientIndex) find(u users.ID) int {
	n := len(x.ids)
	if !x.sortedHead || n <= 8 {
		return slices.Index(x.ids, u)
	}
	if x.ids[n-1] == u {
		return n - 1
	}
	if i, ok := slices.BinarySearch(x.ids[:n-1], u); ok {
		return i
	}
	return -1
}

// walk calls fn with each recipient and their flags, in order.
func (d delivery) walk(fn func(u users.ID, f messages.Flags)) {
	next := 0
	for i, u := range d.recipients.ids {
		var f messages.Flags
		if next < len(d.flagged) && d.at[next] == i {
			f = d.flagged[next].Flags
			next++
		}
		fn(u, f)
	}
}

// rows are every recipient's row, in order.
func (d delivery) rows() []messages.UserMessage {
	out := make([]messages.UserMessage, 0, len(d.recipients.ids))
	d.walk(func(u users.ID, f messages.Flags) { out = append(out, messages.UserMessage{UserID: u, Flags: f}) })
	return out
}

// storedRows are the rows a store keeping implicit rows needs: the flagged ones, and the
// sender's when they are a recipient (who may not receive the channel).
func (d delivery) storedRows(sender users.ID) []messages.UserMessage {
	out := slices.Clone(d.flagged)
	if !slices.ContainsFunc(out, func(r messages.UserMessage) bool { return r.UserID == sender }) && d.recipients.find(sender) >= 0 {
		out = append(out, messages.UserMessage{UserID: sender})
	}
	return out
}

// groups groups the recipients by their flags: the distinct flags in the order they first
// appear, and the users of each. The recipients without flags are the recipients' own list
// when nobody has flags (shared, not copied), else a copy without the flagged ones.
func (d delivery) groups() ([]messages.Flags, [][]int64) {
	type first struct {
		at int
		f  messages.Flags
	}
	var firsts []first
	plain := 0 // the first recipient without flags
	for _, at := range d.at {
		if at != plain {
			break
		}
		plain++
	}
	if plain < len(d.recipients.ids) {
		firsts = append(firsts, first{plain, 0})
	}
	for i, r := range d.flagged {
		if !slices.ContainsFunc(firsts, func(x first) bool { return x.f == r.Flags }) {
			firsts = append(firsts, first{d.at[i], r.Flags})
		}
	}
	slices.SortFunc(firsts, func(a, b first) int { return cmp.Compare(a.at, b.at) })
	order := make([]messages.Flags, len(firsts))
	lists := make([][]int64, len(firsts))
	for i, x := range firsts {
		order[i] = x.f
		if x.f == 0 {
			lists[i] = d.unflagged()
			continue
		}
		for _, r := range d.flagged {
			if r.Flags == x.f {
				lists[i] = append(lists[i], int64(r.UserID))
			}
		}
	}
	return order, lists
}

// unflagged lists the recipients without flags, in order.
func (d delivery) unflagged() []int64 {
	if len(d.flagged) == 0 {
		return engine.SharedRecipients(d.recipients.ids)
	}
	out := make([]int64, 0, len(d.recipients.ids)-len(d.flagged))
	from := 0
	for _, at := range d.at {
		for _, u := range d.recipients.ids[from:at] {
			out = append(out, int64(u))
		}
		from = at + 1
	}
	for _, u := range d.recipients.ids[from:] {
		out = append(out, int64(u))
	}
	return out
}
