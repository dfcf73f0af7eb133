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
	// sortedHead says that recipients but the last ascend (a channel's subscribers, then the
	// sender when not one of them): a recipient is then found by binary search.
	sortedHead bool
	sorted     []users.ID // ascending, when not sortedHead
	flags      map[users.ID]messages.Flags
}

// newRecipientSet is the set of recipients with the given flagged rows; sortedHead says that
// the caller knows that recipients but the last ascend (else it is checked here).
func newRecipientSet(recipients []users.ID, sortedHead bool, flagged []messages.UserMessage) recipientSet {
	rs := recipientSet{recipients: recipients, flags: make(map[users.ID]messages.Flags, len(flagged))}
	n := len(recipients)
	rs.sortedHead = sortedHead || n <= 1 || slices.IsSorted(recipients[:n-1])
	if !rs.sortedHead {
		rs.sorted = slices.Sorted(slices.Values(recipients))
	}
	for _, r := range flagged {
		rs.flags[r.UserID] = r.Flags
	}
	return rs
}

// position returns u's position among the recipients when they ascend but for the last, or
// -1 when u is no recipient.
func (rs recipientSet) position(u users.ID) int {
	n := len(rs.recipients)
	if n > 0 && rs.recipients[n-1] == u {
		return n - 1
	}
	if i, ok := slices.BinarySearch(rs.recipients[:max(n-1, 0)], u); ok {
		return i
	}
	return -1
}

// flagsOf returns u's flags and whether u is a recipient.
func (rs recipientSet) flagsOf(u users.ID) (messages.Flags, bool) {
	if f, ok := rs.flags[u]; ok {
		return f, true
	}
	if rs.sortedHead {
		return 0, rs.position(u) >= 0
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
	if rs.sortedHead { // the send's order by binary search: nothing per recipient
		slices.SortFunc(out, func(a, b messages.UserMessage) int { return cmp.Compare(rs.position(a.UserID), rs.position(b.UserID)) })
		return out
	}
	at := make(map[users.ID]int, len(rs.recipients))
	for i, u := range rs.recipients {
		at[u] = i
	}
	slices.SortFunc(out, func(a, b messages.UserMessage) int { return at[a.UserID] - at[b.UserID] })
	return out
}
