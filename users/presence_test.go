package users

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestAddAndRemoveAlertWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		existing, add []string
		want          []string
	}{
		{"trims and drops empty words", nil, []string{"  foo ", "", "   ", "bar"}, []string{"foo", "bar"}},
		{"skips words present in another case", []string{"Foo"}, []string{"foo", "FOO", "baz"}, []string{"Foo", "baz"}},
		{"last spelling of a new word wins at its first place", nil, []string{"abc", "x", "ABC"}, []string{"ABC", "x"}},
		{"keeps the existing order", []string{"b", "a"}, []string{"c"}, []string{"b", "a", "c"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, AddAlertWords(tc.existing, tc.add)); diff != "" {
				t.Errorf("AddAlertWords (-want +got):\n%s", diff)
			}
		})
	}
	got := RemoveAlertWords([]string{"Foo", "bar", "Baz"}, []string{"foo", "BAZ", "absent"})
	if diff := cmp.Diff([]string{"bar"}, got); diff != "" {
		t.Errorf("RemoveAlertWords (-want +got):\n%s", diff)
	}
	if AlertWordTooLong(string(make([]rune, 100))) || !AlertWordTooLong(string(make([]rune, 101))) {
		t.Error("AlertWordTooLong does not draw the line at 100 characters")
	}
}

func TestPresenceReport(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	tests := []struct {
		name              string
		exists            bool
		old               Presence
		status            PresenceStatus
		now               time.Time
		want              Presence
		changed, announce bool
	}{
		{"first idle report", false, Presence{UserID: 1}, PresenceIdle, t0,
			Presence{UserID: 1, LastConnectedTime: t0}, true, true},
		{"first active report", false, Presence{UserID: 1}, PresenceActive, t0,
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: t0}, true, true},
		{"a second window reports within the minimum interval", true,
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: t0, LastUpdateID: 4}, PresenceActive, at(30 * time.Second),
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: t0, LastUpdateID: 4}, false, false},
		{"regular active report", true,
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: t0}, PresenceActive, at(time.Minute),
			Presence{UserID: 1, LastActiveTime: at(time.Minute), LastConnectedTime: at(time.Minute)}, true, false},
		{"idle report keeps the activity", true,
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: t0}, PresenceIdle, at(time.Minute),
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: at(time.Minute)}, true, false},
		{"active after the offline threshold comes online", true,
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: t0}, PresenceActive, at(131 * time.Second),
			Presence{UserID: 1, LastActiveTime: at(131 * time.Second), LastConnectedTime: at(131 * time.Second)}, true, true},
		{"idle after long absence is no announcement", true,
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: t0}, PresenceIdle, at(time.Hour),
			Presence{UserID: 1, LastActiveTime: t0, LastConnectedTime: at(time.Hour)}, true, false},
		{"never active before comes online", true,
			Presence{UserID: 1, LastConnectedTime: at(time.Minute)}, PresenceActive, at(90 * time.Second),
			Presence{UserID: 1, LastActiveTime: at(90 * time.Second), LastConnectedTime: at(90 * time.Second)}, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, changed, announce := tc.old.Report(tc.exists, tc.status, tc.now)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("presence (-want +got):\n%s", diff)
			}
			if changed != tc.changed || announce != tc.announce {
				t.Errorf("changed, announce = %v, %v; want %v, %v", changed, announce, tc.changed, tc.announce)
			}
		})
	}
}

func TestLegacyPresenceStatus(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if s, at := LegacyPresenceStatus(t0, t0.Add(70*time.Second)); s != "active" || !at.Equal(t0) {
		t.Errorf("within the offset: %s %v", s, at)
	}
	if s, at := LegacyPresenceStatus(t0, t0.Add(71*time.Second)); s != "idle" || !at.Equal(t0.Add(71*time.Second)) {
		t.Errorf("past the offset: %s %v", s, at)
	}
	joined := t0.Add(-time.Hour)
	a, c := Presence{LastConnectedTime: t0}.Times(joined)
	if !a.Equal(joined) || !c.Equal(t0) {
		t.Errorf("Times = %v %v", a, c)
	}
}
