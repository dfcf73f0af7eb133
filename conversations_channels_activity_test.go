package chat_test

import (
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
)

// channelRecordOf reads a channel as the admin sees it.
func channelRecordOf(t *testing.T, f *fixture, c channels.ID) chat.ChannelRecord {
	t.Helper()
	res, err := f.svc.GetStreamByID(t.Context(), f.actor("admin"), chat.GetStreamByIDParams{StreamID: c})
	if err != nil {
		t.Fatal(err)
	}
	return res.Stream
}

func TestChannelActivityFields(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	traffic := func(rec chat.ChannelRecord) any {
		if rec.StreamWeeklyTraffic == nil {
			return nil
		}
		return *rec.StreamWeeklyTraffic
	}
	f := newFixture(t)
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	if rec := channelRecordOf(t, f, c); !rec.IsRecentlyActive || rec.StreamWeeklyTraffic != nil {
		t.Fatalf("new channel: active %v, traffic %v", rec.IsRecentlyActive, traffic(rec))
	}
	for range 10 {
		mustSendToChannel(t, f, "member", c, "t", "x")
	}
	f.clock.Advance(8 * day) // 10 messages over 8 days: 10*7/8
	if rec := channelRecordOf(t, f, c); !rec.IsRecentlyActive || traffic(rec) != 8 {
		t.Errorf("8 days old: active %v, traffic %v, want true, 8", rec.IsRecentlyActive, traffic(rec))
	}
	f.clock.Advance(30 * day) // nothing in the last 28 days
	if rec := channelRecordOf(t, f, c); !rec.IsRecentlyActive || traffic(rec) != 0 {
		t.Errorf("38 days old: active %v, traffic %v, want true, 0", rec.IsRecentlyActive, traffic(rec))
	}
	for range 500 {
		mustSendToChannel(t, f, "member", c, "t", "x")
	}
	if rec := channelRecordOf(t, f, c); traffic(rec) != 0 {
		t.Errorf("traffic = %v, want 0: today's messages count from tomorrow", traffic(rec))
	}
	f.clock.Advance(day)
	if rec := channelRecordOf(t, f, c); traffic(rec) != 120 { // 500/4 = 125, two significant digits, half to even
		t.Errorf("traffic = %v, want 120", traffic(rec))
	}
	f.clock.Advance(181 * day)
	if rec := channelRecordOf(t, f, c); rec.IsRecentlyActive || traffic(rec) != 0 {
		t.Errorf("after 181 quiet days: active %v, traffic %v, want false, 0", rec.IsRecentlyActive, traffic(rec))
	}
	mustSendToChannel(t, f, "member", c, "t", "back")
	f.clock.Advance(day)
	if rec := channelRecordOf(t, f, c); !rec.IsRecentlyActive || traffic(rec) != 1 {
		t.Errorf("after a new message: active %v, traffic %v, want true, 1", rec.IsRecentlyActive, traffic(rec))
	}
}
