package users

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAlertWordMatcher(t *testing.T) {
	t.Parallel()
	m := NewAlertWordMatcher(map[ID][]string{
		1: {"Deploy", "on call"},
		2: {"deploy"},
		3: {"café"},
		4: {"x"},
	})
	tests := []struct {
		content string
		want    map[ID]bool
	}{
		{"we DEPLOY today", map[ID]bool{1: true, 2: true}},
		{"(deploy)", map[ID]bool{1: true, 2: true}},
		{"deploy!", map[ID]bool{1: true, 2: true}},
		{"redeploy now", map[ID]bool{}},
		{"deployment now", map[ID]bool{}},
		{"who is *on call*?", map[ID]bool{1: true}},
		{"on caller", map[ID]bool{}},
		{"un café, s'il vous plaît", map[ID]bool{3: true}},
		{"a-x", map[ID]bool{}},
		{"ax", map[ID]bool{4: true}}, // Zulip's check accepts a match at the second character
		{"foo deploy-bar deploy.", map[ID]bool{1: true, 2: true}},
		{"", map[ID]bool{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, m.Alerted(tt.content)); diff != "" {
			t.Errorf("Alerted(%q) (-want +got):\n%s", tt.content, diff)
		}
	}
}
