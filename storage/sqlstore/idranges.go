package sqlstore

import (
	"slices"

	"github.com/teamchat/chat/messages"
)

// A list of message ids sent as one parameter (idSet) costs SQLite a temporary index built id
// by id before a row is read (about 2 µs an id), and PostgreSQL a probe per id. A list whose
// ids lie close together (a page of messages, an export's batch, a single id) is read instead
// as the range from its lowest id to its highest, and the rows of the messages in the range
// but not in the list are dropped in Go (onlyListed).

// denseSpan is how many ids per listed id a range may span and still be read as a range.
const denseSpan = 4

// listed is the condition on an id column (to follow it) that it holds an id of list, with
// its parameters: IN a set, or BETWEEN the lowest and highest id when the ids lie close
// together (dense; onlyListed then drops the others' rows).
func (a messageTx) listed(list []messages.ID) (string, []any, bool) {
	lo, hi := slices.Min(list), slices.Max(list)
	if int64(hi-lo) < denseSpan*int64(len(list)) {
		return "BETWEEN ? AND ?", []any{lo, hi}, true
	}
	return "IN (" + a.t.d.idSet + ")", []any{ids(a.t.d, list)}, false
}

// onlyListed returns the rows read with a listed condition: when it was a range (dense),
// without those whose message (id) is not in list, in place.
func onlyListed[T any](out []T, err error, list []messages.ID, dense bool, id func(*T) messages.ID) ([]T, error) {
	if err != nil || !dense || len(out) == 0 {
		return out, err
	}
	sorted := slices.Sorted(slices.Values(list))
	kept := out[:0]
	for i := range out {
		if _, found := slices.BinarySearch(sorted, id(&out[i])); found {
			kept = append(kept, out[i])
		}
	}
	clear(out[len(kept):])
	return kept, nil
}
