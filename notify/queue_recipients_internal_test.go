package notify

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// TestRecipientSetRows holds the rows a recipient set offers as candidates of a message's
// emails: every recipient's for a direct message; for a channel message the flagged ones and
// the followers' and channel-email users' who are recipients, in the send's order.
func TestRecipientSetRows(t *testing.T) {
	t.Parallel()
	const read, mentioned = messages.FlagRead, messages.FlagMentioned
	channel := messages.Message{ChannelID: channels.ID(3)}
	direct := messages.Message{Recipients: []users.ID{1, 2}}
	for _, tc := range []struct {
		name         string
		m            messages.Message
		recipients   []users.ID
		flagged      []messages.UserMessage
		followers    []users.ID
		channelEmail map[users.ID]bool
		want         []messages.UserMessage
	}{
		{"direct: every recipient", direct, []users.ID{2, 1}, []messages.UserMessage{{UserID: 1, Flags: read}}, nil, nil,
			[]messages.UserMessage{{UserID: 2}, {UserID: 1, Flags: read}}},
		{"channel: only rows that could notify", channel, []users.ID{1, 2, 3, 4, 5}, []messages.UserMessage{{UserID: 4, Flags: mentioned}},
			[]users.ID{5, 9}, map[users.ID]bool{2: true, 8: true}, []messages.UserMessage{{UserID: 2}, {UserID: 4, Flags: mentioned}, {UserID: 5}}},
		{"channel: the sender appended out of order", channel, []users.ID{2, 4, 6, 1}, []messages.UserMessage{{UserID: 1, Flags: read}},
			[]users.ID{6, 2}, nil, []messages.UserMessage{{UserID: 2}, {UserID: 6}, {UserID: 1, Flags: read}}},
		{"channel: nothing to notify", channel, []users.ID{1, 2}, nil, nil, nil, nil},
		{"channel: recipients in no order", channel, []users.ID{5, 2, 9, 1, 7}, []messages.UserMessage{{UserID: 9, Flags: mentioned}},
			[]users.ID{1, 2, 3}, nil, []messages.UserMessage{{UserID: 2}, {UserID: 9, Flags: mentioned}, {UserID: 1}}},
		{"channel: many ascending, the sender last", channel, []users.ID{2, 3, 5, 8, 13, 21, 34, 55, 89, 1}, []messages.UserMessage{{UserID: 1, Flags: read}},
			[]users.ID{89, 7, 3}, map[users.ID]bool{13: true, 4: true}, []messages.UserMessage{{UserID: 3}, {UserID: 13}, {UserID: 89}, {UserID: 1, Flags: read}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			n := len(tc.recipients)
			rs := newRecipientSet(tc.recipients, n > 0 && slices.IsSorted(tc.recipients[:n-1]), tc.flagged)
			if diff := cmp.Diff(tc.want, rs.rowsOf(tc.m, tc.followers, tc.channelEmail), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("rowsOf (-want +got):\n%s", diff)
			}
			for _, u := range []users.ID{1, 2, 7} {
				_, got := rs.flagsOf(u)
				want := false
				for _, r := range tc.recipients {
					want = want || r == u
				}
				if got != want {
					t.Errorf("flagsOf(%d) says recipient %v, want %v", u, got, want)
				}
			}
		})
	}
}
