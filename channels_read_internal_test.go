package chat

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestSortRowsByName holds both of sortRowsByName's ways (insertion for a few rows,
// slices.SortFunc past 32) to the order of names.
func TestSortRowsByName(t *testing.T) {
	t.Parallel()
	rows := func(names ...string) []activeRow {
		out := make([]activeRow, len(names))
		for i, n := range names {
			out[i] = activeRow{c: &channels.Channel{ID: channels.ID(i + 1), Name: n}, row: i}
		}
		return out
	}
	many := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprintf("channel %d", (i*7)%40)
	}
	for _, tc := range []struct {
		name string
		rows []activeRow
	}{
		{"none", nil},
		{"one", rows("a")},
		{"sorted", rows("a", "b", "c")},
		{"reversed", rows("c", "b", "a")},
		{"by id, not by name", rows("channel 0", "channel 1", "channel 10", "channel 2", "Channel 3", "channel 11")},
		{"more than 32", rows(many...)},
		{"shared prefix, keys tie", rows("general chat 2", "general chat 10", "general chat 1", "general chatter", "general chat")},
		{"long names tie on their key", rows("abcdefghij2", "abcdefghij1", "abcdefghi", "xabcdefghij1", "xabcdefghij0")},
		{"padding against a zero byte", rows("a\x00", "a", "a\x00\x00", "a\x01", "")},
		{"bytes past ASCII", rows("é", "e", "z", "ü", "\xff", "\x80")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Clone(tc.rows)
			sortRowsByName(got)
			want := slices.Clone(tc.rows)
			slices.SortFunc(want, func(a, b activeRow) int { return strings.Compare(a.c.Name, b.c.Name) })
			same := func(a, b activeRow) bool { return a.c == b.c && a.row == b.row }
			if !slices.EqualFunc(got, want, same) {
				t.Errorf("sorted %v, want %v", got, want)
			}
		})
	}
}

// TestChannelFactsActivity looks channels up in an activity list (ascending by channel):
// present ones give their entry, absent ones a zero entry with their id.
func TestChannelFactsActivity(t *testing.T) {
	t.Parallel()
	f := channelFacts{acts: []storage.ChannelActivity{
		{ChannelID: 2, FirstMessageID: 20}, {ChannelID: 5, FirstMessageID: 50}, {ChannelID: 9, RecentCount: 3},
	}}
	for _, tc := range []struct {
		id   channels.ID
		want storage.ChannelActivity
	}{
		{1, storage.ChannelActivity{ChannelID: 1}},
		{2, storage.ChannelActivity{ChannelID: 2, FirstMessageID: 20}},
		{5, storage.ChannelActivity{ChannelID: 5, FirstMessageID: 50}},
		{7, storage.ChannelActivity{ChannelID: 7}},
		{9, storage.ChannelActivity{ChannelID: 9, RecentCount: 3}},
		{10, storage.ChannelActivity{ChannelID: 10}},
	} {
		if got := f.activity(tc.id); got != tc.want {
			t.Errorf("activity(%d) = %+v, want %+v", tc.id, got, tc.want)
		}
	}
	if got := (channelFacts{}).activity(3); got != (storage.ChannelActivity{ChannelID: 3}) {
		t.Errorf("nothing read: %+v", got)
	}
}

// TestLastActive: lastActive answers as the world's users do, whatever the order and
// repetition of the ids asked.
func TestLastActive(t *testing.T) {
	t.Parallel()
	w := &world{users: userCache{allRead: true, all: []users.User{{ID: 1, IsActive: true}, {ID: 2}, {ID: 3, IsActive: true}}}}
	m := lastActive{w: w}
	for _, id := range []users.ID{1, 1, 2, 2, 1, 3, 4, 4, 3, 2} {
		if got, want := m.is(id), w.user(id).IsActive; got != want {
			t.Errorf("is(%d) = %v, want %v", id, got, want)
		}
	}
}
