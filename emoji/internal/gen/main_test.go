package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseNameMaps(t *testing.T) {
	t.Parallel()
	src := `EMOJI_NAME_MAPS = {
    # seems like best emoji for happy
    '1f600': {'canonical_name': 'grinning', 'aliases': ['happy']},
    # '1f316': {'canonical_name': 'X', 'aliases': ['waning_crescent_moon']},
    "1f44d": {"canonical_name": "+1", "aliases": ["thumbs_up"]},
    '0030-20e3': {'canonical_name': 'zero', 'aliases': []},
}`
	got, err := parseNameMaps(src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"1f600": {"grinning", "happy"}, "1f44d": {"+1", "thumbs_up"}, "0030-20e3": {"zero"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		"no entries at all",
		"'1f600': {'canonical_name': 'a', 'aliases': []},\n'1f600': {'canonical_name': 'b', 'aliases': []},",
		"'1f600': {'canonical_name': 'a', 'aliases': []},\n'1f601': {'canonical_name': 'b', 'aliases': ['a']},",
	} {
		if _, err := parseNameMaps(bad); err == nil {
			t.Errorf("parseNameMaps(%q) succeeded", bad)
		}
	}
}
