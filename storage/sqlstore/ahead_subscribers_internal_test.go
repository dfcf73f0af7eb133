package sqlstore

import (
	"encoding/hex"
	"slices"
	"testing"

	"github.com/teamchat/chat/users"
)

// TestDecodeIDs reads a subscriber list in the binary form PostgreSQL's array_send gives it
// (the bytes below are its output for ARRAY[7, 4294967298, 9223372036854775807]::int8[] and
// '{}'::int8[]); anything else, or an array with nulls, is an error.
func TestDecodeIDs(t *testing.T) {
	t.Parallel()
	parse := func(s string) []byte {
		t.Helper()
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	three := parse("000000010000000000000014" + "0000000300000001" +
		"00000008" + "0000000000000007" + "00000008" + "0000000100000002" + "00000008" + "7fffffffffffffff")
	got, err := decodeIDs(three)
	if err != nil {
		t.Fatal(err)
	}
	if want := []users.ID{7, 1<<32 + 2, 1<<63 - 1}; !slices.Equal(got, want) {
		t.Errorf("decodeIDs = %v, want %v", got, want)
	}
	if got, err := decodeIDs(parse("000000000000000000000014")); err != nil || got == nil || len(got) != 0 {
		t.Errorf("decodeIDs(empty array) = %#v, %v, want an empty list", got, err)
	}
	for name, b := range map[string][]byte{
		"nothing":        nil,
		"cut short":      three[:len(three)-1],
		"int4[]":         parse("000000000000000000000017"),
		"with nulls":     parse("000000010000000100000014" + "0000000100000001" + "ffffffff"),
		"two dimensions": parse("000000020000000000000014" + "0000000100000001" + "0000000100000001" + "00000008" + "0000000000000007"),
	} {
		if _, err := decodeIDs(b); err == nil {
			t.Errorf("decodeIDs(%s): no error", name)
		}
	}
}
