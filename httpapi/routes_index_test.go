package httpapi

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestMatchByFirstSegment holds match, which tries only the routes listed under a path's
// first segment (routesByFirst), to a match over every route in table order: the same route,
// path values and allowed methods for a path of every route and for paths of none.
func TestMatchByFirstSegment(t *testing.T) {
	t.Parallel()
	h := New(nil, Options{})
	every := func(method, path string) (*route, map[string]string, []string) {
		segments := strings.Split(strings.Trim(path, "/"), "/")
		var allowed []string
		for i := range h.routes {
			values, ok := matchParts(h.routeParts[i], segments)
			if !ok {
				continue
			}
			if h.routes[i].method == method {
				return &h.routes[i], values, nil
			}
			if !slices.Contains(allowed, h.routes[i].method) {
				allowed = append(allowed, h.routes[i].method)
			}
		}
		if len(allowed) > 0 {
			if slices.Contains(allowed, http.MethodGet) {
				allowed = append(allowed, http.MethodHead)
			}
			slices.Sort(allowed)
		}
		return nil, nil, allowed
	}
	paths := []string{"", "/", "nope", "users", "users/me", "users/12", "users/abc/subscriptions", "messages/abc",
		"streams/12/members", "user_uploads/1/a/b/c.txt", "a/b/c/d/e/f"}
	for _, parts := range h.routeParts {
		concrete := make([]string, len(parts))
		for i, p := range parts {
			switch {
			case strings.HasSuffix(p, "...}"):
				concrete[i] = "x/y"
			case strings.HasSuffix(p, "_id}"):
				concrete[i] = "12"
			case strings.HasPrefix(p, "{"):
				concrete[i] = "name"
			default:
				concrete[i] = p
			}
		}
		paths = append(paths, strings.Join(concrete, "/"))
	}
	methods := []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete, http.MethodOptions}
	for _, path := range paths {
		for _, m := range methods {
			gotRoute, gotValues, gotAllowed := h.match(m, path)
			wantRoute, wantValues, wantAllowed := every(m, path)
			if gotRoute != wantRoute || !maps.Equal(gotValues, wantValues) || !slices.Equal(gotAllowed, wantAllowed) {
				t.Errorf("%s %q: route %v %v allowed %v, want %v %v allowed %v", m, path,
					gotRoute != nil, gotValues, gotAllowed, wantRoute != nil, wantValues, wantAllowed)
			}
		}
	}
}
