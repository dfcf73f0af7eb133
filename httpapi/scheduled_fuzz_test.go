package httpapi

import (
	"testing"
)

// FuzzScheduledTo decodes fuzzed "to" values of scheduled messages: nothing panics, and at
// most one reading (a channel id, user ids, or a list that is not ids) comes out.
func FuzzScheduledTo(f *testing.F) {
	for _, s := range []string{"14", " 14 ", "[1,2,3]", "[]", `["a"]`, "[1.5]", "[1]x", `"14"`, "null", "[9223372036854775808]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		to := scheduledTo(raw)
		n := 0
		if to.ChannelID != nil {
			n++
		}
		if to.UserIDs != nil {
			n++
		}
		if to.NotIDs {
			n++
		}
		if n > 1 {
			t.Fatalf("scheduledTo(%q) = %+v: more than one reading", raw, to)
		}
	})
}
