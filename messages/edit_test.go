package messages

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolveChange(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		from, to, requested  string
		resolved, unresolved bool
	}{
		{"party", "✔ party", "✔ party", true, false},
		{"✔ party", "party", "party", false, true},
		{"party", "✔ lunch", "✔ lunch", false, false},
		{"✔ party", "lunch", "lunch", false, false},
		{"✔ party", "✔ party!", "✔ party!", false, false},
		{"✔ ✔ party", "party", "party", false, true},
	} {
		r, u := ResolveChange(c.from, c.to, c.requested)
		if r != c.resolved || u != c.unresolved {
			t.Errorf("ResolveChange(%q, %q) = %v, %v; want %v, %v", c.from, c.to, r, u, c.resolved, c.unresolved)
		}
	}
	for topic, want := range map[string]bool{"✔": true, "✔ general chat": true, "✔ party": false, "": false} {
		if got := IsUnresolvableTopic(topic); got != want {
			t.Errorf("IsUnresolvableTopic(%q) = %v", topic, got)
		}
	}
}

func TestPropagateModeAndHistory(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]PropagateMode{"": ChangeOne, "change_later": ChangeLater, "change_all": ChangeAll} {
		if got, ok := ParsePropagateMode(in); !ok || got != want {
			t.Errorf("ParsePropagateMode(%q) = %q, %v", in, got, ok)
		}
	}
	if _, ok := ParsePropagateMode("change_some"); ok {
		t.Error("change_some accepted")
	}
	content, topic := "old", "t"
	h := []EditHistoryEntry{
		{UserID: 1, Timestamp: 2, PrevContent: &content, PrevTopic: &topic, Topic: &topic},
		{UserID: 1, Timestamp: 1, PrevContent: &content},
	}
	want := []EditHistoryEntry{{UserID: 1, Timestamp: 2, PrevTopic: &topic, Topic: &topic}}
	if diff := cmp.Diff(want, VisibleHistory(h, EditHistoryMoves)); diff != "" {
		t.Errorf("moves (-want +got):\n%s", diff)
	}
	if VisibleHistory(h, EditHistoryNone) != nil || len(VisibleHistory(h, EditHistoryAll)) != 2 {
		t.Error("none or all policy wrong")
	}
}
