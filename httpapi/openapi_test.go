package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// Every JSON response the package's tests produce through a server built by newServer or the
// authorization matrix is recorded, and TestMain validates them against Zulip's OpenAPI
// description (shared/reference/zulip-openapi.yaml) once the tests ran. A deviation fails the
// package unless testdata/openapi_exceptions.txt lists it with its reason: keys newer than the
// reference copy (feature level 420; the spec is at 481) are listed there once.

// findOpenAPI finds shared/reference/zulip-openapi.yaml in the working directory or one of its
// parents ("" when there is none).
func findOpenAPI() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "shared", "reference", "zulip-openapi.yaml")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// recordedResponse is one response to validate.
type recordedResponse struct {
	method, path, query string
	status              int
	header              http.Header
	body                []byte
}

var openAPIRecorder struct {
	mu   sync.Mutex
	list []recordedResponse
}

// RecordForOpenAPI wraps a handler so that its JSON responses are validated at the end of
// the package's tests.
func RecordForOpenAPI(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") || !strings.HasPrefix(r.URL.Path, "/api/v1/") {
			return
		}
		openAPIRecorder.mu.Lock()
		defer openAPIRecorder.mu.Unlock()
		if len(openAPIRecorder.list) < 20000 {
			openAPIRecorder.list = append(openAPIRecorder.list, recordedResponse{
				method: r.Method, path: r.URL.Path, query: r.URL.RawQuery,
				status: rec.Code, header: rec.Header().Clone(), body: rec.Body.Bytes(),
			})
		}
	})
}

func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && !testing.Short() {
		if err := validateRecorded(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// validateRecorded checks every recorded response and reports the deviations that the
// exceptions file does not list, and listed exceptions that no longer occur.
func validateRecorded() error {
	path := findOpenAPI()
	if path == "" {
		fmt.Fprintln(os.Stderr, "skipping the OpenAPI validation of responses: no shared/reference/zulip-openapi.yaml above the working directory")
		return nil
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return fmt.Errorf("openapi: %w", err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://chat.test/api/v1"}}
	reopenAllOf(doc)
	if doc.Components.SecuritySchemes == nil {
		doc.Components.SecuritySchemes = openapi3.SecuritySchemes{}
	}
	// The copy lacks the definition its operations refer to.
	doc.Components.SecuritySchemes["basicAuth"] = &openapi3.SecuritySchemeRef{Value: openapi3.NewSecurityScheme().WithType("http").WithScheme("basic")}
	router, err := newOpenAPIRouter(doc)
	if err != nil {
		return fmt.Errorf("openapi router: %w", err)
	}
	allowed, err := readExceptions()
	if err != nil {
		return err
	}
	openAPIRecorder.mu.Lock()
	list := slices.Clone(openAPIRecorder.list)
	openAPIRecorder.mu.Unlock()
	found := map[string]string{} // deviation -> an example
	checked := 0
	for _, r := range list {
		for _, d := range deviations(router, r) {
			if _, ok := found[d]; !ok {
				found[d] = fmt.Sprintf("%s %s -> %d %s", r.method, r.path, r.status, truncate(r.body, 300))
			}
		}
		checked++
	}
	var unknown []string
	for d, ex := range found {
		if !allowed[d] && !allowed[anyRoute(d)] {
			unknown = append(unknown, d+"\n    e.g. "+ex)
		}
	}
	slices.Sort(unknown)
	if len(unknown) > 0 {
		return fmt.Errorf("%d responses checked against Zulip's OpenAPI; deviations not in testdata/openapi_exceptions.txt:\n%s",
			checked, strings.Join(unknown, "\n"))
	}
	return nil
}

// anyRoute is a deviation with its method and path replaced by "* *", the form of an
// exceptions line that holds for every route.
func anyRoute(d string) string {
	parts := strings.SplitN(d, " ", 3)
	if len(parts) < 3 {
		return d
	}
	return "* * " + parts[2]
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// deviations validates one response and returns its deviations, each as
// "METHOD PATH-TEMPLATE STATUS: /json/pointer reason", with array indices and map keys that
// are numbers written as * (stable across runs, so the exceptions file can list them).
// Undocumented statuses (most error responses) are not checked. GET /events checks each
// event against the event schemas of its type and op.
func deviations(router routers.Router, r recordedResponse) []string {
	req, err := http.NewRequest(r.method, "http://chat.test"+r.path+"?"+r.query, nil)
	if err != nil {
		return nil // a path no URL holds unescaped (a NUL byte): no route of Zulip's either
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		return nil // a route Zulip's description lacks (newer than it, or this server's own)
	}
	prefix := fmt.Sprintf("%s %s %d: ", r.method, route.Path, r.status)
	var out []string
	if route.Path == "/events" && r.status == http.StatusOK {
		out = eventDeviations(route, r.body)
	} else {
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
			Status:                 r.status,
			Header:                 r.header,
			Body:                   io.NopCloser(bytes.NewReader(r.body)),
			Options:                &openapi3filter.Options{MultiError: true},
		}
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			out = flatten(err)
		}
	}
	for i, d := range out {
		out[i] = prefix + d
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// eventDeviations checks each event of a GET /events answer against the schemas of the
// events array whose type (and op, where they have one) match it; an event that one of them
// accepts has no deviation, else the closest one's are reported.
func eventDeviations(route *routers.Route, body []byte) []string {
	var resp struct {
		Events []map[string]any `json:"events"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return []string{"/ not a JSON object: " + err.Error()}
	}
	items := eventSchemas(route)
	var out []string
	for _, ev := range resp.Events {
		var best []string
		matched := false
		for _, sch := range items {
			if !enumAllows(sch, "type", ev["type"]) || !enumAllows(sch, "op", ev["op"]) {
				continue
			}
			matched = true
			err := sch.VisitJSON(ev, openapi3.MultiErrors())
			if err == nil {
				best = nil
				break
			}
			errs := flatten(err)
			if best == nil || len(errs) < len(best) {
				best = errs
			}
		}
		if !matched {
			out = append(out, fmt.Sprintf("/events/* event type %v op %v is not described", ev["type"], ev["op"]))
			continue
		}
		for _, e := range best {
			out = append(out, "/events/*"+e)
		}
	}
	return out
}

// eventSchemas lists the schemas of GET /events' events array (its oneOf branches).
func eventSchemas(route *routers.Route) []*openapi3.Schema {
	resp := route.Operation.Responses.Status(http.StatusOK)
	if resp == nil || resp.Value == nil {
		return nil
	}
	mt := resp.Value.Content.Get("application/json")
	if mt == nil || mt.Schema == nil {
		return nil
	}
	var events *openapi3.SchemaRef
	for n, p := range allPropertySchemas(mt.Schema.Value) {
		if n == "events" {
			events = p
		}
	}
	if events == nil || events.Value == nil || events.Value.Items == nil {
		return nil
	}
	var out []*openapi3.Schema
	for _, b := range events.Value.Items.Value.OneOf {
		out = append(out, b.Value)
	}
	return out
}

// allPropertySchemas lists a schema's properties, through allOf.
func allPropertySchemas(s *openapi3.Schema) map[string]*openapi3.SchemaRef {
	out := map[string]*openapi3.SchemaRef{}
	if s == nil {
		return out
	}
	for n, p := range s.Properties {
		out[n] = p
	}
	for _, b := range s.AllOf {
		for n, p := range allPropertySchemas(b.Value) {
			out[n] = p
		}
	}
	return out
}

// enumAllows reports whether the schema's property name (through allOf) accepts v by its
// enum; a schema without the property, or without an enum, accepts anything.
func enumAllows(s *openapi3.Schema, name string, v any) bool {
	p, ok := allPropertySchemas(s)[name]
	if !ok || p.Value == nil || len(p.Value.Enum) == 0 {
		return ok || v == nil || name == "op"
	}
	return slices.Contains(p.Value.Enum, v)
}

// flatten turns a validation error into one line per schema error: the JSON pointer and the
// reason.
func flatten(err error) []string {
	var multi openapi3.MultiError
	if errors.As(err, &multi) {
		var out []string
		for _, e := range multi {
			out = append(out, flatten(e)...)
		}
		return out
	}
	var re *openapi3filter.ResponseError
	if errors.As(err, &re) && re.Err != nil && !errors.Is(re.Err, err) {
		if inner := flatten(re.Err); len(inner) > 0 {
			return inner
		}
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		ptr := se.JSONPointer()
		for i, p := range ptr {
			if _, err := strconv.Atoi(p); err == nil {
				ptr[i] = "*"
			}
		}
		if strings.HasPrefix(se.Reason, "value matches more than one schema") {
			return nil // an ambiguity of the description, not of the response
		}
		return []string{"/" + strings.Join(ptr, "/") + " " + se.Reason}
	}
	line, _, _ := strings.Cut(err.Error(), "\n")
	return []string{line}
}

// readExceptions reads testdata/openapi_exceptions.txt: one deviation per line (method and
// path "* *" for every route), then " # " and the reason; blank lines and lines starting with
// # are comments.
func readExceptions() (map[string]bool, error) {
	f, err := os.Open(filepath.Join("testdata", "openapi_exceptions.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		d, reason, ok := strings.Cut(line, " # ")
		if !ok || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("openapi_exceptions.txt: %q has no reason", line)
		}
		out[strings.TrimSpace(d)] = true
	}
	return out, sc.Err()
}

// reopenAllOf repairs what the reference copy's generator dropped: a closed allOf branch
// (additionalProperties false) must re-list the keys of its sibling branches, as Zulip's own
// description does with empty {} entries, or no object could satisfy the allOf.
func reopenAllOf(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(s *openapi3.Schema)
	walkRef := func(r *openapi3.SchemaRef) {
		if r != nil && r.Value != nil {
			walk(r.Value)
		}
	}
	walk = func(s *openapi3.Schema) {
		if seen[s] {
			return
		}
		seen[s] = true
		if len(s.AllOf) > 1 {
			names := map[string]bool{}
			for _, b := range s.AllOf {
				for n := range allProperties(b.Value, map[*openapi3.Schema]bool{}) {
					names[n] = true
				}
			}
			for _, b := range s.AllOf {
				v := b.Value
				if v == nil || v.AdditionalProperties.Has == nil || *v.AdditionalProperties.Has {
					continue
				}
				if v.Properties == nil {
					v.Properties = openapi3.Schemas{}
				}
				for n := range names {
					if _, ok := v.Properties[n]; !ok {
						v.Properties[n] = openapi3.NewSchemaRef("", &openapi3.Schema{})
					}
				}
			}
		}
		for _, r := range s.AllOf {
			walkRef(r)
		}
		for _, r := range s.OneOf {
			walkRef(r)
		}
		for _, r := range s.AnyOf {
			walkRef(r)
		}
		for _, r := range s.Properties {
			walkRef(r)
		}
		walkRef(s.Items)
		walkRef(s.AdditionalProperties.Schema)
	}
	for _, r := range doc.Components.Schemas {
		walkRef(r)
	}
	for _, r := range doc.Components.Responses {
		if r.Value != nil {
			for _, mt := range r.Value.Content {
				walkRef(mt.Schema)
			}
		}
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, r := range op.Responses.Map() {
				if r.Value != nil {
					for _, mt := range r.Value.Content {
						walkRef(mt.Schema)
					}
				}
			}
		}
	}
}

// allProperties lists the property names a schema allows through its properties and allOf.
func allProperties(s *openapi3.Schema, seen map[*openapi3.Schema]bool) map[string]bool {
	out := map[string]bool{}
	if s == nil || seen[s] {
		return out
	}
	seen[s] = true
	for n := range s.Properties {
		out[n] = true
	}
	for _, b := range s.AllOf {
		for n := range allProperties(b.Value, seen) {
			out[n] = true
		}
	}
	return out
}

// newOpenAPIRouter builds the router, dropping the second of two paths that differ only in a
// parameter's name (/users/{user_id} and /users/{email}: the same route here).
func newOpenAPIRouter(doc *openapi3.T) (routers.Router, error) {
	for range 20 {
		router, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation())
		if err == nil {
			return router, nil
		}
		_, rest, ok := strings.Cut(err.Error(), "conflicting paths ")
		if !ok {
			return nil, err
		}
		fields := strings.Split(rest, "\"")
		if len(fields) < 4 {
			return nil, err
		}
		doc.Paths.Delete(fields[3])
	}
	return nil, errors.New("too many conflicting paths")
}
