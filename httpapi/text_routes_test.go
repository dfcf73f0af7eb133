package httpapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
)

// The NUL walk sends, on every route of the routing table, a NUL byte in each path segment
// and in each parameter the route accepts, raw ("a\x00b") and, where the parameter is JSON,
// as the escape \u0000 inside a JSON string; the parameters are those of the route's
// operation in Zulip's OpenAPI description and of its authorization matrix row, whose valid
// values fill the other parameters so that the NUL would reach the store if nothing refused
// it. It runs on memory, SQLite and (with CHAT_TEST_POSTGRES_URL) PostgreSQL and fails on
// any 5xx and on any answer that differs between the backends.

// nulValue is the text sent in place of a parameter or path segment.
const nulValue = "a\x00b"

// nulCall is one request of the walk.
type nulCall struct {
	method, path string // path relative to the API prefix, escaped
	params       map[string]string
	setup        func(t *testing.T, m *matrixOrg)
}

// nulAnswer is what the walk compares between the backends: the status and, for an error,
// its code and message (a success's body holds what differs by nature, such as new keys).
type nulAnswer struct {
	Status    int
	Code, Msg string
}

func TestNullBytesOnEveryRoute(t *testing.T) {
	t.Parallel()
	calls := nulCalls(t)
	backends := map[string]func(t *testing.T) storage.Storage{
		"memory": func(*testing.T) storage.Storage { return memory.New() },
		"sqlite": func(t *testing.T) storage.Storage {
			return mustOpenSQL(t, "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
		},
	}
	if pgtest.Configured() {
		backends["postgres"] = func(t *testing.T) storage.Storage { return mustOpenSQL(t, pgtest.Schema(t)) }
	} else {
		t.Log("PostgreSQL not tried: " + pgtest.EnvVar + " is not set")
	}
	var mu sync.Mutex
	answers := map[string][]nulAnswer{}
	t.Run("backends", func(t *testing.T) {
		for name, open := range backends {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				got := walkNUL(t, open, calls)
				mu.Lock()
				answers[name] = got
				mu.Unlock()
			})
		}
	})
	if len(answers["memory"]) != len(calls) {
		t.Fatalf("memory answered %d of %d calls", len(answers["memory"]), len(calls))
	}
	for name, got := range answers {
		if name == "memory" {
			continue
		}
		for i, c := range calls {
			if i < len(got) && got[i] != answers["memory"][i] {
				t.Errorf("%s %s %q: %s answers %+v, memory %+v", c.method, c.path, c.params, name, got[i], answers["memory"][i])
			}
		}
		if diff := cmp.Diff(len(answers["memory"]), len(got)); diff != "" {
			t.Errorf("%s answered a different number of calls (-memory +%s):\n%s", name, name, diff)
		}
	}
}

// mustOpenSQL opens the SQL store at dsn, closed by the test's cleanup after the server.
func mustOpenSQL(t *testing.T, dsn string) storage.Storage {
	t.Helper()
	s, err := sqlstore.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// walkNUL makes every call as the owner and returns the answers in the calls' order; a 5xx
// fails the test. The calls of one matrix setup share an organization on a store of their
// own (open), where the setup ran first (setups expect a fresh organization), in a parallel
// subtest named after the setup; the calls without a setup share another ("no setup").
func walkNUL(t *testing.T, open func(t *testing.T) storage.Storage, calls []nulCall) []nulAnswer {
	t.Helper()
	groups := map[string][]int{} // setup's name -> indexes of its calls
	for i, c := range calls {
		name := "no setup"
		if c.setup != nil {
			name = runtime.FuncForPC(reflect.ValueOf(c.setup).Pointer()).Name()
			name = name[strings.LastIndex(name, ".")+1:]
		}
		groups[name] = append(groups[name], i)
	}
	out := make([]nulAnswer, len(calls))
	t.Run("organizations", func(t *testing.T) {
		for name, idx := range groups {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				m := newMatrixOrgOn(t, open(t), false)
				if setup := calls[idx[0]].setup; setup != nil {
					setup(t, m)
				}
				for _, i := range idx {
					out[i] = callNUL(t, m, calls[i])
				}
			})
		}
	})
	return out
}

// callNUL makes one call of the walk; a 5xx fails the test.
func callNUL(t *testing.T, m *matrixOrg, c nulCall) nulAnswer {
	t.Helper()
	status, body := m.call(t, "owner", c.method, c.path, c.params)
	if status >= 500 {
		t.Errorf("%s %s %q: %d %v", c.method, c.path, c.params, status, body)
	}
	a := nulAnswer{Status: status}
	if body["result"] != "success" {
		a.Code, _ = body["code"].(string)
		a.Msg, _ = body["msg"].(string)
	}
	return a
}

// nulCalls lists the walk's calls: for every route, a NUL in each variable path segment
// and in each parameter (raw, and escaped in JSON text where the parameter is JSON).
func nulCalls(t *testing.T) []nulCall {
	t.Helper()
	ops := openAPIParams(t)
	rows := matrixRows()
	h := New(nil, Options{})
	var calls []nulCall
	for i, rt := range h.routes {
		row, ok := matrixRowOf(h, rows, rt)
		if !ok {
			t.Errorf("route %s %s has no authorization matrix row to take valid values from", rt.method, rt.pattern)
			continue
		}
		segs := strings.Split(row.path, "/")
		for j, part := range h.routeParts[i] {
			if !strings.HasPrefix(part, "{") {
				continue
			}
			v := url.PathEscape(nulValue)
			if strings.HasSuffix(strings.TrimSuffix(part, "}"), "_id") {
				v = "1" + url.PathEscape("\x00")
			}
			path := slices.Clone(segs)
			if j < len(path) {
				path[j] = v
			}
			calls = append(calls, nulCall{method: rt.method, path: strings.Join(path, "/"), params: row.params, setup: row.setup})
		}
		names := map[string]bool{}
		for name := range row.params {
			names[name] = true
		}
		for name := range ops[rt.method+" "+normalizePattern(rt.pattern)] {
			names[name] = true
		}
		for _, name := range slices.Sorted(maps.Keys(names)) {
			for _, v := range nulValues(row.params[name], ops[rt.method+" "+normalizePattern(rt.pattern)][name]) {
				params := map[string]string{}
				for k, pv := range row.params {
					params[k] = pv
				}
				params[name] = v
				calls = append(calls, nulCall{method: rt.method, path: row.path, params: params, setup: row.setup})
			}
		}
	}
	if len(calls) < len(h.routes) {
		t.Fatalf("%d calls for %d routes", len(calls), len(h.routes))
	}
	return calls
}

// nulValues are the values tried for a parameter whose valid value is valid (may be "") and
// which the OpenAPI description declares JSON or not (isJSON): the raw NUL, and the escape
// \u0000 in every string of the valid JSON value, or in a JSON string, list and object.
func nulValues(valid string, isJSON bool) []string {
	out := []string{nulValue}
	var v any
	if valid != "" && json.Unmarshal([]byte(valid), &v) == nil {
		if s, ok := withNUL(v); ok {
			b, _ := json.Marshal(s)
			out = append(out, string(b))
		}
	}
	if isJSON || len(out) > 1 {
		out = append(out, `"a\u0000b"`, `["a\u0000b"]`, `{"a\u0000b":"a\u0000b"}`)
	}
	return out
}

// withNUL returns v with nulValue in place of each of its strings (map keys too), and
// whether it had any.
func withNUL(v any) (any, bool) {
	switch v := v.(type) {
	case string:
		return nulValue, true
	case []any:
		out, had := make([]any, len(v)), false
		for i, e := range v {
			var ok bool
			out[i], ok = withNUL(e)
			had = had || ok
		}
		return out, had
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			e, _ = withNUL(e)
			out[k+"\x00"] = e
		}
		return out, len(v) > 0
	}
	return v, false
}

// matrixRowOf is the first authorization matrix row that calls rt.
func matrixRowOf(h *Handler, rows []matrixRow, rt route) (matrixRow, bool) {
	for _, row := range rows {
		got, _, _ := h.match(row.method, placeholders.ReplaceAllString(row.path, "1"))
		if got != nil && got.method == rt.method && got.pattern == rt.pattern {
			return row, true
		}
	}
	return matrixRow{}, false
}

// normalizePattern writes every {name} of a path pattern as {}, so that this server's
// patterns and Zulip's paths compare.
func normalizePattern(p string) string {
	segs := strings.Split(strings.Trim(p, "/"), "/")
	for i, s := range segs {
		if strings.HasPrefix(s, "{") {
			segs[i] = "{}"
		}
	}
	return strings.Join(segs, "/")
}

// openAPIParams reads, per operation ("METHOD normalized-path"), the names of its query and
// form parameters and whether each is JSON; empty when the description is not found.
func openAPIParams(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	path := findOpenAPI()
	if path == "" {
		t.Log("no shared/reference/zulip-openapi.yaml: the parameters come from the matrix rows alone")
		return out
	}
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for p, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			params := map[string]bool{}
			for _, ref := range append(slices.Clone(item.Parameters), op.Parameters...) {
				if prm := ref.Value; prm != nil && (prm.In == "query" || prm.In == "formData") {
					params[prm.Name] = prm.Content["application/json"] != nil || isJSONSchema(prm.Schema)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for ct, media := range op.RequestBody.Value.Content {
					if !strings.Contains(ct, "form") || media.Schema == nil || media.Schema.Value == nil {
						continue
					}
					for name, s := range media.Schema.Value.Properties {
						enc := media.Encoding[name]
						params[name] = enc != nil && enc.ContentType == "application/json" || isJSONSchema(s)
					}
				}
			}
			out[method+" "+normalizePattern(p)] = params
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s describes no operation", path)
	}
	return out
}

// isJSONSchema reports whether a parameter of schema s travels as JSON text (a list or an
// object).
func isJSONSchema(s *openapi3.SchemaRef) bool {
	return s != nil && s.Value != nil && s.Value.Type != nil && (s.Value.Type.Is("array") || s.Value.Type.Is("object"))
}

// TestNullBytesOutsideTheAPI sends a NUL byte in the paths served outside the routing table
// (avatars, uploads, pages): refused before anything is looked up.
func TestNullBytesOutsideTheAPI(t *testing.T) {
	t.Parallel()
	m := newMatrixOrg(t)
	for _, path := range []string{
		"/avatar/a%00b@matrix.test", "/avatar/a%00b@matrix.test/medium", "/user_avatars/2/a%00b.png",
		"/user_uploads/2/a%00b/x.txt", "/join/a%00b/", "/login/a%00b", "/avatar/a%FFb@matrix.test",
	} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			req, err := http.NewRequest(http.MethodGet, m.srv.URL+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			m.authorize(req, "owner")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("body is not JSON: %v", err)
			}
			want := "Invalid path: must not contain null bytes"
			if strings.Contains(path, "%FF") {
				want = "Invalid path: must be valid UTF-8"
			}
			got := fmt.Sprint(resp.StatusCode, " ", body["code"], " ", body["msg"])
			if diff := cmp.Diff("400 BAD_REQUEST "+want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
