package chat_test

import (
	"cmp"
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
		ch := f.draftsChannel(t, "drafting", false)
		f.mustCreateDrafts(t, "member", draft("", []int64{}, "", "first", 10), draft("stream", []int64{ch}, "t", "second", 20))
	}
	return []consistencyCase{
		{method: "CreateDrafts", name: "two drafts", setup: seed, run: func(t *testing.T, f *fixture) {
			f.mustCreateDrafts(t, "member", draft("private", []int64{int64(f.ids["admin"])}, "", "hi", 15), draft("", []int64{}, "", "new", -1))
		}},
		{method: "EditDraft", name: "moves in the order", setup: seed, run: func(t *testing.T, f *fixture) {
			ids := f.mustDrafts(t, "member")
			if _, err := f.svc.EditDraft(t.Context(), f.actor("member"), chat.EditDraftParams{DraftID: ids[0].ID, Draft: draft("", []int64{}, "", "edited", 30)}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "DeleteDraft", name: "oldest", setup: seed, run: func(t *testing.T, f *fixture) {
			ids := f.mustDrafts(t, "member")
			if _, err := f.svc.DeleteDraft(t.Context(), f.actor("member"), chat.DeleteDraftParams{DraftID: ids[0].ID}); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// goldenDrafts produces drafts add, update and remove events.
func goldenDrafts(t *testing.T, f *fixture) {
	ids := f.mustCreateDrafts(t, "member", draft("", []int64{}, "", "Where shall we go?", 1700000000))
	ctx := t.Context()
	if _, err := f.svc.EditDraft(ctx, f.actor("member"), chat.EditDraftParams{DraftID: ids[0], Draft: draft("private", []int64{int64(f.ids["admin"])}, "", "Lunch?", 1700000100)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.DeleteDraft(ctx, f.actor("member"), chat.DeleteDraftParams{DraftID: ids[0]}); err != nil {
		t.Fatal(err)
	}
}

// applySavedSnippets applies a saved_snippets event to register's saved_snippets (ascending
// id).
func applySavedSnippets(t *testing.T, state, ev map[string]any) {
	t.Helper()
	if _, ok := state["saved_snippets"]; !ok {
		return
	}
	l := list(state, "saved_snippets")
	switch ev["op"] {
	case "add":
		l = append(l, ev["saved_snippet"])
	case "update":
		s := ev["saved_snippet"].(map[string]any)
		i := findByID(l, "id", num(s["id"]))
		if i < 0 {
			t.Fatalf("saved_snippets update for an unknown snippet: %v", ev)
		}
		l[i] = s
	case "remove":
		l = removeByID(l, "id", num(ev["saved_snippet_id"]))
	default:
		t.Fatalf("unknown saved_snippets op in %v", ev)
	}
	if l == nil {
		l = []any{}
	}
	state["saved_snippets"] = l
}

// applyNavigationView applies a navigation_view event to register's navigation_views.
func applyNavigationView(t *testing.T, state, ev map[string]any) {
	t.Helper()
	if _, ok := state["navigation_views"]; !ok {
		return
	}
	l := list(state, "navigation_views")
	i := slices.IndexFunc(l, func(o any) bool { return o.(map[string]any)["fragment"] == ev["fragment"] })
	switch ev["op"] {
	case "add":
		l = append(l, ev["navigation_view"])
	case "update":
		if i < 0 {
			t.Fatalf("navigation_view update for an unknown view: %v", ev)
		}
		v := clone(l[i].(map[string]any))
		for k, x := range ev["data"].(map[string]any) {
			v[k] = x
		}
		l[i] = v
	case "remove":
		if i < 0 {
			t.Fatalf("navigation_view remove for an unknown view: %v", ev)
		}
		l = slices.Delete(l, i, i+1)
	default:
		t.Fatalf("unknown navigation_view op in %v", ev)
	}
	if l == nil {
		l = []any{}
	}
	state["navigation_views"] = l
}

// snippetsAndViewsConsistencyCases are the consistency cases of saved snippets and
// navigation views.
func snippetsAndViewsConsistencyCases() []consistencyCase {
	seed := func(t *testing.T, f *fixture) {
		f.mustCreateSnippet(t, "member", "One", "first")
		f.mustCreateSnippet(t, "member", "Two", "second")
		f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "inbox", IsPinned: true})
		f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "narrow/is/alerted", IsPinned: false, Name: ptr("Alerts")})
	}
	return []consistencyCase{
		{method: "CreateSavedSnippet", name: "new", setup: seed, run: func(t *testing.T, f *fixture) {
			f.mustCreateSnippet(t, "member", "Three", "third")
		}},
		{method: "EditSavedSnippet", name: "title", setup: seed, run: func(t *testing.T, f *fixture) {
			id := f.mustSnippets(t, "member")[0].ID
			if _, err := f.svc.EditSavedSnippet(t.Context(), f.actor("member"), chat.EditSavedSnippetParams{SavedSnippetID: id, Title: ptr("Uno")}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "DeleteSavedSnippet", name: "first", setup: seed, run: func(t *testing.T, f *fixture) {
			id := f.mustSnippets(t, "member")[0].ID
			if _, err := f.svc.DeleteSavedSnippet(t.Context(), f.actor("member"), chat.DeleteSavedSnippetParams{SavedSnippetID: id}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "AddNavigationView", name: "custom", setup: seed, run: func(t *testing.T, f *fixture) {
			f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "narrow/is/unread", IsPinned: true, Name: ptr("Unread")})
		}},
		{method: "EditNavigationView", name: "pin and rename", setup: seed, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.EditNavigationView(t.Context(), f.actor("member"), chat.EditNavigationViewParams{Fragment: "narrow/is/alerted", IsPinned: ptr(true), Name: ptr("Watched")}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "RemoveNavigationView", name: "built-in", setup: seed, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.RemoveNavigationView(t.Context(), f.actor("member"), chat.RemoveNavigationViewParams{Fragment: "inbox"}); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// goldenSnippetsAndViews produces saved_snippets and navigation_view events of every op.
func goldenSnippetsAndViews(t *testing.T, f *fixture) {
	ctx := t.Context()
	id := f.mustCreateSnippet(t, "member", "Example", "Welcome to the organization.")
	if _, err := f.svc.EditSavedSnippet(ctx, f.actor("member"), chat.EditSavedSnippetParams{SavedSnippetID: id, Content: ptr("Welcome!")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.DeleteSavedSnippet(ctx, f.actor("member"), chat.DeleteSavedSnippetParams{SavedSnippetID: id}); err != nil {
		t.Fatal(err)
	}
	f.mustAddView(t, "member", chat.AddNavigationViewParams{Fragment: "narrow/is/alerted", IsPinned: true, Name: ptr("Alert Words")})
	if _, err := f.svc.EditNavigationView(ctx, f.actor("member"), chat.EditNavigationViewParams{Fragment: "narrow/is/alerted", IsPinned: ptr(false)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.RemoveNavigationView(ctx, f.actor("member"), chat.RemoveNavigationViewParams{Fragment: "narrow/is/alerted"}); err != nil {
		t.Fatal(err)
	}
}
