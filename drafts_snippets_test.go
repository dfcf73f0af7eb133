package chat_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/drafts"
)

func (f *fixture) mustSnippets(t *testing.T, name string) []chat.SavedSnippetRecord {
	t.Helper()
	res, err := f.svc.GetSavedSnippets(t.Context(), f.actor(name), chat.GetSavedSnippetsParams{})
	if err != nil {
		t.Fatalf("GetSavedSnippets: %v", err)
	}
	return res.SavedSnippets
}

func (f *fixture) mustCreateSnippet(t *testing.T, name, title, content string) drafts.SnippetID {
	t.Helper()
	res, err := f.svc.CreateSavedSnippet(t.Context(), f.actor(name), chat.CreateSavedSnippetParams{Title: title, Content: content})
	if err != nil {
		t.Fatalf("CreateSavedSnippet: %v", err)
	}
	return res.SavedSnippetID
}

func TestSavedSnippetsLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "member")
	other := f.register(t, "admin")
	now := f.clock.Now().Unix()

	a := f.mustCreateSnippet(t, "member", "  Welcome ", "Welcome to the **organization**.\n")
	f.clock.Advance(60e9)
	b := f.mustCreateSnippet(t, "member", "Bye", "See you")
	want := []chat.SavedSnippetRecord{
		{ID: a, Title: "Welcome", Content: "Welcome to the **organization**.", DateCreated: now},
		{ID: b, Title: "Bye", Content: "See you", DateCreated: now + 60},
	}
	if diff := cmp.Diff(want, f.mustSnippets(t, "member")); diff != "" {
		t.Fatalf("GetSavedSnippets (-want +got):\n%s", diff)
	}
	if _, err := f.svc.EditSavedSnippet(ctx, f.actor("member"), chat.EditSavedSnippetParams{SavedSnippetID: a, Content: ptr("New text")}); err != nil {
		t.Fatal(err)
	}
	// Neither field: success, nothing changes, no event.
	if _, err := f.svc.EditSavedSnippet(ctx, f.actor("member"), chat.EditSavedSnippetParams{SavedSnippetID: a}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.DeleteSavedSnippet(ctx, f.actor("member"), chat.DeleteSavedSnippetParams{SavedSnippetID: b}); err != nil {
		t.Fatal(err)
	}
	wantEvents := []string{
		fmt.Sprintf(`{"type":"saved_snippets","op":"add","saved_snippet":{"id":%d,"title":"Welcome","content":"Welcome to the **organization**.","date_created":%d},"id":0}`, a, now),
		fmt.Sprintf(`{"type":"saved_snippets","op":"add","saved_snippet":{"id":%d,"title":"Bye","content":"See you","date_created":%d},"id":1}`, b, now+60),
		fmt.Sprintf(`{"type":"saved_snippets","op":"update","saved_snippet":{"id":%d,"title":"Welcome","content":"New text","date_created":%d},"id":2}`, a, now),
		fmt.Sprintf(`{"type":"saved_snippets","op":"remove","saved_snippet_id":%d,"id":3}`, b),
	}
	if diff := cmp.Diff(wantEvents, wireEvents(t, f.poll(t, "member", q, -1, true))); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if evs := f.poll(t, "admin", other, -1, true); len(evs) != 0 {
		t.Errorf("another user received snippet events: %v", wireEvents(t, evs))
	}
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"saved_snippets"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.DraftsState == nil || res.DraftsState.SavedSnippets == nil || res.DraftsState.Drafts != nil {
		t.Fatalf("register state = %+v", res.DraftsState)
	}
	want = []chat.SavedSnippetRecord{{ID: a, Title: "Welcome", Content: "New text", DateCreated: now}}
	if diff := cmp.Diff(want, *res.DraftsState.SavedSnippets); diff != "" {
		t.Errorf("register saved_snippets (-want +got):\n%s", diff)
	}
}

func TestSavedSnippetsRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	mine := f.mustCreateSnippet(t, "member", "Mine", "text")
	theirs := f.mustCreateSnippet(t, "admin", "Theirs", "text")
	q := f.register(t, "member")
	before := f.mustSnippets(t, "member")
	long := strings.Repeat("x", 61)
	tests := []struct {
		name   string
		call   func() error
		status int
		msg    string
	}{
		{"blank title", func() error {
			_, err := f.svc.CreateSavedSnippet(ctx, f.actor("member"), chat.CreateSavedSnippetParams{Title: " ", Content: "x"})
			return err
		}, 400, "title cannot be blank"},
		{"blank content", func() error {
			_, err := f.svc.CreateSavedSnippet(ctx, f.actor("member"), chat.CreateSavedSnippetParams{Title: "x", Content: "\n"})
			return err
		}, 400, "content cannot be blank"},
		{"long title", func() error {
			_, err := f.svc.CreateSavedSnippet(ctx, f.actor("member"), chat.CreateSavedSnippetParams{Title: long, Content: "x"})
			return err
		}, 400, "title is too long (limit: 60 characters)"},
		{"edit to a blank title", func() error {
			_, err := f.svc.EditSavedSnippet(ctx, f.actor("member"), chat.EditSavedSnippetParams{SavedSnippetID: mine, Title: ptr("")})
			return err
		}, 400, "title cannot be blank"},
		{"edit another user's", func() error {
			_, err := f.svc.EditSavedSnippet(ctx, f.actor("member"), chat.EditSavedSnippetParams{SavedSnippetID: theirs, Title: ptr("x")})
			return err
		}, 404, "Saved snippet does not exist."},
		{"delete another user's", func() error {
			_, err := f.svc.DeleteSavedSnippet(ctx, f.actor("member"), chat.DeleteSavedSnippetParams{SavedSnippetID: theirs})
			return err
		}, 404, "Saved snippet does not exist."},
		{"delete unknown", func() error {
			_, err := f.svc.DeleteSavedSnippet(ctx, f.actor("member"), chat.DeleteSavedSnippetParams{SavedSnippetID: 999})
			return err
		}, 404, "Saved snippet does not exist."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, tt.call(), chat.CodeBadRequest, tt.status, tt.msg)
			if diff := cmp.Diff(before, f.mustSnippets(t, "member")); diff != "" {
				t.Errorf("snippets changed (-before +after):\n%s", diff)
			}
			if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
				t.Errorf("events after a refusal: %v", wireEvents(t, evs))
			}
		})
	}
	if got := f.mustSnippets(t, "admin"); len(got) != 1 || got[0].Title != "Theirs" {
		t.Errorf("admin's snippets = %+v", got)
	}
	_, err := f.svc.GetSavedSnippets(ctx, chat.Actor{}, chat.GetSavedSnippetsParams{})
	wantError(t, err, chat.CodeUnauthorized, 401, "")
}
