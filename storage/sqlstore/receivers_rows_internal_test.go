package sqlstore

import (
	"slices"
	"testing"

	"github.com/teamchat/chat/messages"
)

// TestParseIDs: the lists of ids the bulk reads of implicit rows aggregate come back
// ascending whatever the aggregate's order; a malformed list is an error, not a wrong id.
func TestParseIDs(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []messages.ID
	}{
		{"", nil},
		{"7", []messages.ID{7}},
		{"3,1,2", []messages.ID{1, 2, 3}},
		{"10,200,3000", []messages.ID{10, 200, 3000}},
	} {
		got, err := parseIDs(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("parseIDs(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{",", "1,", ",1", "1,,2", "1 ,2", "-1", "1234567890123456789"} {
		if got, err := parseIDs(bad); err == nil {
			t.Errorf("parseIDs(%q) = %v, want an error", bad, got)
		}
	}
}

// TestMergeRows: without drops the replaced ids, mergeRows and mergeByMessage interleave
// ascending lists by message id.
func TestMergeRows(t *testing.T) {
	read := without([]messages.ID{1, 4, 6, 9}, []messages.ID{0, 4, 5, 9, 12})
	if !slices.Equal(read, []messages.ID{1, 6}) {
		t.Fatalf("without = %v, want [1 6]", read)
	}
	rows := mergeRows(5, read, []messages.ID{2, 7, 8}, messages.FlagRead)
	want := []messages.UserMessage{{UserID: 5, MessageID: 1, Flags: messages.FlagRead}, {UserID: 5, MessageID: 2},
		{UserID: 5, MessageID: 6, Flags: messages.FlagRead}, {UserID: 5, MessageID: 7}, {UserID: 5, MessageID: 8}}
	if !slices.Equal(rows, want) {
		t.Fatalf("mergeRows = %v, want %v", rows, want)
	}
	explicit := []messages.UserMessage{{UserID: 5, MessageID: 3, Flags: messages.FlagStarred}, {UserID: 5, MessageID: 10}}
	all := mergeByMessage(explicit, rows)
	ids := make([]messages.ID, len(all))
	for i, r := range all {
		ids[i] = r.MessageID
	}
	if !slices.Equal(ids, []messages.ID{1, 2, 3, 6, 7, 8, 10}) {
		t.Fatalf("mergeByMessage = %v", all)
	}
}
