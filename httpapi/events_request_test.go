package httpapi

import (
	"bufio"
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pollHead is a request as loadgen and the Python client send it.
const pollHead = "GET /api/v1/events?queue_id=q1&last_event_id=4 HTTP/1.1\r\n" +
	"Host: chat.test\r\nUser-Agent: Go-http-client/1.1\r\nAuthorization: Basic dTpr\r\nAccept-Encoding: gzip\r\n\r\n"

// TestParsePollRequest: the parser of parked connections recognises the plain GET
// /api/v1/events and leaves everything else to net/http.
func TestParsePollRequest(t *testing.T) {
	t.Parallel()
	const auth = "Authorization: Basic dTpr\r\n"
	cases := []struct {
		name string
		in   string
		want pollRequest
		st   parseStatus
	}{
		{"a long-poll", pollHead, pollRequest{rawQuery: "queue_id=q1&last_event_id=4", authorization: "Basic dTpr", size: len(pollHead)}, parseOK},
		{"followed by a pipelined request", pollHead + "GET /api/v1/users/me HTTP/1.1\r\n",
			pollRequest{rawQuery: "queue_id=q1&last_event_id=4", authorization: "Basic dTpr", size: len(pollHead)}, parseOK},
		{"no query", "GET /api/v1/events HTTP/1.1\r\nHost: a\r\n" + auth + "\r\n", pollRequest{authorization: "Basic dTpr", size: 67}, parseOK},
		{"Connection: close, any case", "GET /api/v1/events?a=1 HTTP/1.1\r\nhost: a\r\n" + auth + "connection: keep-alive, Close\r\n\r\n",
			pollRequest{rawQuery: "a=1", authorization: "Basic dTpr", close: true, size: 102}, parseOK},
		{"spaces around a value", "GET /api/v1/events HTTP/1.1\r\nHost: a\r\nAuthorization: \t Basic dTpr \t\r\n\r\n",
			pollRequest{authorization: "Basic dTpr", size: 71}, parseOK},
		{"incomplete", pollHead[:40], pollRequest{}, parseMore},
		{"nothing yet", "", pollRequest{}, parseMore},
		{"incomplete request line", "GET /api/v1/ev", pollRequest{}, parseMore},
		{"another endpoint, incomplete", "GET /api/v1/users/me HTT", pollRequest{}, parseOther},
		{"another method", strings.Replace(pollHead, "GET", "DELETE", 1), pollRequest{}, parseOther},
		{"HEAD", strings.Replace(pollHead, "GET", "HEAD", 1), pollRequest{}, parseOther},
		{"HTTP/1.0", strings.Replace(pollHead, "HTTP/1.1", "HTTP/1.0", 1), pollRequest{}, parseOther},
		{"the web tree", strings.Replace(pollHead, "/api/v1/", "/json/", 1), pollRequest{}, parseOther},
		{"a longer path", strings.Replace(pollHead, "events?", "events/x?", 1), pollRequest{}, parseOther},
		{"an absolute URL", strings.Replace(pollHead, "/api", "http://chat.test/api", 1), pollRequest{}, parseOther},
		{"a fragment", strings.Replace(pollHead, "id=4", "id=4#x", 1), pollRequest{}, parseOther},
		{"a body", strings.Replace(pollHead, "\r\n\r\n", "\r\nContent-Length: 0\r\n\r\n", 1), pollRequest{}, parseOther},
		{"chunked", strings.Replace(pollHead, "\r\n\r\n", "\r\nTransfer-Encoding: chunked\r\n\r\n", 1), pollRequest{}, parseOther},
		{"an upgrade", strings.Replace(pollHead, "\r\n\r\n", "\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n", 1), pollRequest{}, parseOther},
		{"an expectation", strings.Replace(pollHead, "\r\n\r\n", "\r\nExpect: 100-continue\r\n\r\n", 1), pollRequest{}, parseOther},
		{"forwarded by another process", strings.Replace(pollHead, "\r\n\r\n", "\r\n"+forwardedHeader+": 1\r\n\r\n", 1), pollRequest{}, parseOther},
		{"no Host", strings.Replace(pollHead, "Host: chat.test\r\n", "", 1), pollRequest{}, parseOther},
		{"two Hosts", strings.Replace(pollHead, "\r\n\r\n", "\r\nHost: b\r\n\r\n", 1), pollRequest{}, parseOther},
		{"an empty Host", "GET /api/v1/events? HTTP/1.1\r\nHost:\r\nAuthorization: x\r\n\r\n", pollRequest{}, parseOther},
		{"a bad Host", strings.Replace(pollHead, "chat.test", "chat test", 1), pollRequest{}, parseOther},
		{"no credentials", strings.Replace(pollHead, auth, "", 1), pollRequest{}, parseOther},
		{"two Authorizations", strings.Replace(pollHead, "\r\n\r\n", "\r\n"+auth+"\r\n", 1), pollRequest{}, parseOther},
		{"a folded line", strings.Replace(pollHead, "\r\nAccept", "\r\n Accept", 1), pollRequest{}, parseOther},
		{"a space before the colon", strings.Replace(pollHead, "Host:", "Host :", 1), pollRequest{}, parseOther},
		{"a bare LF", strings.Replace(pollHead, "gzip\r\n", "gzip\n", 1), pollRequest{}, parseOther},
		{"a control character", strings.Replace(pollHead, "gzip", "gz\x01ip", 1), pollRequest{}, parseOther},
		{"a control character in the query", strings.Replace(pollHead, "id=4", "id=\x7f", 1), pollRequest{}, parseOther},
		{"an unknown Connection option", strings.Replace(pollHead, "\r\n\r\n", "\r\nConnection: te\r\n\r\n", 1), pollRequest{}, parseOther},
		{"too long", "GET /api/v1/events?" + strings.Repeat("a", maxPollHead), pollRequest{}, parseOther},
		{"too many headers", strings.Replace(pollHead, "\r\n\r\n", strings.Repeat("\r\nX-A: b", maxPollHeaders)+"\r\n\r\n", 1), pollRequest{}, parseOther},
		{"HTTP/2's preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", pollRequest{}, parseOther},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, st := parsePollRequest([]byte(c.in))
			if st != c.st {
				t.Fatalf("status %d, want %d", st, c.st)
			}
			if st != parseOK {
				return
			}
			if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(pollRequest{})); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			checkLikeNetHTTP(t, []byte(c.in), got)
		})
	}
}

// checkLikeNetHTTP fails unless net/http reads the request at the start of b as req says.
func checkLikeNetHTTP(t *testing.T, b []byte, req pollRequest) {
	t.Helper()
	br := bufio.NewReaderSize(bytes.NewReader(b), 2*maxPollHead)
	r, err := http.ReadRequest(br)
	if err != nil {
		t.Fatalf("accepted %q, which net/http refuses: %v", b, err)
	}
	got := pollRequest{
		rawQuery: r.URL.RawQuery, authorization: r.Header.Get("Authorization"), close: r.Close,
		size: len(b) - br.Buffered(),
	}
	if r.Method != http.MethodGet || r.URL.Path != pollPath || r.URL.RawPath != "" || r.ContentLength != 0 ||
		len(r.Header.Values("Authorization")) != 1 || r.Host == "" || r.ProtoMinor != 1 || got != req {
		t.Fatalf("%q: net/http reads %s %q %+v (host %q), the parser %+v", b, r.Method, r.URL, got, r.Host, req)
	}
}

// FuzzParsePollRequest: on any bytes the parser does not panic, asks for more only while the
// head may still be a GET /events under the size bound, and accepts only what net/http reads
// the same way (method, path, query, credentials, keep-alive, length, no body).
func FuzzParsePollRequest(f *testing.F) {
	f.Add([]byte(pollHead))
	f.Add([]byte(pollHead + pollHead))
	f.Add([]byte("GET /api/v1/events HTTP/1.1\r\nHost: a\r\nAuthorization: Basic x\r\nConnection: close\r\n\r\n"))
	f.Add([]byte(strings.Replace(pollHead, "\r\n\r\n", "\r\nContent-Length: 3\r\n\r\nabc", 1)))
	f.Add([]byte("GET /api/v1/events? HTTP/1.1\r\nHost:\r\nAuthoriZAtion:\r\n\r\n"))
	f.Add([]byte("GET /api/v1/events?%zz HTTP/1.1\r\nHost: [::1]:80\r\nAuthorization: b\r\n\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		req, st := parsePollRequest(b)
		switch st {
		case parseMore:
			if len(b) >= maxPollHead || bytes.Contains(b, []byte("\r\n\r\n")) {
				t.Fatalf("%q: asks for more", b)
			}
			if r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(b))); err == nil {
				t.Fatalf("%q: asks for more, but net/http reads a request: %s %s", b, r.Method, r.URL)
			}
		case parseOK:
			if req.size > maxPollHead || req.size > len(b) {
				t.Fatalf("%q: size %d", b, req.size)
			}
			checkLikeNetHTTP(t, b, req)
		}
	})
}

// checkPlainPollQuery: when plainPollQuery takes a query (printable ASCII, as requestTarget
// passes), eventsParams decodes it to the same parameters, with nothing ignored.
func checkPlainPollQuery(t *testing.T, q string) (taken bool) {
	t.Helper()
	for i := 0; i < len(q); i++ {
		if q[i] <= ' ' || q[i] >= 0x7f || q[i] == '#' {
			return false // requestTarget refuses it
		}
	}
	var last int64
	got, ok := plainPollQuery(q, &last)
	if !ok {
		return false
	}
	prm := &params{values: map[string]string{}, read: map[string]struct{}{}}
	if err := parseURLEncoded(q, prm.values); err != nil {
		t.Fatalf("%q: plain, but parseURLEncoded: %v", q, err)
	}
	if err := prm.checkText(); err != nil {
		t.Fatalf("%q: plain, but checkText: %v", q, err)
	}
	want, err := eventsParams(prm)
	if err != nil {
		t.Fatalf("%q: plain, but eventsParams: %v", q, err)
	}
	if ign := prm.ignored(); len(ign) > 0 {
		t.Fatalf("%q: plain, but eventsParams ignores %v", q, ign)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%q: plainPollQuery differs from eventsParams (-want +got):\n%s", q, diff)
	}
	return true
}

// TestPlainPollQuery: the usual long-poll query is decoded without the params maps, exactly
// as eventsParams decodes it; anything else is left to eventsParams.
func TestPlainPollQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		q     string
		plain bool
	}{
		{"queue_id=node-1:1b2c&last_event_id=4", true},
		{"last_event_id=-1&queue_id=q", true},
		{"queue_id=q&last_event_id=0", true},
		{"queue_id=q&last_event_id=9223372036854775807", true},
		{"queue_id=q&last_event_id=9223372036854775808", false}, // out of range
		{"queue_id=q&last_event_id=04", false},                  // not JSON
		{"queue_id=q&last_event_id=1.0", false},
		{"queue_id=q&last_event_id=-", false},
		{"queue_id=q", false},
		{"last_event_id=3", false},
		{"queue_id=q%3A1&last_event_id=3", false}, // escaped
		{"queue_id=a+b&last_event_id=3", false},
		{"queue_id=q&last_event_id=3&dont_block=true", false},
		{"queue_id=q&queue_id=r&last_event_id=3", false},
		{"queue_id=q&&last_event_id=3", false},
		{"queue_id=&last_event_id=3", false},
		{"queue_id&last_event_id=3", false},
		{"", false},
	} {
		if got := checkPlainPollQuery(t, tc.q); got != tc.plain {
			t.Errorf("%q: plain %v, want %v", tc.q, got, tc.plain)
		}
	}
}

// FuzzPlainPollQuery: every query plainPollQuery takes, eventsParams decodes the same way.
func FuzzPlainPollQuery(f *testing.F) {
	f.Add("queue_id=node-1:1b2c&last_event_id=4")
	f.Add("last_event_id=-0&queue_id=q")
	f.Add("queue_id=q&last_event_id=1e3")
	f.Fuzz(func(t *testing.T, q string) {
		checkPlainPollQuery(t, q)
	})
}
