package mail

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTPConfig is the server's mail settings.
type SMTPConfig struct {
	Host string
	Port int
	// Username and Password enable SMTP authentication (PLAIN, or LOGIN when the server
	// offers only that); empty: none.
	Username, Password string
	// TLS is "starttls" (use STARTTLS when the server offers it), "required" (refuse a
	// server without STARTTLS), "ssl" (implicit TLS) or "none".
	TLS string
	// From is the sender address, e.g. "Zulip <noreply@chat.example.com>".
	From string
	// Timeout bounds a delivery (default 30s).
	Timeout time.Duration
}

// SMTP sends mail through an SMTP server.
type SMTP struct {
	cfg  SMTPConfig
	opts []gomail.Option
}

// NewSMTP checks cfg and returns a sender.
func NewSMTP(cfg SMTPConfig) (*SMTP, error) {
	if cfg.Host == "" {
		return nil, fmt.Errorf("mail: no SMTP host")
	}
	if cfg.From == "" {
		return nil, fmt.Errorf("mail: no sender address")
	}
	if cfg.Port == 0 {
		cfg.Port = 25
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	opts := []gomail.Option{gomail.WithPort(cfg.Port), gomail.WithTimeout(cfg.Timeout)}
	switch cfg.TLS {
	case "", "starttls":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	case "required":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case "ssl":
		opts = append(opts, gomail.WithSSL())
	case "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		return nil, fmt.Errorf("mail: unknown TLS mode %q (starttls, required, ssl, none)", cfg.TLS)
	}
	if cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(cfg.Username), gomail.WithPassword(cfg.Password))
	}
	return &SMTP{cfg: cfg, opts: opts}, nil
}

// message builds a plain-text message, or with html a multipart/alternative one whose
// alternative is html.
func message(from, to, subject, body, html string) (*gomail.Msg, error) {
	m := gomail.NewMsg()
	if err := m.From(from); err != nil {
		return nil, fmt.Errorf("mail: sender %q: %w", from, err)
	}
	if err := m.To(to); err != nil {
		return nil, fmt.Errorf("mail: recipient %q: %w", to, err)
	}
	m.Subject(subject)
	m.SetBodyString(gomail.TypeTextPlain, body)
	if html != "" {
		m.AddAlternativeString(gomail.TypeTextHTML, html)
	}
	return m, nil
}

// Send delivers one plain-text message.
func (s *SMTP) Send(ctx context.Context, to, subject, body string) error {
	return s.SendHTML(ctx, to, subject, body, "")
}

// SendHTML delivers one message with text and, unless html is empty, html as its
// alternative (multipart/alternative, as Zulip's emails are).
func (s *SMTP) SendHTML(ctx context.Context, to, subject, text, html string) error {
	m, err := message(s.cfg.From, to, subject, text, html)
	if err != nil {
		return err
	}
	c, err := gomail.NewClient(s.cfg.Host, s.opts...)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, m); err != nil {
		return fmt.Errorf("mail: sending to %s: %w", to, err)
	}
	return nil
}

// Log appends every message, in its RFC 5322 form, to a file a developer reads instead of
// sending it (Zulip's development server keeps its emails the same way).
type Log struct {
	path string
	from string
	mu   sync.Mutex
}

// NewLog writes to the file at path (created when missing), with from as the sender.
func NewLog(path, from string) *Log { return &Log{path: path, from: from} }

// Path is the log file.
func (l *Log) Path() string { return l.path }

// Send appends the message to the log.
func (l *Log) Send(ctx context.Context, to, subject, body string) error {
	return l.SendHTML(ctx, to, subject, body, "")
}

// SendHTML appends the message, with html as its alternative unless empty, to the log.
func (l *Log) SendHTML(_ context.Context, to, subject, text, html string) error {
	m, err := message(l.from, to, subject, text, html)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	b.WriteString("\r\n\r\n")
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("mail: %w", err)
	}
	return f.Close()
}
