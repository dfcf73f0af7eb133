package main

import (
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/mail"
)

// mailFlags are the server's mail settings: an SMTP server delivers its emails (email
// invitations); without one, --dev keeps them in a log file and other servers drop them.
type mailFlags struct {
	SMTPHost         string `help:"SMTP server that delivers the server's emails (invitations)." name:"smtp-host"`
	SMTPPort         int    `help:"Port of the SMTP server." name:"smtp-port" default:"587"`
	SMTPUser         string `help:"SMTP user name (authentication off when empty)." name:"smtp-user"`
	SMTPPasswordFile string `help:"File holding the SMTP password." name:"smtp-password-file" type:"existingfile"`
	SMTPTLS          string `help:"TLS with the SMTP server: starttls (when offered), required (STARTTLS or fail), ssl (implicit TLS), none." name:"smtp-tls" enum:"starttls,required,ssl,none" default:"starttls"`
	MailFrom         string `help:"Sender of the server's emails (default: noreply@ the organization's host)." name:"mail-from"`
	MailLog          string `help:"With --dev and no --smtp-host, the file the emails are appended to instead of being sent." name:"mail-log" default:"./chat-mail.log"`
}

// mailer builds the Mailer the flags describe (nil: emails are dropped).
func (m mailFlags) mailer(dev bool, realmURL string, logger *slog.Logger) (chat.Mailer, error) {
	from := m.MailFrom
	if from == "" {
		host := "localhost"
		if u, err := url.Parse(realmURL); err == nil && u.Hostname() != "" {
			host = u.Hostname()
		}
		from = "noreply@" + host
	}
	switch {
	case m.SMTPHost != "":
		cfg := mail.SMTPConfig{Host: m.SMTPHost, Port: m.SMTPPort, Username: m.SMTPUser, TLS: m.SMTPTLS, From: from}
		if m.SMTPPasswordFile != "" {
			b, err := os.ReadFile(m.SMTPPasswordFile)
			if err != nil {
				return nil, fmt.Errorf("--smtp-password-file: %w", err)
			}
			cfg.Password = strings.TrimSpace(string(b))
		}
		return mail.NewSMTP(cfg)
	case dev:
		logger.Info("emails are kept in a log, not sent", "mail_log", m.MailLog)
		return mail.NewLog(m.MailLog, from), nil
	}
	logger.Warn("no --smtp-host: the server's emails (invitations) are dropped")
	return nil, nil
}
