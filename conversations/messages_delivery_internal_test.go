package conversations

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// TestDeliveryRows holds a delivery's views of its rows to the rows it stands for: every
// recipient's, the groups of the message events, and the rows a store of implicit rows is given.
func TestDeliveryRows(t *testing.T) {
	t.Parallel()
	const read, mentioned = messages.FlagRead, messages.FlagMentioned
	for _, tc := range []struct {
		name       string
		d          delivery
		sender     users.ID
		rows       []messages.UserMessage
		order      []messages.Flags
		groups     [][]int64
		storedRows []messages.UserMessage
	}{{
		name:   "the sender's row read, the rest without flags",
		d:      testDelivery([]users.ID{1, 2, 3}, []messages.UserMessage{{UserID: 2, Flags: read}}),
		sender: 2,
		rows:   []messages.UserMessage{{UserID: 1}, {UserID: 2, Flags: read}, {UserID: 3}},
		order:  []messages.Flags{0, read}, groups: [][]int64{{1, 3}, {2}},
		storedRows: []messages.UserMessage{{UserID: 2, Flags: read}},
	}, {
		name:   "a sender unread for themselves gets a row without flags",
		d:      testDelivery([]users.ID{4, 5}, []messages.UserMessage{{UserID: 5, Flags: mentioned}}),
		sender: 4,
		rows:   []messages.UserMessage{{UserID: 4}, {UserID: 5, Flags: mentioned}},
		order:  []messages.Flags{0, mentioned}, groups: [][]int64{{4}, {5}},
		storedRows: []messages.UserMessage{{UserID: 5, Flags: mentioned}, {UserID: 4}},
	}, {
		name:   "a sender who is no recipient (the notification bot) has no row",
		d:      testDelivery([]users.ID{7, 8}, nil),
		sender: 1,
		rows:   []messages.UserMessage{{UserID: 7}, {UserID: 8}},
		order:  []messages.Flags{0}, groups: [][]int64{{7, 8}},
	}, {
		name: "groups in the order their flags first appear",
		d: testDelivery([]users.ID{9, 3, 6, 1}, []messages.UserMessage{
			{UserID: 9, Flags: read}, {UserID: 6, Flags: mentioned}, {UserID: 1, Flags: read}}),
		sender: 9,
		rows:   []messages.UserMessage{{UserID: 9, Flags: read}, {UserID: 3}, {UserID: 6, Flags: mentioned}, {UserID: 1, Flags: read}},
		order:  []messages.Flags{read, 0, mentioned}, groups: [][]int64{{9, 1}, {3}, {6}},
		storedRows: []messages.UserMessage{{UserID: 9, Flags: read}, {UserID: 6, Flags: mentioned}, {UserID: 1, Flags: read}},
	}, {
		name:  "no recipient",
		d:     testDelivery(nil, nil),
		order: nil, groups: [][]int64{},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.rows, tc.d.rows(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			order, groups := tc.d.groups()
			if diff := cmp.Diff(tc.order, order, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("group order (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.groups, groups, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.storedRows, tc.d.storedRows(tc.sender), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("storedRows (-want +got):\n%s", diff)
			}
		})
	}
}

// testDelivery is the delivery to recipients with the given flagged rows (in their order).
func testDelivery(recipients []users.ID, flagged []messages.UserMessage) delivery {
	d := delivery{recipients: newRecipientIndex(recipients), flagged: flagged}
	for _, r := range flagged {
		d.at = append(d.at, slices.Index(recipients, r.UserID))
	}
	return d
}
