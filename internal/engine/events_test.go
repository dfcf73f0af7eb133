package engine_test

import (
	"slices"
	"testing"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/users"
)

// TestSharedRecipients: the recipients of a list of users are the same ids in the same
// memory, not a copy (so a write to the list would show in them; nothing writes such lists),
// and nil for no users.
func TestSharedRecipients(t *testing.T) {
	t.Parallel()
	ids := []users.ID{3, 1, 1 << 40}
	got := engine.SharedRecipients(ids)
	if !slices.Equal(got, []int64{3, 1, 1 << 40}) {
		t.Fatalf("SharedRecipients = %v", got)
	}
	if &got[0] != (*int64)(&ids[0]) || cap(got) != len(ids) {
		t.Error("SharedRecipients copied the list")
	}
	if got := engine.SharedRecipients(nil); got != nil {
		t.Errorf("SharedRecipients(nil) = %v", got)
	}
}
