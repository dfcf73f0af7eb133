package notify

import (
	"testing"
	"time"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

func TestEncodeHash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"Adam Admin", "Adam.20Admin"},
		{"v1.2", "v1.2E2"},
		{"a/b?c", "a.2Fb.3Fc"},
		{"café", "caf.C3.A9"},
	} {
		if got := encodeHash(tc.in); got != tc.want {
			t.Errorf("encodeHash(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestConversationKey(t *testing.T) {
	t.Parallel()
	dm := func(ids ...users.ID) messages.Message { return messages.Message{Recipients: ids} }
	ch := func(topic string) messages.Message { return messages.Message{ChannelID: 1, Topic: topic} }
	for _, tc := range []struct {
		name string
		a, b messages.Message
		same bool
	}{
		{"direct, participants in any order", dm(3, 1), dm(1, 3), true},
		{"direct, other participants", dm(1, 3), dm(1, 4), false},
		{"topic, case-insensitively", ch("Lunch"), ch("lunch"), true},
		{"topics", ch("lunch"), ch("dinner"), false},
	} {
		if got := conversationKey(tc.a) == conversationKey(tc.b); got != tc.same {
			t.Errorf("%s: same = %v, want %v", tc.name, got, tc.same)
		}
	}
}

func TestWeekday(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		day  time.Time
		want int64
	}{
		{time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC), 0}, // a Monday
		{time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC), 5},
		{time.Date(2026, 11, 29, 1, 0, 0, 0, time.FixedZone("", 3*3600)), 5}, // Saturday in UTC
	} {
		if got := weekday(tc.day); got != tc.want {
			t.Errorf("weekday(%v) = %d, want %d", tc.day, got, tc.want)
		}
	}
}
