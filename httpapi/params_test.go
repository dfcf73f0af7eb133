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

// TestJSONParam checks the accessors of JSON-valued parameters and the answers of the API
// for each kind of refusal; jsonparam's tests hold the explainer's cases.
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
			name:   "list given a string",
			raw:    `"message"`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "v", false) },
			msg:    "v is not a list",
		},
		{
			name:   "strict struct with an unknown key",
			raw:    `{"type": "stream", "color": "red"}`,
			decode: func(p *params) (any, error) { return jsonParam[paramsDraft](p, "draft", true) },
			msg:    `Argument "color" at draft is unexpected`,
		},
		{
			name:   "not JSON",
			raw:    `[message`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "event_types", false) },
			msg:    "event_types is not valid JSON",
		},
		{
			name:   "33 levels",
			raw:    nested(33),
			decode: func(p *params) (any, error) { return jsonParam[any](p, "v", false) },
			msg:    "v is too deeply nested",
		},
		{
			name:   "escaped null byte",
			raw:    `["a\u0000"]`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "v", false) },
			msg:    "Invalid v: must not contain null bytes",
		},
		{
			name:   "escaped null byte in a parameter the Service checks",
			raw:    `["a\u0000"]`,
			decode: func(p *params) (any, error) { return jsonParam[[]string](p, "drafts", false) },
			want:   &[]string{"a\x00"},
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
