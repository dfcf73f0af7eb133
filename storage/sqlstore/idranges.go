package sqlstore

import (
	"slices"

	"github.com/teamchat/chat/messages"
)

// A list of message ids sent as one parameter (idSet) costs SQLite a temporary index built id
// by id before a row is read (about 2 µs an id), and PostgreSQL a probe per id. A list whose
// ids lie close together (a page of messages, an export's batch, a single id) is read instead
// as the range from its lowest id to its highest, and the rows of the messages in the range
// but not in the list are dropped in Go (listedOnly).

// denseSpan is how many ids per listed id a range may span and still be read as a range.
const denseSpan = 4

// denseRange returns the lowest and highest id of list (not empty) and whether to read them
// as that range.
func denseRange(list []messages.ID) (lo, hi messages.ID, dense bool) {
	lo, hi = slices.Min(list), slices.Max(list)
	return lo, hi, int64(hi-lo) < denseSpan*int64(len(list))
}

// listedOnly drops, in place, the rows of out whose message (id) is not in list.
func listedOnly[T any](out []T, list []messages.ID, id func(*T) messages.ID) []T {
	if len(out) == 0 {
		return out
	}
	sorted := slices.Sorted(slices.Values(list))
	kept := out[:0]
	for i := range out {
		if _, found := slices.BinarySearch(sorted, id(&out[i])); found {
			kept = append(kept, out[i])
		}
	}
	clear(out[len(kept):])
	return kept
}
