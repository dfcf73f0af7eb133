package httpapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

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
