package main

import (
	"bufio"
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

// close drops the connection (the next get dials again).
func (p *rawPoll) close() {
	if p.conn != nil {
		p.stop()
		p.conn.Close()
		p.conn, p.br = nil, nil
	}
}

// events fetches the queue's events after last, over the raw connection when there is one.
func (p *poller) events(ctx context.Context, out any) error {
	if p.raw == nil {
		return p.cl.do(ctx, http.MethodGet, "events", url.Values{
			"queue_id": {p.queue}, "last_event_id": {strconv.FormatInt(p.last, 10)},
		}, out)
	}
	status, body, err := p.raw.get(ctx, p.queue, p.last)
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return &statusError{status: status, body: string(body)}
	}
	return json.Unmarshal(body, out)
}
