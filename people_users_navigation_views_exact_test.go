package chat_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/drafts"
)

// worst4 is n varied 4-byte characters, which compress badly (the worst case for an index).
func worst4(n int) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteRune(rune(0x10000 + i*7919%0xFFFF))
	}
	return sb.String()
}

// Zulip only strips a navigation view's name: a name past 60 characters is kept, on every
// backend, up to the size bound; a fragment and a name at their bounds are stored too.
func TestNavigationViewLongName(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("n", 61)
	longest := worst4(drafts.MaxNavigationViewNameLength)
	fragment := worst4(drafts.MaxFragmentLength)
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "narrow/is/alerted", IsPinned: true, Name: ptr(" " + long + " ")})
		f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: fragment, IsPinned: true, Name: ptr("short")})
		if _, err := f.svc.EditNavigationView(ctx, f.actor("member"), chat.EditNavigationViewParams{Fragment: fragment, Name: ptr(longest)}); err != nil {
			t.Fatalf("EditNavigationView with a %d-character name: %v", drafts.MaxNavigationViewNameLength, err)
		}
		want := []chat.NavigationViewRecord{
			{Fragment: "narrow/is/alerted", IsPinned: true, Name: &long},
			{Fragment: fragment, IsPinned: true, Name: &longest},
		}
		if diff := cmp.Diff(want, f.mustViews(t, "member")); diff != "" {
			t.Fatalf("views (-want +got):\n%s", diff)
		}
		_, err := f.svc.EditNavigationView(ctx, f.actor("member"), chat.EditNavigationViewParams{Fragment: fragment, Name: ptr(longest + "x")})
		wantError(t, err, chat.CodeBadRequest, 400, "name is too long (limit: 600 characters)")
		_, err = f.svc.AddNavigationView(ctx, f.actor("member"), chat.AddNavigationViewParams{Fragment: fragment + "x", Name: ptr("other")})
		wantError(t, err, chat.CodeBadRequest, 400, "fragment is too long (limit: 600 characters)")
		if diff := cmp.Diff(want, f.mustViews(t, "member")); diff != "" {
			t.Fatalf("a refused request changed the views (-want +got):\n%s", diff)
		}
	})
}
