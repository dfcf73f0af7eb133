// Package smtptest runs a real SMTP server in the test's process (github.com/emersion/go-smtp)
// and keeps the messages it receives, so that tests can check the mail the server sends.
package smtptest

import (
	"encoding/base64"
	"errors"
	"io"
	"mime"
	mpart "mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	smtp "github.com/emersion/go-smtp"
)

// Message is one received message: its envelope and raw RFC 5322 data.
type Message struct {
	From string
	To   []string
	Data string
}

// Server is a running SMTP server on 127.0.0.1.
type Server struct {
	Host string
	Port int

	mu       sync.Mutex
	messages []Message
	arrived  chan struct{}
}

// Start starts a server for the test; it stops with the test.
func Start(t testing.TB) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtptest: %v", err)
	}
	s := &Server{arrived: make(chan struct{}, 1)}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "localhost"
	srv.ReadTimeout, srv.WriteTimeout = 10*time.Second, 10*time.Second
	srv.MaxMessageBytes = 1 << 20
	host, port, _ := net.SplitHostPort(l.Addr().String())
	s.Host = host
	s.Port, _ = strconv.Atoi(port)
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(l) }()
	t.Cleanup(func() { srv.Close(); <-done })
	return s
}

// Messages returns the messages received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Wait waits up to d for at least n messages and returns those received.
func (s *Server) Wait(n int, d time.Duration) []Message {
	deadline := time.After(d)
	for {
		if m := s.Messages(); len(m) >= n {
			return m
		}
		select {
		case <-s.arrived:
		case <-deadline:
			return s.Messages()
		}
	}
}

type session struct {
	s    *Server
	from string
	to   []string
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }

func (x *session) Mail(from string, _ *smtp.MailOptions) error { x.from = from; return nil }

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error { x.to = append(x.to, to); return nil }

func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	x.s.mu.Lock()
	x.s.messages = append(x.s.messages, Message{From: x.from, To: x.to, Data: string(b)})
	x.s.mu.Unlock()
	select {
	case x.s.arrived <- struct{}{}:
	default:
	}
	return nil
}

// Parts parses the message's data and returns its header and its text bodies by media type
// ("text/plain", "text/html"), decoded (quoted-printable, base64): the one body of a simple
// message, or every part of a multipart one. multipart is the message's own multipart media
// type ("multipart/alternative"), or "" for a simple message.
func (m Message) Parts() (header mail.Header, multipart string, bodies map[string]string, err error) {
	msg, err := mail.ReadMessage(strings.NewReader(m.Data))
	if err != nil {
		return nil, "", nil, err
	}
	bodies = map[string]string{}
	typ, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		return nil, "", nil, err
	}
	if !strings.HasPrefix(typ, "multipart/") {
		b, err := decodeBody(msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
		bodies[typ] = b
		return msg.Header, "", bodies, err
	}
	r := mpart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextRawPart()
		if errors.Is(err, io.EOF) {
			return msg.Header, typ, bodies, nil
		}
		if err != nil {
			return nil, "", nil, err
		}
		pt, _, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if err != nil {
			return nil, "", nil, err
		}
		if bodies[pt], err = decodeBody(p.Header.Get("Content-Transfer-Encoding"), p); err != nil {
			return nil, "", nil, err
		}
	}
}

// decodeBody reads a body in its transfer encoding.
func decodeBody(encoding string, r io.Reader) (string, error) {
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, err := io.ReadAll(r)
	return string(b), err
}
