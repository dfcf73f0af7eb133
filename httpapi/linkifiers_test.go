package httpapi_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLinkifiersHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const iago, hamlet = "iago@zulip.com", "hamlet@zulip.com"
	status, _, body := s.call(t, http.MethodPost, "/api/v1/realm/filters", iago, url.Values{
		"pattern": {"#(?P<id>[0-9]+)"}, "url_template": {"https://github.com/zulip/zulip/issues/{id}"},
		"example_input": {"#12"}, "reverse_template": {"#{id}"}, "alternative_url_templates": {`["https://github.com/zulip/zulip/pull/{id}"]`},
	})
	id, ok := body["id"].(float64)
	if status != 200 || !ok {
		t.Fatalf("POST /realm/filters: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/filters", iago, url.Values{"pattern": {"T(?P<n>\\d+)"}, "url_template": {"https://t/{n}"}})
	id2, _ := body["id"].(float64)
	if status != 200 {
		t.Fatalf("second POST: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/realm/linkifiers", iago, url.Values{"ordered_linkifier_ids": {fmt.Sprintf("[%d,%d]", int(id2), int(id))}})
	if status != 200 {
		t.Fatalf("reorder: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, fmt.Sprintf("/api/v1/realm/filters/%d", int(id2)), iago, url.Values{
		"pattern": {"T(?P<n>\\d+)"}, "url_template": {"https://tickets/{n}"}, "example_input": {""},
	})
	if status != 200 {
		t.Fatalf("PATCH: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/realm/linkifiers", hamlet, nil)
	want := []any{
		map[string]any{"id": id2, "pattern": `T(?P<n>\d+)`, "url_template": "https://tickets/{n}", "example_input": nil, "reverse_template": nil, "alternative_url_templates": []any{}},
		map[string]any{"id": id, "pattern": "#(?P<id>[0-9]+)", "url_template": "https://github.com/zulip/zulip/issues/{id}", "example_input": "#12",
			"reverse_template": "#{id}", "alternative_url_templates": []any{"https://github.com/zulip/zulip/pull/{id}"}},
	}
	if diff := cmp.Diff(want, body["linkifiers"]); status != 200 || diff != "" {
		t.Fatalf("GET /realm/linkifiers: %d (-want +got):\n%s", status, diff)
	}

	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/filters", hamlet, url.Values{"pattern": {"x"}, "url_template": {"https://x"}})
	wantErr(t, status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/filters", iago, url.Values{"pattern": {"(foo"}, "url_template": {"https://x"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "Bad regular expression: missing closing ): (foo")
	if diff := cmp.Diff(map[string]any{"pattern": []any{"Bad regular expression: missing closing ): (foo"}}, body["errors"]); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/filters", iago, url.Values{"pattern": {"x"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'url_template' argument")
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/realm/linkifiers", iago, url.Values{"ordered_linkifier_ids": {"[1]"}})
	wantErr(t, status, body, 400, "BAD_REQUEST", "The ordered list must enumerate all existing linkifiers exactly once")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/realm/filters/999", iago, nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Linkifier not found.")
	status, _, body = s.call(t, http.MethodDelete, fmt.Sprintf("/api/v1/realm/filters/%d", int(id)), iago, nil)
	if status != 200 {
		t.Fatalf("DELETE: %d %v", status, body)
	}
	_, _, body = s.call(t, http.MethodGet, "/api/v1/realm/linkifiers", hamlet, nil)
	if l, _ := body["linkifiers"].([]any); len(l) != 1 {
		t.Errorf("after DELETE: %v", body)
	}
}

func TestCodePlaygroundsHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const iago, hamlet = "iago@zulip.com", "hamlet@zulip.com"
	for _, lang := range []string{"pygments_language", "highlighter_language"} {
		status, _, body := s.call(t, http.MethodPost, "/api/v1/realm/playgrounds", iago, url.Values{
			"name": {"Playground via " + lang}, lang: {"Python"}, "url_template": {"https://python.example.com?code={code}"},
		})
		if _, ok := body["id"].(float64); status != 200 || !ok {
			t.Fatalf("POST with %s: %d %v", lang, status, body)
		}
	}
	status, _, body := s.call(t, http.MethodPost, "/api/v1/realm/playgrounds", iago, url.Values{
		"name": {"x"}, "pygments_language": {"Go"}, "highlighter_language": {"Go"}, "url_template": {"https://x?{code}"},
	})
	wantErr(t, status, body, 400, "REQUEST_CONFUSING_VAR", "Can't decide between 'pygments_language' and 'highlighter_language' arguments")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/playgrounds", iago, url.Values{"name": {"x"}, "url_template": {"https://x?{code}"}})
	wantErr(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'pygments_language' argument")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/realm/playgrounds", hamlet, url.Values{"name": {"x"}, "pygments_language": {"Go"}, "url_template": {"https://x?{code}"}})
	wantErr(t, status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/realm/playgrounds/99", iago, nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid playground")
	status, _, body = s.call(t, http.MethodDelete, "/api/v1/realm/playgrounds/1", iago, nil)
	if status != 200 {
		t.Fatalf("DELETE: %d %v", status, body)
	}
}
