package httpapi

import (
	"testing"

	"github.com/teamchat/chat/messages"
)

func TestParseID(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want messages.ID
		ok   bool
	}{
		{"1", 1, true},
		{"0", 0, true},
		{"007", 7, true},
		{"999999999999999999", 999999999999999999, true}, // 18 digits
		{"1000000000000000000", 0, false},                // 19 digits
		{"", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1.5", 0, false},
		{"1e3", 0, false},
		{"hamlet@zulip.com", 0, false},
		{"١٢", 0, false}, // digits of another script
	}
	for _, tt := range tests {
		got, ok := parseID[messages.ID](tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseID(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
