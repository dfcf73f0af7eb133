package conversations

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestSortRowsByName holds sortRowsByName to the order of names, bytes past ASCII and zero
// bytes included, for a few rows and for many.
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
	w := world.OfUsers([]users.User{{ID: 1, IsActive: true}, {ID: 2}, {ID: 3, IsActive: true}})
	m := lastActive{w: w}
	for _, id := range []users.ID{1, 1, 2, 2, 1, 3, 4, 4, 3, 2} {
		if got, want := m.is(id), w.User(id).IsActive; got != want {
			t.Errorf("is(%d) = %v, want %v", id, got, want)
		}
	}
}

// TestFillChannelActivitySlots: records filled from one recordSlots point at values of their
// own (first_message_id, stream_weekly_traffic, creator_id), as records filled alone do.
func TestFillChannelActivitySlots(t *testing.T) {
	t.Parallel()
	const day = 86400
	now := int64(400 * day)
	chs := []channels.Channel{
		{ID: 1, CreatorID: 5, DateCreated: now - 100*day},
		{ID: 2, CreatorID: 6, DateCreated: now - 3*day}, // too young for a weekly traffic
		{ID: 3, DateCreated: now - 10*day},              // no creator
	}
	acts := []storage.ChannelActivity{
		{ChannelID: 1, FirstMessageID: 10, LastTimestamp: now - day, RecentCount: 40},
		{ChannelID: 2, FirstMessageID: 20, LastTimestamp: now - day, RecentCount: 3},
		{ChannelID: 3}, // no messages
	}
	w := world.OfUsers(nil)
	slots := newRecordSlots(len(chs))
	got := make([]ChannelRecord, len(chs))
	for i := range chs {
		fillChannelSettingsWith(w, &got[i], &chs[i], func(users.ID) bool { return true }, slots, i)
		fillChannelActivity(&got[i], &chs[i], acts[i], now, slots, i)
	}
	for i := range chs {
		var want ChannelRecord
		fillChannelSettingsWith(w, &want, &chs[i], func(users.ID) bool { return true }, nil, 0)
		want.FirstMessageID = firstMessageIDOf(acts[i])
		want.IsRecentlyActive = recentlyActiveAt(&chs[i], acts[i], now)
		want.StreamWeeklyTraffic = weeklyTrafficOf(&chs[i], acts[i].RecentCount, now)
		if !sameRecord(&got[i], &want) {
			t.Errorf("record %d: %+v, want %+v", i, got[i], want)
		}
	}
	if got[0].FirstMessageID == nil || *got[0].FirstMessageID != 10 || got[1].FirstMessageID == nil || *got[1].FirstMessageID != 20 {
		t.Errorf("first message ids share a slot: %v, %v", got[0].FirstMessageID, got[1].FirstMessageID)
	}
}

// weeklyTrafficOf is weeklyTraffic from c's message count over the traffic window, at now:
// the reference the records filled from slots are compared with.
func weeklyTrafficOf(c *channels.Channel, count int, now int64) *int {
	if !hasWeeklyTraffic(c, now) {
		return nil
	}
	v := weeklyTrafficValue(c, count, now)
	return &v
}
