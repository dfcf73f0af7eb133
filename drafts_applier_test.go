package chat_test

import (
	"cmp"
	"context"
	"slices"
	"testing"

	chat "github.com/teamchat/chat"
)

// applyDrafts applies a drafts event to register's drafts (newest first).
func applyDrafts(t *testing.T, state, ev map[string]any) {
	t.Helper()
	if _, ok := state["drafts"]; !ok {
		return
	}
	l := list(state, "drafts")
	switch ev["op"] {
	case "add":
		for _, d := range list(ev, "drafts") {
			if findByID(l, "id", num(d.(map[string]any)["id"])) >= 0 {
				t.Fatalf("drafts add for a known draft: %v", ev)
			}
			l = append(l, d)
		}
	case "update":
		d := ev["draft"].(map[string]any)
		i := findByID(l, "id", num(d["id"]))
		if i < 0 {
			t.Fatalf("drafts update for an unknown draft: %v", ev)
		}
		l[i] = d
	case "remove":
		l = removeByID(l, "id", num(ev["draft_id"]))
	default:
		t.Fatalf("unknown drafts op in %v", ev)
	}
	slices.SortStableFunc(l, func(a, b any) int {
		x, y := a.(map[string]any), b.(map[string]any)
		return cmp.Or(cmp.Compare(num(y["timestamp"]), num(x["timestamp"])), cmp.Compare(num(y["id"]), num(x["id"])))
	})
	if l == nil {
		l = []any{}
	}
	state["drafts"] = l
}

// draftsConsistencyCases are the consistency cases of the drafts area.
func draftsConsistencyCases() []consistencyCase {
	seed := func(t *testing.T, f *fixture) {
		f.mustCreateDrafts(t, "member", draft("", []int64{}, "", "first", 10), draft("stream", []int64{1}, "t", "second", 20))
	}
	return []consistencyCase{
		{method: "CreateDrafts", name: "two drafts", setup: seed, run: func(t *testing.T, f *fixture) {
			f.mustCreateDrafts(t, "member", draft("private", []int64{int64(f.ids["admin"])}, "", "hi", 15), draft("", []int64{}, "", "new", -1))
		}},
		{method: "EditDraft", name: "moves in the order", setup: seed, run: func(t *testing.T, f *fixture) {
			ids := f.mustDrafts(t, "member")
			if _, err := f.svc.EditDraft(context.Background(), f.actor("member"), chat.EditDraftParams{DraftID: ids[0].ID, Draft: draft("", []int64{}, "", "edited", 30)}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "DeleteDraft", name: "oldest", setup: seed, run: func(t *testing.T, f *fixture) {
			ids := f.mustDrafts(t, "member")
			if _, err := f.svc.DeleteDraft(context.Background(), f.actor("member"), chat.DeleteDraftParams{DraftID: ids[0].ID}); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// goldenDrafts produces drafts add, update and remove events.
func goldenDrafts(t *testing.T, f *fixture) {
	ids := f.mustCreateDrafts(t, "member", draft("stream", []int64{3}, "lunch", "Where shall we go?", 1700000000))
	ctx := context.Background()
	if _, err := f.svc.EditDraft(ctx, f.actor("member"), chat.EditDraftParams{DraftID: ids[0], Draft: draft("private", []int64{int64(f.ids["admin"])}, "", "Lunch?", 1700000100)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.DeleteDraft(ctx, f.actor("member"), chat.DeleteDraftParams{DraftID: ids[0]}); err != nil {
		t.Fatal(err)
	}
}
