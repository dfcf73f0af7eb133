package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	smtp "github.com/emersion/go-smtp"

	chat "github.com/teamchat/chat"
)

// gatewayFlags configure the email gateway: the form of channels' email addresses (Zulip's
// EMAIL_GATEWAY_PATTERN) and an SMTP listener that receives the mail sent to them and posts
// it (Zulip's email mirror).
type gatewayFlags struct {
	EmailGatewayPattern string `help:"Form of channels' email addresses, one %s for the part naming the channel (Zulip's EMAIL_GATEWAY_PATTERN), as '%s@chat.example.com'; with --dev the default is %s@ the realm URL's host, as Zulip's development server; empty: no email gateway." name:"email-gateway-pattern"`
	EmailGatewayListen  string `help:"Address of an SMTP listener (HOST:PORT) that receives the email sent to channels' addresses and posts it to the channels; empty: none." name:"email-gateway-listen"`
}

// gatewayPattern is the pattern the flags give: --email-gateway-pattern, or under --dev the
// one of Zulip's development server ("%s@" and the realm's host without its port).
func (g gatewayFlags) gatewayPattern(dev bool, realmURL string) string {
	if g.EmailGatewayPattern != "" || !dev {
		return g.EmailGatewayPattern
	}
	host := "localhost"
	if u, err := url.Parse(realmURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	return "%s@" + host
}

// startGateway starts the SMTP listener of --email-gateway-listen (nothing when it is empty)
// and returns the function that stops it.
func (g gatewayFlags) startGateway(svc *chat.Service, pattern string, logger *slog.Logger) (func(), error) {
	if g.EmailGatewayListen == "" {
		return func() {}, nil
	}
	if pattern == "" {
		return nil, errors.New("--email-gateway-listen needs --email-gateway-pattern (or --dev)")
	}
	ln, err := net.Listen("tcp", g.EmailGatewayListen)
	if err != nil {
		return nil, err
	}
	srv := newGatewayServer(svc, pattern, logger)
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ln) }()
	logger.Info("email gateway listening", "addr", ln.Addr().String(), "pattern", pattern)
	return func() { srv.Close(); <-done }, nil
}

// newGatewayServer is the SMTP server of the gateway: it accepts mail for addresses of the
// pattern's domain and posts each with the Service's EmailMirrorMessage, refusing the message
// (550) when the Service does.
func newGatewayServer(svc *chat.Service, pattern string, logger *slog.Logger) *smtp.Server {
	_, domain, _ := strings.Cut(pattern, "%s")
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &gatewaySession{svc: svc, suffix: strings.ToLower(domain), log: logger}, nil
	}))
	srv.Domain = strings.TrimPrefix(domain, "@")
	srv.ReadTimeout, srv.WriteTimeout = time.Minute, time.Minute
	srv.MaxMessageBytes = chat.MaxEmailMirrorBytes
	srv.MaxRecipients = 20
	return srv
}

// gatewaySession is one SMTP transaction of the gateway.
type gatewaySession struct {
	svc    *chat.Service
	suffix string
	log    *slog.Logger
	to     []string
}

func (s *gatewaySession) Reset()        { s.to = nil }
func (s *gatewaySession) Logout() error { return nil }

func (s *gatewaySession) Mail(string, *smtp.MailOptions) error { return nil }

// Rcpt accepts the addresses of the gateway's domain.
func (s *gatewaySession) Rcpt(to string, _ *smtp.RcptOptions) error {
	if !strings.HasSuffix(strings.ToLower(to), s.suffix) {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "Address not recognized by gateway."}
	}
	s.to = append(s.to, to)
	return nil
}

// Data posts the message to the channel of each recipient.
func (s *gatewaySession) Data(r io.Reader) error {
	raw, err := io.ReadAll(io.LimitReader(r, chat.MaxEmailMirrorBytes+1))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, to := range s.to {
		res, err := s.svc.EmailMirrorMessage(ctx, chat.EmailMirrorMessageParams{Recipient: to, Message: raw})
		if err != nil {
			s.log.Info("email gateway refused a message", "err", err)
			msg := err.Error()
			var e *chat.Error
			if errors.As(err, &e) {
				msg = e.Msg
			}
			return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: msg}
		}
		s.log.Info("email gateway posted a message", "message_id", res.MessageID, "stream_id", res.ChannelID)
	}
	return nil
}
