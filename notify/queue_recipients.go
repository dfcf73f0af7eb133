package notify

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// recipientSet is a message's recipients and their flags as a send decides them: every
// recipient has a row with no flags except those of flagged (conversations' delivery), so
// that a channel of ten thousand costs the notifications a lookup per candidate, not a row
// per recipient.
type recipientSet struct {
	recipients []users.ID // in the send's order
	sorted     []users.ID // ascending (recipients itself when it is)
	flags      map[users.ID]messages.Flags
}

func newRecipientSet(recipients []users.ID, flagged []messages.UserMessage) recipientSet {
	rs := recipientSet{recipients: recipients, sorted: recipients, flags: make(map[users.ID]messages.Flags, len(flagged))}
	if !slices.IsSorted(recipients) {
		rs.sorted = slices.Sorted(slices.Values(recipients))
	}
	for _, r := range flagged {
		rs.flags[r.UserID] = r.Flags
	}
	return rs
}

// flagsOf returns u's flags and whether u is a recipient.
func (rs recipientSet) flagsOf(u users.ID) (messages.Flags, bool) {
	if f, ok := rs.flags[u]; ok {
		return f, true
	}
	_, ok := slices.BinarySearch(rs.sorted, u)
	return 0, ok
}

// rowsOf are the rows that could make an email for m, in the send's order: for a direct
// message every recipient's; for a channel message those with flags and those of the given
// followers of its topic and users with its channel's emails on (every other row is unread
// without flags and triggers nothing).
func (rs recipientSet) rowsOf(m messages.Message, followers []users.ID, channelEmail map[users.ID]bool) []messages.UserMessage {
	var out []messages.UserMessage
	if m.IsDirect() {
		for _, u := range rs.recipients {
			out = append(out, messages.UserMessage{UserID: u, Flags: rs.flags[u]})
		}
		return out
	}
	want := map[users.ID]bool{}
	for u := range rs.flags {
		want[u] = true
	}
	for _, u := range followers {
		want[u] = true
	}
	for u := range channelEmail {
		want[u] = true
	}
	for u := range want {
		if f, ok := rs.flagsOf(u); ok {
			out = append(out, messages.UserMessage{UserID: u, Flags: f})
		}
	}
	if len(rs.sorted) > 0 && &rs.sorted[0] == &rs.recipients[0] { // ascending: the send's order
		slices.SortFunc(out, func(a, b messages.UserMessage) int { return cmp.Compare(a.UserID, b.UserID) })
		return out
	}
	at := make(map[users.ID]int, len(rs.recipients))
	for i, u := range rs.recipients {
		at[u] = i
	}
	slices.SortFunc(out, func(a, b messages.UserMessage) int { return at[a.UserID] - at[b.UserID] })
	return out
}
