package httpapi

import (
	"bytes"

	"golang.org/x/net/http/httpguts"
)

// The request parser of parked connections (events_conn.go). After answering a long-poll, a
// parked connection reads the client's next request itself and serves it when it is a plain
// GET /api/v1/events; anything else (another endpoint, a body, an unusual header, HTTP/1.0,
// a malformed request) goes back to net/http with the bytes read so far, and net/http parses
// it as it would have. So this parser only has to recognise the one simple shape exactly; it
// never answers a malformed request itself, and every byte it accepts, net/http's own
// parser reads the same way (FuzzParsePollRequest checks it against http.ReadRequest).

// maxPollHead bounds the head of a request that a parked connection reads itself; a longer
// one goes to net/http (whose own bound, http.Server.MaxHeaderBytes, then applies).
const maxPollHead = 4 << 10

// maxPollHeaders bounds the header lines of such a request.
const maxPollHeaders = 32

// pollPath is the path of the requests that parked connections serve themselves.
const pollPath = apiPrefix + "events"

// pollRequest is a GET /api/v1/events request read off a parked connection.
type pollRequest struct {
	rawQuery      string
	authorization string
	// close: the client sent Connection: close.
	close bool
	// size is the length of the request (its head: it has no body).
	size int
}

// parseStatus is what parsePollRequest made of the bytes.
type parseStatus int

const (
	// parseMore: the head is not complete yet (and not known to be something else).
	parseMore parseStatus = iota
	// parseOther: not a request this parser serves: net/http takes it.
	parseOther
	// parseOK: a GET /api/v1/events to serve.
	parseOK
)

// parsePollRequest parses the request at the start of b.
func parsePollRequest(b []byte) (pollRequest, parseStatus) {
	var req pollRequest
	end := bytes.Index(b, []byte("\r\n\r\n"))
	if bareLF(b, end) {
		return req, parseOther // net/http also ends lines with a bare LF
	}
	if end < 0 {
		if len(b) >= maxPollHead || !plausiblePrefix(b) {
			return req, parseOther
		}
		return req, parseMore
	}
	if end+4 > maxPollHead {
		return req, parseOther
	}
	req.size = end + 4
	line, rest, _ := bytes.Cut(b[:end+2], []byte("\r\n"))
	target, ok := requestTarget(line)
	if !ok {
		return req, parseOther
	}
	req.rawQuery = target
	if !parsePollHeaders(rest, &req) {
		return req, parseOther
	}
	return req, parseOK
}

// bareLF reports whether a line of the head (up to end, or all of b when end < 0) ends in a
// LF without a CR.
func bareLF(b []byte, end int) bool {
	if end >= 0 {
		b = b[:end+4]
	}
	for i := bytes.IndexByte(b, '\n'); i >= 0; {
		if i == 0 || b[i-1] != '\r' {
			return true
		}
		b = b[i+1:]
		i = bytes.IndexByte(b, '\n')
	}
	return false
}

// plausiblePrefix reports whether an incomplete head may still become a GET /events: a
// request line that already says otherwise goes to net/http at once.
func plausiblePrefix(b []byte) bool {
	const start = "GET " + pollPath
	n := min(len(b), len(start))
	return string(b[:n]) == start[:n]
}

// requestTarget checks the request line (GET /api/v1/events[?query] HTTP/1.1) and returns
// the raw query.
func requestTarget(line []byte) (rawQuery string, ok bool) {
	const prefix, proto = "GET " + pollPath, " HTTP/1.1"
	if !bytes.HasPrefix(line, []byte(prefix)) || !bytes.HasSuffix(line, []byte(proto)) || len(line) < len(prefix)+len(proto) {
		return "", false
	}
	target := line[len(prefix) : len(line)-len(proto)]
	if len(target) == 0 {
		return "", true
	}
	if target[0] != '?' {
		return "", false
	}
	for _, c := range target[1:] {
		// Printable ASCII without space; no fragment (net/http would keep it in the query).
		if c <= ' ' || c >= 0x7f || c == '#' {
			return "", false
		}
	}
	return string(target[1:]), true
}

// parsePollHeaders reads the header lines (each ending in CRLF) into req, and reports
// whether the request is one to serve: exactly one Host and one Authorization, Connection
// naming only close or keep-alive, nothing announcing a body, an upgrade or an expectation.
func parsePollHeaders(b []byte, req *pollRequest) bool {
	hosts, auths, n := 0, 0, 0
	for len(b) > 0 {
		var line []byte
		line, b, _ = bytes.Cut(b, []byte("\r\n"))
		if n++; n > maxPollHeaders {
			return false
		}
		name, value, ok := headerField(line)
		if !ok {
			return false
		}
		switch {
		case isHeader(name, "Host"):
			hosts++
			if len(value) == 0 || !httpguts.ValidHostHeader(string(value)) {
				return false
			}
		case isHeader(name, "Authorization"):
			auths++
			req.authorization = string(value)
		case isHeader(name, "Connection"):
			close, ok := connectionTokens(value)
			if !ok {
				return false
			}
			req.close = req.close || close
		case refusedHeader(name):
			return false
		}
	}
	return hosts == 1 && auths == 1
}

// isHeader compares a header name, ignoring case.
func isHeader(name []byte, want string) bool {
	return len(name) == len(want) && bytes.EqualFold(name, []byte(want))
}

// refusedHeader: headers that announce a body, an upgrade, an expectation or a forwarded
// request; net/http handles those.
func refusedHeader(name []byte) bool {
	for _, h := range []string{"Content-Length", "Transfer-Encoding", "Expect", "Upgrade", "Trailer", "Http2-Settings", forwardedHeader} {
		if isHeader(name, h) {
			return true
		}
	}
	return false
}

// headerField splits one header line into its name and its value (without surrounding
// spaces and tabs); ok is false for anything net/http might read differently (a folded
// line, a space before the colon, invalid characters).
func headerField(line []byte) (name, value []byte, ok bool) {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return nil, nil, false
	}
	name = line[:colon]
	for _, c := range name {
		if !httpguts.IsTokenRune(rune(c)) {
			return nil, nil, false
		}
	}
	value = bytes.Trim(line[colon+1:], " \t")
	for _, c := range value {
		if (c < ' ' && c != '\t') || c == 0x7f { // as httpguts.ValidHeaderFieldValue
			return nil, nil, false
		}
	}
	return name, value, true
}

// connectionTokens reads a Connection header: whether it says close, and whether it names
// nothing but close and keep-alive.
func connectionTokens(v []byte) (close, ok bool) {
	for tok := range bytes.SplitSeq(v, []byte(",")) {
		switch tok = bytes.Trim(tok, " \t"); {
		case isHeader(tok, "close"):
			close = true
		case isHeader(tok, "keep-alive"):
		default:
			return false, false
		}
	}
	return close, true
}
