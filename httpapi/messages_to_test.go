package httpapi

import (
	"errors"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
)

func TestChannelTo(t *testing.T) {
	t.Parallel()
	id := func(n channels.ID) *channels.ID { return &n }
	tests := []struct {
		to      string
		id      *channels.ID
		name    string
		refused bool
	}{
		{"9", id(9), "", false},
		{" 9 ", id(9), "", false},
		{`"9"`, id(9), "", false},
		{"[9]", id(9), "", false},
		{`["9"]`, id(9), "", false},
		{"Verona", nil, "Verona", false},
		{`"Verona"`, nil, "Verona", false},
		{`["Verona"]`, nil, "Verona", false},
		{"core team", nil, "core team", false},
		{"123abc", nil, "123abc", false},
		{"[1.9]", nil, "", true},
		{"1.9", nil, "", true},
		{"1e3", nil, "", true},
		{"true", nil, "", true},
		{"null", nil, "", true},
		{"[null]", nil, "", true},
		{`[{"id": 9}]`, nil, "", true},
		{"[1, 2]", nil, "", true},
	}
	for _, tt := range tests {
		gotID, gotName, err := channelTo(tt.to)
		if tt.refused {
			var e *chat.Error
			if err == nil || !errors.As(err, &e) || e.Code != chat.CodeBadRequest {
				t.Errorf("channelTo(%q) = %v, %q, %v; want BAD_REQUEST", tt.to, gotID, gotName, err)
			}
			continue
		}
		if err != nil || (gotID == nil) != (tt.id == nil) || gotID != nil && *gotID != *tt.id || gotName != tt.name {
			t.Errorf("channelTo(%q) = %v, %q, %v; want %v, %q", tt.to, gotID, gotName, err, tt.id, tt.name)
		}
	}
}
