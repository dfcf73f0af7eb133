package mail_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/teamchat/chat/internal/smtptest"
	"github.com/teamchat/chat/mail"
)

func TestSMTPDelivers(t *testing.T) {
	t.Parallel()
	srv := smtptest.Start(t)
	m, err := mail.NewSMTP(mail.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: "none", From: "Chat <noreply@chat.test>"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(t.Context(), "ada@example.com", "Hello", "Body line\nsecond line"); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(1, 5*time.Second)
	if len(got) != 1 {
		t.Fatalf("received %d messages", len(got))
	}
	if got[0].From != "noreply@chat.test" || len(got[0].To) != 1 || got[0].To[0] != "ada@example.com" {
		t.Errorf("envelope %q → %v", got[0].From, got[0].To)
	}
	if !strings.Contains(got[0].Data, "Subject: Hello") || !strings.Contains(got[0].Data, "second line") {
		t.Errorf("data:\n%s", got[0].Data)
	}
}

func TestSMTPRefusesBadConfig(t *testing.T) {
	t.Parallel()
	for _, cfg := range []mail.SMTPConfig{{From: "a@b.test"}, {Host: "h"}, {Host: "h", From: "a@b.test", TLS: "sometimes"}} {
		if _, err := mail.NewSMTP(cfg); err == nil {
			t.Errorf("NewSMTP(%+v) accepted", cfg)
		}
	}
}

func TestLogKeepsMail(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "mail.log")
	l := mail.NewLog(path, "noreply@chat.test")
	for _, to := range []string{"a@example.com", "b@example.com"} {
		if err := l.Send(t.Context(), to, "Invitation", "Join us"); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); strings.Count(s, "Subject: Invitation") != 2 || !strings.Contains(s, "b@example.com") {
		t.Errorf("log:\n%s", s)
	}
}

func TestSMTPSendsHTMLAlternative(t *testing.T) {
	t.Parallel()
	srv := smtptest.Start(t)
	m, err := mail.NewSMTP(mail.SMTPConfig{Host: srv.Host, Port: srv.Port, TLS: "none", From: "Chat <noreply@chat.test>"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.SendHTML(t.Context(), "ada@example.com", "Hello", "plain café", "<p>rich <b>café</b></p>"); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(1, 5*time.Second)
	if len(got) != 1 {
		t.Fatalf("received %d messages", len(got))
	}
	header, multipart, bodies, err := got[0].Parts()
	if err != nil {
		t.Fatal(err)
	}
	if header.Get("Subject") != "Hello" || multipart != "multipart/alternative" {
		t.Errorf("subject %q, type %q, want Hello and multipart/alternative", header.Get("Subject"), multipart)
	}
	if bodies["text/plain"] != "plain café" || bodies["text/html"] != "<p>rich <b>café</b></p>" {
		t.Errorf("bodies %q", bodies)
	}
	if err := m.Send(t.Context(), "ada@example.com", "Plain", "just text"); err != nil {
		t.Fatal(err)
	}
	got = srv.Wait(2, 5*time.Second)
	if _, multipart, bodies, err := got[1].Parts(); err != nil || multipart != "" || strings.TrimSpace(bodies["text/plain"]) != "just text" {
		t.Errorf("plain message: type %q, bodies %q, err %v", multipart, bodies, err)
	}
}
