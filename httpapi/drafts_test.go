package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDraftsHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet, iago = "hamlet@zulip.com", "iago@zulip.com"

	status, _, body := s.call(t, http.MethodPost, "/api/v1/channels/create", iago, url.Values{"name": {"lobby"}, "subscribers": {"[]"}})
	ch, ok := body["id"].(float64)
	if status != 200 || !ok {
		t.Fatalf("create channel: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/drafts", hamlet, url.Values{
		"drafts": {fmt.Sprintf(`[{"type":"stream","to":[%d],"topic":"t","content":"one","timestamp":1700000000},{"type":"","to":[],"topic":"","content":"two","timestamp":1700000001.5}]`, int(ch))},
	})
	if status != 200 || body["result"] != "success" {
		t.Fatalf("POST /drafts: %d %v", status, body)
	}
	ids, _ := body["ids"].([]any)
	if len(ids) != 2 {
		t.Fatalf("ids = %v", body["ids"])
	}
	id0, id1 := int(ids[0].(float64)), int(ids[1].(float64))

	status, _, body = s.call(t, http.MethodGet, "/api/v1/drafts", hamlet, nil)
	want := map[string]any{"result": "success", "msg": "", "count": 2.0, "drafts": []any{
		map[string]any{"id": float64(id0), "type": "stream", "to": []any{ch}, "topic": "t", "content": "one", "timestamp": 1700000000.0},
		map[string]any{"id": float64(id1), "type": "", "to": []any{}, "topic": "", "content": "two", "timestamp": 1700000001.0},
	}}
	if diff := cmp.Diff(want, body); status != 200 || diff != "" {
		t.Fatalf("GET /drafts: %d (-want +got):\n%s", status, diff)
	}

	status, _, body = s.call(t, http.MethodPatch, fmt.Sprintf("/api/v1/drafts/%d", id0), hamlet, url.Values{
		"draft": {`{"type":"","to":[],"topic":"","content":"edited"}`},
	})
	if status != 200 || body["result"] != "success" || len(body) != 2 {
		t.Fatalf("PATCH: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodDelete, fmt.Sprintf("/api/v1/drafts/%d", id1), hamlet, nil)
	if status != 200 || body["result"] != "success" {
		t.Fatalf("DELETE: %d %v", status, body)
	}

	for _, tt := range []struct {
		name, method, path, as string
		form                   url.Values
		status                 int
		code, msg              string
	}{
		{"id is not accepted", http.MethodPost, "/api/v1/drafts", hamlet,
			url.Values{"drafts": {`[{"id":1,"type":"","to":[],"topic":"","content":"x"}]`}}, 400, "BAD_REQUEST", `Argument "id" at drafts[0] is unexpected`},
		{"wrong type inside", http.MethodPost, "/api/v1/drafts", hamlet,
			url.Values{"drafts": {`[{"type":"","to":["a"],"topic":"","content":"x"}]`}}, 400, "BAD_REQUEST", `drafts[0]["to"][0] is not an integer`},
		{"missing drafts", http.MethodPost, "/api/v1/drafts", hamlet, nil, 400, "REQUEST_VARIABLE_MISSING", "Missing 'drafts' argument"},
		{"another user's draft", http.MethodPatch, fmt.Sprintf("/api/v1/drafts/%d", id0), iago,
			url.Values{"draft": {`{"type":"","to":[],"topic":"","content":"mine now"}`}}, 404, "BAD_REQUEST", "Draft does not exist"},
		{"unknown draft", http.MethodDelete, "/api/v1/drafts/999", hamlet, nil, 404, "BAD_REQUEST", "Draft does not exist"},
		{"no credentials", http.MethodGet, "/api/v1/drafts", "", nil, 401, "UNAUTHORIZED", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, _, body := s.call(t, tt.method, tt.path, tt.as, tt.form)
			wantErr(t, status, body, tt.status, tt.code, tt.msg)
		})
	}

	_, _, body = s.call(t, http.MethodGet, "/api/v1/drafts", hamlet, nil)
	want = map[string]any{"result": "success", "msg": "", "count": 1.0, "drafts": []any{
		map[string]any{"id": float64(id0), "type": "", "to": []any{}, "topic": "", "content": "edited", "timestamp": body["drafts"].([]any)[0].(map[string]any)["timestamp"]},
	}}
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("after the refusals (-want +got):\n%s", diff)
	}
}

func TestSavedSnippetsHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet = "hamlet@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/saved_snippets", hamlet, url.Values{"title": {"Hi"}, "content": {"Hello **there**"}})
	id, ok := body["saved_snippet_id"].(float64)
	if status != 200 || !ok {
		t.Fatalf("POST: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, fmt.Sprintf("/api/v1/saved_snippets/%d", int(id)), hamlet, url.Values{"title": {"Hey"}, "bogus": {"1"}})
	if status != 200 || fmt.Sprint(body["ignored_parameters_unsupported"]) != "[bogus]" {
		t.Fatalf("PATCH: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/saved_snippets", hamlet, nil)
	list, _ := body["saved_snippets"].([]any)
	if status != 200 || len(list) != 1 || list[0].(map[string]any)["title"] != "Hey" || list[0].(map[string]any)["content"] != "Hello **there**" {
		t.Fatalf("GET: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/saved_snippets", hamlet, url.Values{"title": {""}, "content": {"x"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "title cannot be blank")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/saved_snippets", hamlet, url.Values{"title": {"x"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/saved_snippets/77", hamlet, nil)
	wantErr(t, status, body, 404, "BAD_REQUEST", "Saved snippet does not exist.")
	status, _, body = s.call(t, http.MethodDelete, fmt.Sprintf("/api/v1/saved_snippets/%d", int(id)), hamlet, nil)
	if status != 200 || body["result"] != "success" {
		t.Fatalf("DELETE: %d %v", status, body)
	}
}

func TestNavigationViewsHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const hamlet = "hamlet@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/navigation_views", hamlet, url.Values{
		"fragment": {"narrow/is/alerted"}, "is_pinned": {"true"}, "name": {"Alert Words"},
	})
	if status != 200 || body["result"] != "success" {
		t.Fatalf("POST: %d %v", status, body)
	}
	// The fragment holds slashes: both the raw and the escaped path reach the view.
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/navigation_views/narrow/is/alerted", hamlet, url.Values{"is_pinned": {"false"}})
	if status != 200 || body["result"] != "success" {
		t.Fatalf("PATCH: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/navigation_views", hamlet, nil)
	want := []any{map[string]any{"fragment": "narrow/is/alerted", "is_pinned": false, "name": "Alert Words"}}
	if diff := cmp.Diff(want, body["navigation_views"]); status != 200 || diff != "" {
		t.Fatalf("GET: %d (-want +got):\n%s", status, diff)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/navigation_views", hamlet, url.Values{"fragment": {"inbox"}, "is_pinned": {"yes"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "is_pinned is not valid JSON")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/navigation_views", hamlet, url.Values{"fragment": {"inbox"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'is_pinned' argument")
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/navigation_views/recent", hamlet, url.Values{"is_pinned": {"true"}})
	wantErr(t, status, body, 404, "NOT_FOUND", "Navigation view does not exist.")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/navigation_views/narrow%2Fis%2Falerted", hamlet, nil)
	if status != 200 || body["result"] != "success" {
		t.Fatalf("DELETE escaped: %d %v", status, body)
	}
	_, _, body = s.call(t, http.MethodGet, "/api/v1/navigation_views", hamlet, nil)
	if l, _ := body["navigation_views"].([]any); len(l) != 0 {
		t.Errorf("after DELETE: %v", body)
	}
}
