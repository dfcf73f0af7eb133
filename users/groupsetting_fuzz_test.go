package users_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/teamchat/chat/users"
)

// FuzzGroupSetting feeds arbitrary JSON to the group-setting decoder. Whatever it accepts must
// be canonical (sorted, deduplicated lists; a positive group id) and survive a round trip
// through its own JSON form unchanged.
func FuzzGroupSetting(f *testing.F) {
	for _, seed := range []string{
		`11`, `0`, `-3`, `1.5`, `"7"`, `null`, `[]`, `{}`,
		`{"direct_members":[3,1,3],"direct_subgroups":[2]}`,
		`{"direct_members":[],"direct_subgroups":[]}`,
		`{"direct_members":[1]}`, `{"direct_members":[1],"direct_subgroups":[],"x":1}`,
		`{"direct_members":"1","direct_subgroups":[]}`, `9223372036854775807`, `1e3`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var s users.GroupSetting
		if err := json.Unmarshal([]byte(in), &s); err != nil {
			return
		}
		if s.IsNamed() {
			if s.Group <= 0 || len(s.Members) > 0 || len(s.Subgroups) > 0 {
				t.Fatalf("%q decoded to a mixed setting %+v", in, s)
			}
		} else if !slices.IsSorted(s.Members) || !slices.IsSorted(s.Subgroups) ||
			len(slices.Compact(slices.Clone(s.Members))) != len(s.Members) ||
			len(slices.Compact(slices.Clone(s.Subgroups))) != len(s.Subgroups) {
			t.Fatalf("%q decoded to non-canonical lists %+v", in, s)
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("%q: re-encoding %+v: %v", in, s, err)
		}
		var again users.GroupSetting
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("%q: own encoding %s refused: %v", in, out, err)
		}
		out2, _ := json.Marshal(again)
		if string(out) != string(out2) {
			t.Fatalf("round trip of %q: %s then %s", in, out, out2)
		}
	})
}
