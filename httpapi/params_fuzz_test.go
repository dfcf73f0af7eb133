package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	chat "github.com/teamchat/chat"
)

const fuzzMaxBody = 4 << 10

// FuzzDecodeParams decodes requests built from a fuzzed body, Content-Type and query string,
// reads parameters through every accessor and checks that nothing panics, that every error
// is a *chat.Error with a 4xx status, and that ignored() is sorted and lists exactly the
// parameters present and not read.
func FuzzDecodeParams(f *testing.F) {
	const (
		form      = "application/x-www-form-urlencoded"
		multi     = "multipart/form-data; boundary=B"
		multipart = "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n" +
			"--B\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"x.txt\"\r\nContent-Type: text/plain\r\n\r\nfile\r\n" +
			"--B\r\nContent-Disposition: form-data; name=\"flag\"\r\n\r\ntrue\r\n--B--\r\n"
	)
	f.Add("a=1&b=2", form, "c=3&a=4")
	f.Add("flag=true&n=4&list=[1,2]&obj={\"k\":1}", form, "")
	f.Add("flag=True&n=4.0&list=[1,\"x\"]&obj=[]", form+"; charset=UTF-8", "n=\"4\"")
	f.Add(`drafts=[{"content":5}]&strict={"own":true,"deep":"x","extra":1}`, form, "")
	f.Add(`drafts=[{"content":"a","to":[1,2.5]},{"zzz":null}]`, form, "flag=1")
	f.Add("a=%ff&b=%zz", form, "")
	f.Add("a="+strings.Repeat("[", 40)+strings.Repeat("]", 40), form, "")
	f.Add("obj="+strings.Repeat(`{"k":`, 33)+"1"+strings.Repeat("}", 33), form, "")
	f.Add(multipart, multi, "b=2&upload=q")
	f.Add("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n", multi, "")
	f.Add("", multi, "a=1")
	f.Add("x", "multipart/form-data", "")
	f.Add(`{"a": 1}`, "application/json", "a=2")
	f.Add("a=1", "", "flag=false&&=x;y")
	f.Add("a=1&a=2&;=;", "APPLICATION/X-WWW-FORM-URLENCODED", "a=3&%c3%a9=%e2%82%ac")
	f.Add(strings.Repeat("k=v&", fuzzMaxBody/3), form, "")
	f.Add("a=x%00y&list=[\"\\u0000\"]&obj={\"k\":\"\\\\u0000\"}", form, "b=%07%1b%7f")
	f.Add("content=a%00&topic=%0a%0d&name=%c2%85", form, "flag=%00")
	f.Fuzz(func(t *testing.T, body, contentType, query string) {
		r := httptest.NewRequest(http.MethodPost, "/api/v1/fuzz", strings.NewReader(body))
		r.URL.RawQuery = query
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		p, err := decodeParams(r, fuzzMaxBody)
		if err != nil {
			fuzzCheckError(t, "decodeParams", err)
			return
		}
		if err := p.checkText(); err != nil {
			fuzzCheckError(t, "checkText", err)
			for name, v := range p.values {
				if strings.IndexByte(name, 0) >= 0 || strings.IndexByte(v, 0) >= 0 && name != "drafts" && name != "draft" || !freeText[name] && escapesNUL(v) {
					return
				}
			}
			t.Fatalf("checkText refused parameters without a null byte: %v", err)
		}

		present := make([]string, 0, len(p.values))
		for k, v := range p.values {
			if !utf8.ValidString(k) || !utf8.ValidString(v) {
				t.Fatalf("parameter %q=%q is not valid UTF-8", k, v)
			}
			present = append(present, k)
		}
		slices.Sort(present)
		if got := p.ignored(); !slices.Equal(got, present) && !(got == nil && len(present) == 0) {
			t.Fatalf("before any read, ignored() = %q, want %q", got, present)
		}

		// Read every other parameter present, and a few fixed names, cycling through the
		// accessors.
		toRead := []string{"a", "flag", "n", "list", "obj", "drafts", "strict", "missing"}
		for i, k := range present {
			if i%2 == 0 {
				toRead = append(toRead, k)
			}
		}
		read := map[string]bool{}
		for i, name := range toRead {
			read[name] = true
			raw, ok := p.values[name]
			var err error
			switch i % 12 {
			case 0:
				if p.has(name) != ok {
					t.Fatalf("has(%q) != presence", name)
				}
			case 1:
				v, got := p.str(name)
				if got != ok || v != raw {
					t.Fatalf("str(%q) = %q, %v; want %q, %v", name, v, got, raw, ok)
				}
			case 2:
				var v string
				v, err = p.requiredStr(name)
				if err == nil && v != raw {
					t.Fatalf("requiredStr(%q) = %q, want %q", name, v, raw)
				}
				if (err == nil) != ok {
					t.Fatalf("requiredStr(%q) error %v with presence %v", name, err, ok)
				}
			case 3:
				if v := p.optStr(name); (v != nil) != ok || (v != nil && *v != raw) {
					t.Fatalf("optStr(%q) = %v", name, v)
				}
			case 4:
				var b *bool
				b, err = p.boolean(name)
				if b != nil && trimJSONSpace(raw) != "true" && trimJSONSpace(raw) != "false" {
					t.Fatalf("boolean(%q) accepted %q", name, raw)
				}
			case 5:
				_, err = p.boolOr(name, true)
			case 6:
				var n *int64
				n, err = p.integer(name)
				if n != nil && strings.ContainsAny(raw, `."eE`) {
					t.Fatalf("integer(%q) accepted %q", name, raw)
				}
			case 7:
				_, err = p.requiredInt(name)
			case 8:
				var v *any
				v, err = jsonParam[any](p, name, false)
				if v != nil && !json.Valid([]byte(raw)) { // the depth bound: jsonparam's FuzzDecode
					t.Fatalf("jsonParam[any](%q) accepted %q", name, raw)
				}
			case 9:
				_, err = jsonParam[[]paramsDraft](p, name, true)
			case 10:
				_, err = requiredJSON[paramsEmbedded](p, name, true)
			case 11:
				_, err = jsonParam[map[string][]int64](p, name, false)
			}
			if err != nil {
				fuzzCheckError(t, name, err)
			}
		}
		// Reading again changes nothing.
		for _, name := range toRead {
			_, _ = jsonParam[json.RawMessage](p, name, true)
		}

		var want []string
		for _, k := range present {
			if !read[k] {
				want = append(want, k)
			}
		}
		got := p.ignored()
		if !slices.IsSorted(got) {
			t.Fatalf("ignored() is not sorted: %q", got)
		}
		if !slices.Equal(got, want) || (got != nil && len(got) == 0) {
			t.Fatalf("ignored() = %q, want %q", got, want)
		}
	})
}

// fuzzCheckError checks that err is a *chat.Error with a client status and a message.
func fuzzCheckError(t *testing.T, what string, err error) {
	t.Helper()
	var e *chat.Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %v (%T) is not a *chat.Error", what, err, err)
	}
	if s := e.HTTPStatus(); s < 400 || s > 499 {
		t.Fatalf("%s: status %d for %v", what, s, e)
	}
	if e.Code == chat.CodeInternal || e.Msg == "" {
		t.Fatalf("%s: error without code or message: %#v", what, e)
	}
}
