package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// rawPoll is a long-polling client's own keep-alive connection: its GET /events go over it
// without http.Client, whose transport hands every request and response between two
// goroutines per connection; with 10,000 long-polls loadgen's side cost as much CPU as the
// server's, on the same cores. The responses are read by net/http's parser all the same.
type rawPoll struct {
	addr string // host:port
	host string // the Host header
	auth string // the Authorization header's value
	conn net.Conn
	br   *bufio.Reader
	req  []byte // the request being written
	body []byte // the response's body (reused)
	stop func() bool
}

// newRawPoll returns the raw poller of cl, or nil when the server's URL is not plain HTTP.
func newRawPoll(cl *client) *rawPoll {
	u, err := url.Parse(cl.base)
	if err != nil || u.Scheme != "http" || u.Path != "" && u.Path != "/" {
		return nil
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "80")
	}
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(cl.email+":"+cl.key))
	return &rawPoll{addr: addr, host: u.Host, auth: auth}
}

// get sends GET /events for queue after last and returns the status and the body (valid
// until the next call).
func (p *rawPoll) get(ctx context.Context, queue string, last int64) (int, []byte, error) {
	if p.conn == nil {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", p.addr)
		if err != nil {
			return 0, nil, err
		}
		p.conn, p.br = conn, bufio.NewReaderSize(conn, 4<<10)
		// Ending the run ends the wait: the read fails at once.
		p.stop = context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	}
	p.req = append(p.req[:0], "GET /api/v1/events?queue_id="...)
	p.req = append(p.req, url.QueryEscape(queue)...)
	p.req = append(p.req, "&last_event_id="...)
	p.req = strconv.AppendInt(p.req, last, 10)
	p.req = append(p.req, " HTTP/1.1\r\nHost: "...)
	p.req = append(p.req, p.host...)
	p.req = append(p.req, "\r\nAuthorization: "...)
	p.req = append(p.req, p.auth...)
	p.req = append(p.req, "\r\nUser-Agent: loadgen\r\n\r\n"...)
	status, err := p.roundTrip()
	if err != nil {
		p.close()
		return 0, nil, err
	}
	return status, p.body, nil
}

// roundTrip writes p.req and reads the response into p.body.
func (p *rawPoll) roundTrip() (int, error) {
	if _, err := p.conn.Write(p.req); err != nil {
		return 0, err
	}
	if status, ok, err := p.readPlain(); ok || err != nil {
		return status, err
	}
	resp, err := http.ReadResponse(p.br, nil)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.ContentLength >= 0 {
		if cap(p.body) < int(resp.ContentLength) {
			p.body = make([]byte, resp.ContentLength)
		}
		p.body = p.body[:resp.ContentLength]
		_, err = io.ReadFull(resp.Body, p.body)
	} else {
		p.body, err = io.ReadAll(resp.Body)
	}
	if err != nil {
		return 0, err
	}
	if resp.Close {
		p.close()
	}
	return resp.StatusCode, nil
}

// readPlain reads a response whose head fits the read buffer and gives a Content-Length
// without a Transfer-Encoding (every response of a parked connection) without
// http.ReadResponse and its header map; ok is false, with nothing consumed, for any other.
func (p *rawPoll) readPlain() (status int, ok bool, err error) {
	if _, err := p.br.Peek(1); err != nil {
		return 0, false, err
	}
	var head []byte
	for {
		b, _ := p.br.Peek(p.br.Buffered())
		if end := bytes.Index(b, []byte("\r\n\r\n")); end >= 0 {
			head = b[:end+4]
			break
		}
		if len(b) == p.br.Size() {
			return 0, false, nil
		}
		if _, err := p.br.Peek(len(b) + 1); err != nil {
			return 0, false, err
		}
	}
	line, rest, _ := bytes.Cut(head, []byte("\r\n"))
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, false, nil
	}
	if status, err = strconv.Atoi(string(line[9:12])); err != nil {
		return 0, false, nil
	}
	length, closing := -1, false
	for len(rest) > 2 {
		var field []byte
		field, rest, _ = bytes.Cut(rest, []byte("\r\n"))
		name, value, _ := bytes.Cut(field, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, false, nil
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return 0, false, nil
		case bytes.EqualFold(name, []byte("Connection")):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	if length < 0 {
		return 0, false, nil
	}
	_, _ = p.br.Discard(len(head))
	if cap(p.body) < length {
		p.body = make([]byte, length)
	}
	p.body = p.body[:length]
	if _, err := io.ReadFull(p.br, p.body); err != nil {
		return 0, true, err
	}
	if closing {
		p.close()
	}
	return status, true, nil
}

// close drops the connection (the next get dials again).
func (p *rawPoll) close() {
	if p.conn != nil {
		p.stop()
		p.conn.Close()
		p.conn, p.br = nil, nil
	}
}

// events fetches the body of the queue's events after last, over the raw connection when
// there is one (the body is then valid until the next call).
func (p *poller) events(ctx context.Context) ([]byte, error) {
	if p.raw == nil {
		var body json.RawMessage
		err := p.cl.do(ctx, http.MethodGet, "events", url.Values{
			"queue_id": {p.queue}, "last_event_id": {strconv.FormatInt(p.last, 10)},
		}, &body)
		return body, err
	}
	status, body, err := p.raw.get(ctx, p.queue, p.last)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, &statusError{status: status, body: string(body)}
	}
	return body, nil
}
