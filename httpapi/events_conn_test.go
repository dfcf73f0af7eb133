package httpapi_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/ratelimit"
)

// rawClient speaks HTTP/1.1 over one TCP connection, writing requests as given.
type rawClient struct {
	t    *testing.T
	conn net.Conn
	br   *bufio.Reader
	host string
}

func dialRaw(t *testing.T, base string) *rawClient {
	t.Helper()
	host := strings.TrimPrefix(base, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &rawClient{t: t, conn: conn, br: bufio.NewReader(conn), host: host}
}

// request is the head of a GET of path (under /api/v1/) with the given credentials and extra
// header lines.
func (c *rawClient) request(path, email, key string, extra ...string) string {
	auth := base64.StdEncoding.EncodeToString([]byte(email + ":" + key))
	head := "GET /api/v1/" + path + " HTTP/1.1\r\nHost: " + c.host + "\r\nAuthorization: Basic " + auth + "\r\n"
	for _, h := range extra {
		head += h + "\r\n"
	}
	return head + "\r\n"
}

func (c *rawClient) write(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.conn, s); err != nil {
		c.t.Fatal(err)
	}
}

// read reads one response and decodes its JSON body.
func (c *rawClient) read() (*http.Response, map[string]any) {
	c.t.Helper()
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		c.t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	return resp, body
}

// pollQuery is the query of a GET /events.
func pollQuery(queue string, last int64) string {
	return "events?" + url.Values{"queue_id": {queue}, "last_event_id": {strconv.FormatInt(last, 10)}}.Encode()
}

// sendTo sends a message to the organization's first channel.
func sendTo(t *testing.T, svc *chat.Service, org *benchorg.Org, content string) {
	t.Helper()
	topic := "conn"
	if _, err := svc.SendMessage(t.Context(), org.Admin, chat.SendMessageParams{
		Type: "stream", ChannelID: &org.Channels[0], Topic: &topic, Content: content,
	}); err != nil {
		t.Fatal(err)
	}
}

// lastEventID is the id of the single event of a GET /events body.
func lastEventID(t *testing.T, body map[string]any) int64 {
	t.Helper()
	evs, _ := body["events"].([]any)
	if body["result"] != "success" || len(evs) != 1 {
		t.Fatalf("body %v, want one event", body)
	}
	return int64(evs[0].(map[string]any)["id"].(float64))
}

// parkedQueue registers member 2's message queue and long-polls it on a new raw connection
// until the server parks the connection; a message then answers that poll, and the
// connection serves the client's next polls itself. poll(last) is such a poll's request;
// before is the queue's last event id before the message, event the message's.
func parkedQueue(t *testing.T, base string, svc *chat.Service, org *benchorg.Org) (c *rawClient, poll func(last int64) string, before, event int64) {
	t.Helper()
	reg, err := svc.RegisterQueue(t.Context(), chat.Actor{UserID: org.Members[2]}, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	c = dialRaw(t, base)
	poll = func(last int64) string { return c.request(pollQuery(*reg.QueueID, last), org.Emails[2], org.Keys[2]) }
	c.write(poll(reg.LastEventID))
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "first")
	_, body := c.read()
	return c, poll, reg.LastEventID, lastEventID(t, body)
}

// TestParkedConnectionServesNextPolls: after a parked long-poll's response, the connection
// serves the client's next GET /events itself (the same response: headers, body, length),
// and hands anything else to net/http with the bytes it read: a request pipelined behind a
// long-poll, one with bad credentials, a malformed one. Connection: close is honoured.
func TestParkedConnectionServesNextPolls(t *testing.T) {
	t.Parallel()
	base, svc, org := parkedServer(t, time.Hour, 0)
	ctx := t.Context()
	me := chat.Actor{UserID: org.Members[0]}
	reg, err := svc.RegisterQueue(ctx, me, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, base)
	email, key := org.Emails[0], org.Keys[0]
	last := reg.LastEventID
	// Three rounds: net/http parks the first, the connection serves the next ones.
	for round := range 3 {
		c.write(c.request(pollQuery(*reg.QueueID, last), email, key))
		waitLongPolls(t, svc, 1)
		sendTo(t, svc, org, "round "+strconv.Itoa(round))
		resp, body := c.read()
		last = lastEventID(t, body)
		if resp.StatusCode != http.StatusOK || resp.ContentLength <= 0 || resp.Close ||
			resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Cache-Control") == "" || resp.Header.Get("Date") == "" {
			t.Fatalf("round %d: %d, length %d, close %v, headers %v", round, resp.StatusCode, resp.ContentLength, resp.Close, resp.Header)
		}
	}
	// A request pipelined behind a long-poll goes to net/http once the long-poll is answered.
	c.write(c.request(pollQuery(*reg.QueueID, last), email, key) + c.request("users/me", email, key))
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "pipelined")
	_, body := c.read()
	last = lastEventID(t, body)
	if _, body := c.read(); body["result"] != "success" || body["email"] == nil {
		t.Fatalf("GET /users/me pipelined behind a long-poll: %v", body)
	}
	// net/http parks the next long-poll again; bad credentials on the parked connection get
	// net/http's answer.
	c.write(c.request(pollQuery(*reg.QueueID, last), email, key))
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "again")
	_, body = c.read()
	last = lastEventID(t, body)
	c.write(c.request(pollQuery(*reg.QueueID, last), email, "wrong"+key[5:]))
	if resp, body := c.read(); resp.StatusCode != http.StatusUnauthorized || body["code"] != "UNAUTHORIZED" {
		t.Fatalf("bad credentials: %d %v", resp.StatusCode, body)
	}
	// Connection: close.
	c.write(c.request(pollQuery(*reg.QueueID, last), email, key))
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "one more")
	_, body = c.read()
	last = lastEventID(t, body)
	c.write(c.request(pollQuery(*reg.QueueID, last), email, key, "Connection: close"))
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "last")
	resp, body := c.read()
	lastEventID(t, body)
	if !resp.Close {
		t.Errorf("the response to Connection: close does not say so: %v", resp.Header)
	}
	if n, err := c.br.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("after Connection: close: read %d bytes, %v; want EOF", n, err)
	}
}

// TestParkedConnectionMalformedRequest: a malformed request read by a parked connection gets
// net/http's own answer.
func TestParkedConnectionMalformedRequest(t *testing.T) {
	t.Parallel()
	base, svc, org := parkedServer(t, time.Hour, 0)
	reg, err := svc.RegisterQueue(t.Context(), chat.Actor{UserID: org.Members[1]}, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, base)
	c.write(c.request(pollQuery(*reg.QueueID, reg.LastEventID), org.Emails[1], org.Keys[1]))
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "first")
	_, body := c.read()
	last := lastEventID(t, body)
	c.write(c.request(pollQuery(*reg.QueueID, last), org.Emails[1], org.Keys[1], "Bad Header: x"))
	resp, err := http.ReadResponse(c.br, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed request: %d, want net/http's 400", resp.StatusCode)
	}
}

// TestParkedConnectionClosedWithListener: closing the server's listener closes the parked
// connections that wait for their client's next request.
func TestParkedConnectionClosedWithListener(t *testing.T) {
	t.Parallel()
	base, svc, org, pl := parkedServerListener(t, time.Hour, 0)
	c, _, _, _ := parkedQueue(t, base, svc, org)
	c.write("GET /api/v1/events?queue_id=") // part of the next request
	if err := pl.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err := c.br.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Errorf("after the listener's Close: read %d bytes, %v; want the connection closed", n, err)
	}
}

// TestParkedConnectionRateLimit: a GET /events served by a parked connection counts against
// the caller's API budget and reports it as net/http's path does; past the budget it is
// answered RATE_LIMIT_HIT, and the connection stays open.
func TestParkedConnectionRateLimit(t *testing.T) {
	t.Parallel()
	base, svc, org, _ := parkedServerLimited(t, time.Hour, 0, ratelimit.Rule{Window: time.Hour, Max: 2})
	reg, err := svc.RegisterQueue(t.Context(), chat.Actor{UserID: org.Members[0]}, chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, base)
	last := reg.LastEventID
	for round, remaining := range []string{"1", "0"} { // net/http parks the first, the connection serves the second
		c.write(c.request(pollQuery(*reg.QueueID, last), org.Emails[0], org.Keys[0]))
		waitLongPolls(t, svc, 1)
		sendTo(t, svc, org, "round "+strconv.Itoa(round))
		resp, body := c.read()
		last = lastEventID(t, body)
		if got := resp.Header.Get("X-RateLimit-Remaining"); got != remaining || resp.Header.Get("X-RateLimit-Limit") != "2" {
			t.Fatalf("round %d: rate-limit headers %v, want %s remaining of 2", round, resp.Header, remaining)
		}
	}
	c.write(c.request(pollQuery(*reg.QueueID, last), org.Emails[0], org.Keys[0]))
	resp, body := c.read()
	if resp.StatusCode != http.StatusTooManyRequests || body["code"] != "RATE_LIMIT_HIT" || resp.Header.Get("Retry-After") == "" ||
		resp.Header.Get("X-RateLimit-Remaining") != "0" || resp.Close {
		t.Fatalf("past the budget: %d %v %v", resp.StatusCode, resp.Header, body)
	}
	c.write(c.request("users/me", org.Emails[0], org.Keys[0]))
	if resp, body := c.read(); resp.StatusCode != http.StatusTooManyRequests || body["code"] != "RATE_LIMIT_HIT" {
		t.Fatalf("the next request over the same connection: %d %v", resp.StatusCode, body)
	}
}

// TestParkedConnectionPipelinedPolls: on a connection that serves its client's long-polls
// itself, two GET /events written at once are answered in order (the second once the first
// is), and a request that arrives in pieces, or while the previous response is on its way,
// is served once complete.
func TestParkedConnectionPipelinedPolls(t *testing.T) {
	t.Parallel()
	base, svc, org := parkedServer(t, time.Hour, 0)
	c, pollAt, _, last := parkedQueue(t, base, svc, org)
	poll := func() string { return pollAt(last) }
	// Two polls at once: both acknowledge last, so both get the next message.
	c.write(poll() + poll())
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "second")
	for i := range 2 {
		resp, body := c.read()
		if got := lastEventID(t, body); resp.StatusCode != http.StatusOK || got != last+1 {
			t.Fatalf("pipelined poll %d: %d, event %d, want %d", i, resp.StatusCode, got, last+1)
		}
	}
	last++
	// A poll in three pieces, then the next one written before the message is sent.
	req := poll()
	for _, part := range []string{req[:10], req[10:40], req[40:]} {
		c.write(part)
		time.Sleep(5 * time.Millisecond) // lets each piece arrive alone (not timing the result)
	}
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "third")
	_, body := c.read()
	last = lastEventID(t, body)
	c.write(poll())
	waitLongPolls(t, svc, 1)
	sendTo(t, svc, org, "fourth")
	if _, body = c.read(); lastEventID(t, body) != last+1 {
		t.Fatalf("after the split poll: %v", body)
	}
}

// TestParkedConnectionPipelinedBurst: a burst of pipelined GET /events longer than the
// connection's read buffer (maxPollHead) is answered in full: what the first read could not
// take is read before the connection waits for the socket again (no readiness edge comes
// for bytes that had already arrived).
func TestParkedConnectionPipelinedBurst(t *testing.T) {
	t.Parallel()
	base, svc, org := parkedServer(t, time.Hour, 0)
	c, pollAt, before, want := parkedQueue(t, base, svc, org)
	// Each poll below acknowledges only what came before the message, so each is answered at
	// once with it.
	poll := pollAt(before)
	const readBuffer = 4 << 10 // the connection's read buffer: maxPollHead
	n := 3*readBuffer/len(poll) + 1
	c.write(strings.Repeat(poll, n))
	if err := c.conn.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		resp, body := c.read()
		if got := lastEventID(t, body); resp.StatusCode != http.StatusOK || got != want {
			t.Fatalf("pipelined poll %d of %d: %d, event %d, want %d", i, n, resp.StatusCode, got, want)
		}
	}
}
