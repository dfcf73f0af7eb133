package emoji_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/teamchat/chat/emoji"
)

func TestIndex(t *testing.T) {
	t.Parallel()
	x := emoji.NewIndex()
	for _, tt := range []struct{ name, code, canonical string }{
		{"octopus", "1f419", "octopus"},
		{"tada", "1f389", "tada"},
		{"+1", "1f44d", "+1"},
		{"thumbs_up", "1f44d", "+1"}, // Zulip's names (emoji_names.py), not the datasource's
		{"smile", "263a", "smile"},
		{"relaxed", "263a", "smile"},
		{"big_smile", "1f604", "big_smile"},
		{"slight_smile", "1f642", "slight_smile"},
		{"melting_face", "1fae0", "melting_face"}, // not named by Zulip: the datasource's name
		{"heart", "2764", "heart"},                // U+FE0F dropped from the code, as Zulip does
		{"hash", "0023-20e3", "hash"},             // a keycap sequence
	} {
		code, ok := x.Code(tt.name)
		if !ok || code != tt.code {
			t.Errorf("Code(%q) = %q, %v; want %q", tt.name, code, ok, tt.code)
		}
		if got, _ := x.Name(code); got != tt.canonical {
			t.Errorf("Name(%q) = %q, want %q", code, got, tt.canonical)
		}
	}
	if _, ok := x.Code("thumbsup"); ok {
		t.Error(`"thumbsup" is the datasource's name, which Zulip replaces`)
	}
	if _, ok := x.Code("zulip"); ok {
		t.Error(`"zulip" is an extra emoji, not a unicode one`)
	}
	if _, ok := x.Name("1f3fb"); ok {
		t.Error("skin tone components are not emoji of their own")
	}
	if x.Len() < 1800 {
		t.Errorf("%d unicode emoji, want the whole table", x.Len())
	}
	m := x.CodeToNames()
	if len(m) != x.Len() || m["1f44d"][0] != "+1" {
		t.Errorf("CodeToNames: %d entries, 1f44d = %v", len(m), m["1f44d"])
	}
}

func TestCheckName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		want error
	}{
		{"green_tick", nil},
		{"a-1", nil},
		{"", emoji.ErrNameMissing},
		{"tick_", emoji.ErrNameEnd},
		{"Tick", emoji.ErrNameChars},
		{"tick!", emoji.ErrNameChars},
		{strings.Repeat("a", emoji.MaxNameLength+1), emoji.ErrNameTooLong},
	} {
		if got := emoji.CheckName(tt.name); !errors.Is(got, tt.want) {
			t.Errorf("CheckName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
