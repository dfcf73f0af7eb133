package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

const paramsTestMaxBody = 1 << 10

// paramsFormRequest is a request with an urlencoded body.
func paramsFormRequest(method, target, body string) *http.Request {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

// paramsMultipartBody encodes fields (in order, as name/value pairs) and one file part named
// file (skipped when empty). It returns the body and its Content-Type.
func paramsMultipartBody(t *testing.T, fields []string, file string) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := 0; i+1 < len(fields); i += 2 {
		if err := mw.WriteField(fields[i], fields[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if file != "" {
		fw, err := mw.CreateFormFile(file, "notes.txt")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(fw, "file contents are not a parameter"); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String(), mw.FormDataContentType()
}

func paramsMultipartRequest(t *testing.T, method, target string, fields []string, file string) *http.Request {
	t.Helper()
	body, ct := paramsMultipartBody(t, fields, file)
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Header.Set("Content-Type", ct)
	return r
}

// paramsDecode decodes r and fails the test on error.
func paramsDecode(t *testing.T, r *http.Request) *params {
	t.Helper()
	p, err := decodeParams(r, paramsTestMaxBody)
	if err != nil {
		t.Fatalf("decodeParams: %v", err)
	}
	return p
}

// paramsWantError checks that err is a *chat.Error with the code, HTTP status, message and
// extra keys given.
func paramsWantError(t *testing.T, err error, code chat.Code, status int, msg string, extra map[string]any) {
	t.Helper()
	var e *chat.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *chat.Error", err, err)
	}
	type view struct {
		Code   chat.Code
		Status int
		Msg    string
		Extra  map[string]any
	}
	got := view{e.Code, e.HTTPStatus(), e.Msg, e.Extra}
	want := view{code, status, msg, extra}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}

func paramsBadRequest(t *testing.T, err error, msg string) {
	t.Helper()
	paramsWantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, msg, nil)
}

func paramsMissing(t *testing.T, err error, name string) {
	t.Helper()
	paramsWantError(t, err, chat.CodeRequestVariableMissing, http.StatusBadRequest,
		"Missing '"+name+"' argument", map[string]any{"var_name": name})
}

// paramsHiddenLength hides the length of a body, as a chunked request does.
type paramsHiddenLength struct{ io.Reader }

func TestDecodeParamsSources(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		request func(t *testing.T) *http.Request
		want    map[string]string // every parameter present, by value
	}{
		{
			name:    "urlencoded POST body",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodPost, "/x", "a=1&b=two") },
			want:    map[string]string{"a": "1", "b": "two"},
		},
		{
			name:    "urlencoded PATCH body",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodPatch, "/x", "name=new+name") },
			want:    map[string]string{"name": "new name"},
		},
		{
			name:    "urlencoded DELETE body",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodDelete, "/x", "queue_id=abc") },
			want:    map[string]string{"queue_id": "abc"},
		},
		{
			name:    "urlencoded PUT body",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodPut, "/x", "emoji=%F0%9F%90%99") },
			want:    map[string]string{"emoji": "🐙"},
		},
		{
			name:    "urlencoded GET body",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodGet, "/x?q=1", "b=2") },
			want:    map[string]string{"q": "1", "b": "2"},
		},
		{
			name: "query string only",
			request: func(*testing.T) *http.Request {
				return httptest.NewRequest(http.MethodGet, "/x?anchor=newest&num_before=10&narrow=%5B%5D", nil)
			},
			want: map[string]string{"anchor": "newest", "num_before": "10", "narrow": "[]"},
		},
		{
			name: "body wins over query string",
			request: func(*testing.T) *http.Request {
				return paramsFormRequest(http.MethodPost, "/x?a=query&b=query", "a=body&c=body")
			},
			want: map[string]string{"a": "body", "b": "query", "c": "body"},
		},
		{
			name: "first value of a repeated key",
			request: func(*testing.T) *http.Request {
				return paramsFormRequest(http.MethodPost, "/x?q=first&q=second", "a=first&a=second")
			},
			want: map[string]string{"a": "first", "q": "first"},
		},
		{
			name: "multipart body with a file part",
			request: func(t *testing.T) *http.Request {
				return paramsMultipartRequest(t, http.MethodPost, "/x?b=query&c=query",
					[]string{"a", "multi\r\nline", "b", "body", "a", "second"}, "upload")
			},
			want: map[string]string{"a": "multi\r\nline", "b": "body", "c": "query"},
		},
		{
			name: "multipart PATCH body",
			request: func(t *testing.T) *http.Request {
				return paramsMultipartRequest(t, http.MethodPatch, "/x", []string{"full_name", "Hamlet"}, "")
			},
			want: map[string]string{"full_name": "Hamlet"},
		},
		{
			name: "multipart part with an empty filename is a file",
			request: func(*testing.T) *http.Request {
				body := "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"\"\r\n\r\n\r\n" +
					"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n" +
					"--B\r\nContent-Disposition: attachment; name=\"x\"\r\n\r\nnot a form field\r\n" +
					"--B\r\nContent-Type: text/plain\r\n\r\nno disposition\r\n--B--\r\n"
				r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(body))
				r.Header.Set("Content-Type", "multipart/form-data; boundary=B")
				return r
			},
			want: map[string]string{"a": "v"},
		},
		{
			name: "empty multipart body",
			request: func(*testing.T) *http.Request {
				r := httptest.NewRequest(http.MethodPost, "/x?a=1", strings.NewReader(""))
				r.Header.Set("Content-Type", "multipart/form-data; boundary=B")
				return r
			},
			want: map[string]string{"a": "1"},
		},
		{
			name: "JSON body is not parsed",
			request: func(*testing.T) *http.Request {
				r := httptest.NewRequest(http.MethodPost, "/x?b=2", strings.NewReader(`{"a": 1}`))
				r.Header.Set("Content-Type", "application/json")
				return r
			},
			want: map[string]string{"b": "2"},
		},
		{
			name: "body without Content-Type is not parsed",
			request: func(*testing.T) *http.Request {
				return httptest.NewRequest(http.MethodPost, "/x", strings.NewReader("a=1"))
			},
			want: map[string]string{},
		},
		{
			name: "Content-Type with parameters and capitals",
			request: func(*testing.T) *http.Request {
				r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader("a=1"))
				r.Header.Set("Content-Type", "Application/X-WWW-Form-Urlencoded; charset=UTF-8")
				return r
			},
			want: map[string]string{"a": "1"},
		},
		{
			name: "semicolons, empty values, bare keys and empty pairs",
			request: func(*testing.T) *http.Request {
				return paramsFormRequest(http.MethodPost, "/x?q;r=1;2", "content=a;b&empty=&bare&&=nameless&plus=a+b%2Bc")
			},
			want: map[string]string{"content": "a;b", "empty": "", "bare": "", "": "nameless", "plus": "a b+c", "q;r": "1;2"},
		},
		{
			name: "body of exactly the limit",
			request: func(*testing.T) *http.Request {
				return paramsFormRequest(http.MethodPost, "/x", "a="+strings.Repeat("x", paramsTestMaxBody-2))
			},
			want: map[string]string{"a": strings.Repeat("x", paramsTestMaxBody-2)},
		},
		{
			name: "large JSON body is not read",
			request: func(*testing.T) *http.Request {
				r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(strings.Repeat(" ", 2*paramsTestMaxBody)))
				r.Header.Set("Content-Type", "application/json")
				return r
			},
			want: map[string]string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := paramsDecode(t, tt.request(t))
			got := map[string]string{}
			for _, k := range p.ignored() {
				v, ok := p.str(k)
				if !ok {
					t.Errorf("ignored() lists %q, which str does not find", k)
				}
				got[k] = v
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parameters (-want +got):\n%s", diff)
			}
			if p.has("upload") || p.has("f") || p.has("x") {
				t.Errorf("a file or non-form part is a parameter")
			}
		})
	}
}

func TestDecodeParamsErrors(t *testing.T) {
	t.Parallel()
	tooLarge := func(t *testing.T, err error) {
		t.Helper()
		paramsWantError(t, err, chat.CodeBadRequest, http.StatusRequestEntityTooLarge, "Request body is too large", nil)
	}
	malformed := func(t *testing.T, err error) {
		t.Helper()
		paramsBadRequest(t, err, "Malformed payload")
	}
	tooMany := func(t *testing.T, err error) {
		t.Helper()
		paramsBadRequest(t, err, "Too many parameters")
	}
	multipartRequest := func(body string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(body))
		r.Header.Set("Content-Type", "multipart/form-data; boundary=B")
		return r
	}
	tests := []struct {
		name    string
		request func(t *testing.T) *http.Request
		check   func(t *testing.T, err error)
		maxBody int64 // 0 means paramsTestMaxBody
	}{
		{
			name: "urlencoded body too large",
			request: func(*testing.T) *http.Request {
				return paramsFormRequest(http.MethodPost, "/x", "a="+strings.Repeat("x", paramsTestMaxBody))
			},
			check: tooLarge,
		},
		{
			name: "body too large without Content-Length",
			request: func(*testing.T) *http.Request {
				r := httptest.NewRequest(http.MethodPatch, "/x", paramsHiddenLength{strings.NewReader("a=" + strings.Repeat("x", paramsTestMaxBody-1))})
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				r.ContentLength = -1
				return r
			},
			check: tooLarge,
		},
		{
			name: "multipart body too large",
			request: func(t *testing.T) *http.Request {
				r := paramsMultipartRequest(t, http.MethodPost, "/x", []string{"a", strings.Repeat("x", paramsTestMaxBody)}, "")
				r.Body = io.NopCloser(paramsHiddenLength{r.Body})
				r.ContentLength = -1
				return r
			},
			check: tooLarge,
		},
		{
			name: "multipart file too large",
			request: func(t *testing.T) *http.Request {
				body := "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big\"\r\n\r\n" +
					strings.Repeat("x", paramsTestMaxBody) + "\r\n--B--\r\n"
				r := multipartRequest(body)
				r.ContentLength = -1
				return r
			},
			check: tooLarge,
		},
		{
			name:    "invalid percent escape in body",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodPost, "/x", "a=100%") },
			check:   malformed,
		},
		{
			name:    "invalid percent escape in key",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodPost, "/x", "a%zz=1") },
			check:   malformed,
		},
		{
			name:    "invalid UTF-8 in body value",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodPost, "/x", "a=%ff%fe") },
			check:   malformed,
		},
		{
			name:    "raw invalid UTF-8 in body",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodPost, "/x", "a=\xc3\x28") },
			check:   malformed,
		},
		{
			name:    "invalid UTF-8 in body key",
			request: func(*testing.T) *http.Request { return paramsFormRequest(http.MethodDelete, "/x", "%c0=1") },
			check:   malformed,
		},
		{
			name:    "invalid UTF-8 in query string",
			request: func(*testing.T) *http.Request { return httptest.NewRequest(http.MethodGet, "/x?a=%ff", nil) },
			check:   malformed,
		},
		{
			name:    "invalid escape in query string",
			request: func(*testing.T) *http.Request { return httptest.NewRequest(http.MethodGet, "/x?a=%g1", nil) },
			check:   malformed,
		},
		{
			name: "invalid UTF-8 in multipart value",
			request: func(*testing.T) *http.Request {
				return multipartRequest("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\xff\r\n--B--\r\n")
			},
			check: malformed,
		},
		{
			name: "multipart without boundary",
			request: func(*testing.T) *http.Request {
				r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader("--B\r\n\r\n--B--\r\n"))
				r.Header.Set("Content-Type", "multipart/form-data")
				return r
			},
			check: malformed,
		},
		{
			name: "truncated multipart body",
			request: func(*testing.T) *http.Request {
				return multipartRequest("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n")
			},
			check: malformed,
		},
		{
			name:    "multipart body that is no multipart",
			request: func(*testing.T) *http.Request { return multipartRequest("a=1&b=2") },
			check:   malformed,
		},
		{
			name: "too many body parameters",
			request: func(*testing.T) *http.Request {
				body := strings.Repeat("a&", maxParams+1)
				r := paramsFormRequest(http.MethodPost, "/x", body)
				return r
			},
			check:   tooMany,
			maxBody: 1 << 20,
		},
		{
			name: "too many query parameters",
			request: func(*testing.T) *http.Request {
				return httptest.NewRequest(http.MethodGet, "/x?"+strings.Repeat("k=v&", maxParams+1), nil)
			},
			check:   tooMany,
			maxBody: 1 << 20,
		},
		{
			name: "too many multipart parts",
			request: func(*testing.T) *http.Request {
				part := "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n\r\n\r\n"
				return multipartRequest(strings.Repeat(part, maxParams+1) + "--B--\r\n")
			},
			check:   tooMany,
			maxBody: 1 << 20,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			maxBody := tt.maxBody
			if maxBody == 0 {
				maxBody = paramsTestMaxBody
			}
			p, err := decodeParams(tt.request(t), maxBody)
			if err == nil {
				t.Fatalf("decodeParams succeeded with %v", p.values)
			}
			tt.check(t, err)
		})
	}
}

// paramsOf decodes parameters sent in an urlencoded POST body.
func paramsOf(t *testing.T, kv ...string) *params {
	t.Helper()
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(paramsEscape(kv[i]) + "=" + paramsEscape(kv[i+1]))
	}
	r := paramsFormRequest(http.MethodPost, "/x", b.String())
	p, err := decodeParams(r, 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func paramsEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

func paramsPtr[T any](v T) *T { return &v }

func TestBoolean(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw  string
		want *bool
		msg  string
	}{
		{raw: "true", want: paramsPtr(true)},
		{raw: "false", want: paramsPtr(false)},
		{raw: " true\n", want: paramsPtr(true)},
		{raw: "True", msg: "flag is not valid JSON"},
		{raw: "yes", msg: "flag is not valid JSON"},
		{raw: "", msg: "flag is not valid JSON"},
		{raw: "1", msg: "flag is not a boolean"},
		{raw: "0", msg: "flag is not a boolean"},
		{raw: `"true"`, msg: "flag is not a boolean"},
		{raw: "null", msg: "flag is not a boolean"},
		{raw: "[true]", msg: "flag is not a boolean"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			t.Parallel()
			p := paramsOf(t, "flag", tt.raw)
			got, err := p.boolean("flag")
			if tt.msg != "" {
				paramsBadRequest(t, err, tt.msg)
				if _, err := p.boolOr("flag", true); err == nil {
					t.Errorf("boolOr accepted %q", tt.raw)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("boolean (-want +got):\n%s", diff)
			}
			if b, err := p.boolOr("flag", !*tt.want); err != nil || b != *tt.want {
				t.Errorf("boolOr = %v, %v", b, err)
			}
		})
	}
	t.Run("absent", func(t *testing.T) {
		t.Parallel()
		p := paramsOf(t)
		if b, err := p.boolean("flag"); b != nil || err != nil {
			t.Errorf("boolean = %v, %v", b, err)
		}
		for _, def := range []bool{false, true} {
			if b, err := p.boolOr("flag", def); b != def || err != nil {
				t.Errorf("boolOr(%v) = %v, %v", def, b, err)
			}
		}
	})
}

func TestInteger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw  string
		want int64
		msg  string
	}{
		{raw: "4", want: 4},
		{raw: "-17", want: -17},
		{raw: "0", want: 0},
		{raw: " 42 ", want: 42},
		{raw: "9223372036854775807", want: 9223372036854775807},
		{raw: "-9223372036854775808", want: -9223372036854775808},
		{raw: "4.0", msg: "n is not an integer"},
		{raw: "1e3", msg: "n is not an integer"},
		{raw: `"4"`, msg: "n is not an integer"},
		{raw: "true", msg: "n is not an integer"},
		{raw: "null", msg: "n is not an integer"},
		{raw: "[4]", msg: "n is not an integer"},
		{raw: "9223372036854775808", msg: "n is not an integer"},
		{raw: "04", msg: "n is not valid JSON"},
		{raw: "+4", msg: "n is not valid JSON"},
		{raw: "four", msg: "n is not valid JSON"},
		{raw: "", msg: "n is not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			t.Parallel()
			p := paramsOf(t, "n", tt.raw)
			got, err := p.integer("n")
			req, reqErr := p.requiredInt("n")
			if tt.msg != "" {
				paramsBadRequest(t, err, tt.msg)
				paramsBadRequest(t, reqErr, tt.msg)
				return
			}
			if err != nil || reqErr != nil {
				t.Fatal(err, reqErr)
			}
			if got == nil || *got != tt.want || req != tt.want {
				t.Errorf("integer = %v, requiredInt = %d, want %d", got, req, tt.want)
			}
		})
	}
	t.Run("absent", func(t *testing.T) {
		t.Parallel()
		p := paramsOf(t, "other", "1")
		if n, err := p.integer("n"); n != nil || err != nil {
			t.Errorf("integer = %v, %v", n, err)
		}
		_, err := p.requiredInt("n")
		paramsMissing(t, err, "n")
	})
}

func TestStringAccessors(t *testing.T) {
	t.Parallel()
	p := paramsOf(t, "name", "  Hamlet  ", "empty", "", "json", `"quoted"`)

	if v, ok := p.str("name"); !ok || v != "  Hamlet  " {
		t.Errorf("str(name) = %q, %v", v, ok)
	}
	if v, ok := p.str("json"); !ok || v != `"quoted"` {
		t.Errorf("str(json) = %q, %v (values are not JSON-decoded)", v, ok)
	}
	if v, ok := p.str("missing"); ok || v != "" {
		t.Errorf("str(missing) = %q, %v", v, ok)
	}
	if v, err := p.requiredStr("empty"); err != nil || v != "" {
		t.Errorf("requiredStr(empty) = %q, %v", v, err)
	}
	_, err := p.requiredStr("username")
	paramsMissing(t, err, "username")
	if diff := cmp.Diff(paramsPtr("  Hamlet  "), p.optStr("name")); diff != "" {
		t.Errorf("optStr(name) (-want +got):\n%s", diff)
	}
	if got := p.optStr("missing"); got != nil {
		t.Errorf("optStr(missing) = %q", *got)
	}
	if !p.has("empty") || p.has("missing") {
		t.Errorf("has is wrong")
	}
}

type paramsDraft struct {
	Type    string  `json:"type"`
	To      []int64 `json:"to"`
	Topic   string  `json:"topic"`
	Content string  `json:"content"`
	Time    float64 `json:"timestamp"`
}

type paramsEmbedded struct {
	ParamsInner
	Own bool `json:"own"`
}

type ParamsInner struct {
	Deep int `json:"deep"`
}

// paramsChecked refuses the value "bad" with a *chat.Error of its own.
type paramsChecked string

func (c *paramsChecked) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "bad" {
		return chat.InvalidArgument("checked", "bad value")
	}
	*c = paramsChecked(s)
	return nil
}

func TestJSONParam(t *testing.T) {
	t.Parallel()
	nested := func(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }
	tests := []struct {
		name   string
		raw    string
		decode func(p *params) (any, error)
		want   any
		msg    string
	}{
		{
			name:   "list of integers",
			raw:    "[1, 2, 3]",
			decode: func(p *params) (any, error) { return jsonParam[[]int64](p, "v", false) },
			want:   &[]int64{1, 2, 3},
		},
		{
			name:   "list given a string",
			raw:    `"message"`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "v", false) },
			msg:    "v is not a list",
		},
		{
			name:   "list given an object",
			raw:    `{"a": 1}`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "v", false) },
			msg:    "v is not a list",
		},
		{
			name:   "wrong element",
			raw:    `[1, 2, "3"]`,
			decode: func(p *params) (any, error) { return jsonParam[[]int64](p, "v", false) },
			msg:    "v[2] is not an integer",
		},
		{
			name:   "float element in a list of integers",
			raw:    `[4.0]`,
			decode: func(p *params) (any, error) { return jsonParam[[]int64](p, "v", false) },
			msg:    "v[0] is not an integer",
		},
		{
			name:   "null list",
			raw:    "null",
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "v", false) },
			want:   new([]string),
		},
		{
			name:   "dict",
			raw:    `{"a": 1, "b": [true]}`,
			decode: func(p *params) (any, error) { return jsonParam[map[string]any](p, "v", true) },
			want:   &map[string]any{"a": 1.0, "b": []any{true}},
		},
		{
			name:   "dict given a list",
			raw:    `[1]`,
			decode: func(p *params) (any, error) { return jsonParam[map[string]int](p, "v", false) },
			msg:    "v is not a dict",
		},
		{
			name:   "dict value",
			raw:    `{"a": 1, "b c": "two"}`,
			decode: func(p *params) (any, error) { return jsonParam[map[string]int](p, "v", false) },
			msg:    `v["b c"] is not an integer`,
		},
		{
			name:   "dict with integer keys",
			raw:    `{"1": "a", "x": "b"}`,
			decode: func(p *params) (any, error) { return jsonParam[map[int]string](p, "v", false) },
			msg:    `v["x"] is not an integer`,
		},
		{
			name:   "struct given a list",
			raw:    `[{"content": "hi"}]`,
			decode: func(p *params) (any, error) { return jsonParam[paramsDraft](p, "draft", true) },
			msg:    "draft is not a dict",
		},
		{
			name:   "strict struct",
			raw:    `{"type": "stream", "to": [1], "topic": "t", "content": "c", "timestamp": 1.5}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsDraft](p, "draft", true) },
			want:   &paramsDraft{Type: "stream", To: []int64{1}, Topic: "t", Content: "c", Time: 1.5},
		},
		{
			name:   "strict struct matches keys regardless of case, as encoding/json",
			raw:    `{"Content": "c"}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsDraft](p, "draft", true) },
			want:   &paramsDraft{Content: "c"},
		},
		{
			name:   "strict struct with an unknown key",
			raw:    `{"type": "stream", "color": "red"}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsDraft](p, "draft", true) },
			msg:    `Argument "color" at draft is unexpected`,
		},
		{
			name:   "lenient struct with an unknown key",
			raw:    `{"type": "stream", "color": {"deep": [1]}}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsDraft](p, "draft", false) },
			want:   &paramsDraft{Type: "stream"},
		},
		{
			name:   "unknown key in a nested struct",
			raw:    `[{"content": "ok"}, {"content": "ok", "extra": 1}]`,
			decode: func(p *params) (any, error) { return jsonParam[[]paramsDraft](p, "drafts", true) },
			msg:    `Argument "extra" at drafts[1] is unexpected`,
		},
		{
			name:   "wrong type in a nested struct",
			raw:    `[{"content": 5}]`,
			decode: func(p *params) (any, error) { return jsonParam[[]paramsDraft](p, "drafts", true) },
			msg:    `drafts[0]["content"] is not a string`,
		},
		{
			name:   "wrong type deeper in a nested struct",
			raw:    `[{"content": "a"}, {"to": [1, 2.5]}]`,
			decode: func(p *params) (any, error) { return jsonParam[[]paramsDraft](p, "drafts", false) },
			msg:    `drafts[1]["to"][1] is not an integer`,
		},
		{
			name:   "float",
			raw:    `{"timestamp": "noon"}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsDraft](p, "draft", false) },
			msg:    `draft["timestamp"] is not a float`,
		},
		{
			name:   "first error in document order",
			raw:    `{"topic": 1, "content": 2}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsDraft](p, "draft", false) },
			msg:    `draft["topic"] is not a string`,
		},
		{
			name:   "embedded struct fields",
			raw:    `{"own": true, "deep": 3}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsEmbedded](p, "e", true) },
			want:   &paramsEmbedded{ParamsInner: ParamsInner{Deep: 3}, Own: true},
		},
		{
			name:   "embedded struct field of the wrong type",
			raw:    `{"own": true, "deep": "3"}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsEmbedded](p, "e", true) },
			msg:    `e["deep"] is not an integer`,
		},
		{
			name:   "boolean",
			raw:    `1`,
			decode: func(p *params) (any, error) { return jsonParam[bool](p, "b", false) },
			msg:    "b is not a boolean",
		},
		{
			name:   "integer or string as RawMessage",
			raw:    `30`,
			decode: func(p *params) (any, error) { return jsonParam[json.RawMessage](p, "message_retention_days", false) },
			want:   &json.RawMessage{'3', '0'},
		},
		{
			name:   "string as RawMessage",
			raw:    `"unlimited"`,
			decode: func(p *params) (any, error) { return jsonParam[json.RawMessage](p, "message_retention_days", false) },
			want:   paramsPtr(json.RawMessage(`"unlimited"`)),
		},
		{
			name:   "not JSON",
			raw:    `[message`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "event_types", false) },
			msg:    "event_types is not valid JSON",
		},
		{
			name:   "trailing data",
			raw:    `[] []`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "v", false) },
			msg:    "v is not valid JSON",
		},
		{
			name: "32 levels",
			raw:  nested(32),
			decode: func(p *params) (any, error) {
				v, err := jsonParam[any](p, "v", false)
				if err != nil {
					return nil, err
				}
				out, err := json.Marshal(v) // cmp.Diff is slow on deep values
				return string(out), err
			},
			want: nested(32),
		},
		{
			name:   "33 levels",
			raw:    nested(33),
			decode: func(p *params) (any, error) { return jsonParam[any](p, "v", false) },
			msg:    "v is too deeply nested",
		},
		{
			name:   "objects count as levels",
			raw:    strings.Repeat(`{"a":`, 33) + "1" + strings.Repeat("}", 33),
			decode: func(p *params) (any, error) { return jsonParam[json.RawMessage](p, "v", false) },
			msg:    "v is too deeply nested",
		},
		{
			name:   "very deep",
			raw:    nested(20000),
			decode: func(p *params) (any, error) { return jsonParam[any](p, "v", false) },
			msg:    "v is too deeply nested", // beyond what encoding/json's scanner allows
		},
		{
			name:   "brackets in strings do not count",
			raw:    `["` + strings.Repeat("[{", 100) + `\"]"]`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "v", false) },
			want:   &[]string{strings.Repeat("[{", 100) + `"]`},
		},
		{
			name:   "error of an UnmarshalJSON method",
			raw:    `"bad"`,
			decode: func(p *params) (any, error) { return jsonParam[paramsChecked](p, "checked", false) },
			msg:    "Invalid checked: bad value",
		},
		{
			name:   "requiredJSON",
			raw:    `["a"]`,
			decode: func(p *params) (any, error) { return requiredJSON[[]string](p, "v", false) },
			want:   []string{"a"},
		},
		{
			name:   "requiredJSON with an error",
			raw:    `["a", 1]`,
			decode: func(p *params) (any, error) { return requiredJSON[[]string](p, "v", false) },
			msg:    "v[1] is not a string",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := paramsOf(t, "v", tt.raw, "b", tt.raw, "draft", tt.raw, "drafts", tt.raw, "e", tt.raw,
				"event_types", tt.raw, "message_retention_days", tt.raw, "checked", tt.raw)
			got, err := tt.decode(p)
			if tt.msg != "" {
				paramsBadRequest(t, err, tt.msg)
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decoded (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("absent", func(t *testing.T) {
		t.Parallel()
		p := paramsOf(t)
		if v, err := jsonParam[[]string](p, "v", true); v != nil || err != nil {
			t.Errorf("jsonParam = %v, %v", v, err)
		}
		_, err := requiredJSON[map[string]int](p, "v", true)
		paramsMissing(t, err, "v")
	})
}

func TestJSONErrorFallback(t *testing.T) {
	t.Parallel()
	for field, want := range map[string]string{"": "", "a": `["a"]`, "a.b": `["a"]["b"]`} {
		if got := fieldPath(field); got != want {
			t.Errorf("fieldPath(%q) = %q, want %q", field, got, want)
		}
	}
	if key, ok := unknownFieldKey(errors.New(`json: unknown field "a \"b\""`)); !ok || key != `a "b"` {
		t.Errorf("unknownFieldKey = %q, %v", key, ok)
	}
	if _, ok := unknownFieldKey(errors.New("json: something else")); ok {
		t.Errorf("unknownFieldKey accepted another error")
	}
}

func TestIgnored(t *testing.T) {
	t.Parallel()
	t.Run("unread parameters, sorted", func(t *testing.T) {
		t.Parallel()
		r := paramsFormRequest(http.MethodPost, "/x?zebra=1&read_q=1&Apple=1", "mango=1&read_b=1&apple=1&bool=maybe&opt=1&h=1&n=2&j=[]&rj=[]")
		p := paramsDecode(t, r)
		p.str("read_q")
		_, _ = p.requiredStr("read_b")
		_, _ = p.boolean("bool") // an invalid value read is still read
		p.optStr("opt")
		p.has("h")
		_, _ = p.integer("n")
		_, _ = jsonParam[[]int](p, "j", true)
		_, _ = requiredJSON[[]int](p, "rj", true)
		_, _ = p.requiredStr("absent")
		_, _ = p.boolOr("absent2", true)
		if diff := cmp.Diff([]string{"Apple", "apple", "mango", "zebra"}, p.ignored()); diff != "" {
			t.Errorf("ignored (-want +got):\n%s", diff)
		}
	})
	t.Run("nil when all are read", func(t *testing.T) {
		t.Parallel()
		p := paramsDecode(t, paramsFormRequest(http.MethodPost, "/x?a=1", "b=true"))
		p.str("a")
		_, _ = p.boolOr("b", false)
		if got := p.ignored(); got != nil {
			t.Errorf("ignored = %#v, want nil", got)
		}
	})
	t.Run("nil without parameters", func(t *testing.T) {
		t.Parallel()
		p := paramsDecode(t, httptest.NewRequest(http.MethodGet, "/x", nil))
		if got := p.ignored(); got != nil {
			t.Errorf("ignored = %#v, want nil", got)
		}
	})
	t.Run("a key in body and query is listed once", func(t *testing.T) {
		t.Parallel()
		p := paramsDecode(t, paramsFormRequest(http.MethodPost, "/x?k=1&k=2", "k=3"))
		if diff := cmp.Diff([]string{"k"}, p.ignored()); diff != "" {
			t.Errorf("ignored (-want +got):\n%s", diff)
		}
	})
	t.Run("many keys", func(t *testing.T) {
		t.Parallel()
		var pairs []string
		var want []string
		for i := range 50 {
			k := "k" + strconv.Itoa(i)
			pairs = append(pairs, k+"=1")
			want = append(want, k)
		}
		p := paramsDecode(t, paramsFormRequest(http.MethodPost, "/x", strings.Join(pairs, "&")))
		got := p.ignored()
		for i := 1; i < len(got); i++ {
			if got[i-1] >= got[i] {
				t.Fatalf("ignored is not sorted: %v", got)
			}
		}
		if len(got) != len(want) {
			t.Errorf("ignored has %d keys, want %d", len(got), len(want))
		}
	})
}

func TestTooDeep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		want bool
	}{
		{"1", false},
		{"[]", false},
		{`[[["\\"]]]`, false},
		{`["\"[[[[["]`, false},
		{`{"a":{"b":[1]}}`, false},
		{`{"a":{"b":[[1]]}}`, true},
	}
	for _, tt := range tests {
		if got := tooDeep(tt.s, 3); got != tt.want {
			t.Errorf("tooDeep(%s, 3) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
