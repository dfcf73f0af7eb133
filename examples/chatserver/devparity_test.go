package main

import (
	"fmt"
	"net"
	"net/smtp"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDevServerAsZulips checks what a client's test suite notices of serve --dev against
// Zulip's development server: a bot created over the API gets an @zulipdev.com address (its
// FAKE_EMAIL_DOMAIN, the realm host 127.0.0.1:port forming none) and then logs in with it, and
// hidden addresses are user{id}@zulipdev.com;
// register reports that bot domain and a password policy of 0; a `temp` password, as Zulip's
// API examples create users with, is accepted and logs in.
func TestDevServerAsZulips(t *testing.T) {
	t.Parallel()
	c := &serveCmd{orgFlags: orgFlags{Store: "memory", Dev: true, DevPassword: "devpassword"}, HeartbeatWait: time.Second}
	api := serveInProcess(t, c) + "/api/v1/"
	key := apiCall(t, "POST", api+"dev_fetch_api_key", "", "", url.Values{"username": {"iago@zulip.com"}})["api_key"].(string)

	bot := apiCall(t, "POST", api+"bots", "iago@zulip.com", key, url.Values{"full_name": {"Test Bot 1"}, "short_name": {"test-bot-1"}})
	if bot["result"] != "success" {
		t.Fatalf("POST /bots: %v", bot)
	}
	botKey, _ := bot["api_key"].(string)
	me := apiCall(t, "GET", api+"users/me", "test-bot-1-bot@zulipdev.com", botKey, nil)
	if me["result"] != "success" || me["email"] != "test-bot-1-bot@zulipdev.com" || me["is_bot"] != true {
		t.Errorf("the bot as test-bot-1-bot@zulipdev.com: %v", me)
	}

	// A hidden address is user{id}@zulipdev.com, as Zulip's development server shows it
	// (get_fake_email_domain: the host 127.0.0.1:port forms no address).
	placeholder := regexp.MustCompile(`^user[0-9]+@(.*)$`)
	hidden := 0
	for _, u := range apiCall(t, "GET", api+"users", "iago@zulip.com", key, nil)["members"].([]any) {
		if m := placeholder.FindStringSubmatch(u.(map[string]any)["email"].(string)); m != nil {
			hidden++
			if m[1] != "zulipdev.com" {
				t.Errorf("hidden address %s, want user{id}@zulipdev.com", m[0])
			}
		}
	}
	if hidden == 0 {
		t.Error("GET /users shows no hidden address")
	}

	reg := apiCall(t, "POST", api+"register", "iago@zulip.com", key, url.Values{"fetch_event_types": {`["realm"]`}})
	for name, want := range map[string]any{"realm_bot_domain": "zulipdev.com", "password_min_length": 0.0, "password_min_guesses": 0.0} {
		if reg[name] != want {
			t.Errorf("register %s = %v, want %v", name, reg[name], want)
		}
	}

	if res := apiCall(t, "PATCH", api+"settings", "iago@zulip.com", key, url.Values{"old_password": {"devpassword"}, "new_password": {"temp"}}); res["result"] != "success" {
		t.Fatalf("new_password temp: %v", res)
	}
	if res := apiCall(t, "POST", api+"fetch_api_key", "", "", url.Values{"username": {"iago@zulip.com"}, "password": {"temp"}}); res["result"] != "success" {
		t.Errorf("login with temp: %v", res)
	}
}

// TestDevEmailGateway checks the email gateway of serve --dev: a channel's address has the
// form of Zulip's development server (EMAIL_GATEWAY_PATTERN "%s@" and the host), and a mail
// sent to it through --email-gateway-listen is posted to the channel by the Email Gateway
// bot; a mail for an unknown token is refused.
func TestDevEmailGateway(t *testing.T) {
	t.Parallel()
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	smtpAddr := free.Addr().String()
	free.Close()
	c := &serveCmd{orgFlags: orgFlags{Store: "memory", Dev: true, DevPassword: "devpassword"}, HeartbeatWait: time.Second,
		gatewayFlags: gatewayFlags{EmailGatewayListen: smtpAddr}}
	api := serveInProcess(t, c) + "/api/v1/"
	key := apiCall(t, "POST", api+"dev_fetch_api_key", "", "", url.Values{"username": {"iago@zulip.com"}})["api_key"].(string)
	id := apiCall(t, "GET", api+"get_stream_id?stream=Denmark", "iago@zulip.com", key, nil)["stream_id"].(float64)
	addr, _ := apiCall(t, "GET", fmt.Sprintf("%sstreams/%d/email_address", api, int(id)), "iago@zulip.com", key, nil)["email"].(string)
	if !regexp.MustCompile(`^denmark\.[0-9a-f]{32}\.show-sender@127\.0\.0\.1$`).MatchString(addr) {
		t.Fatalf("Denmark's address %q, want denmark.{token}.show-sender@127.0.0.1", addr)
	}
	mail := "From: Ada <ada@example.org>\r\nTo: " + addr + "\r\nSubject: Weekly report\r\n\r\nAll systems go.\r\n"
	if err := smtp.SendMail(smtpAddr, nil, "ada@example.org", []string{addr}, []byte(mail)); err != nil {
		t.Fatalf("sending to the gateway: %v", err)
	}
	narrow := url.QueryEscape(`[{"operator":"channel","operand":"Denmark"},{"operator":"topic","operand":"Weekly report"}]`)
	msgs, _ := apiCall(t, "GET", api+"messages?anchor=newest&num_before=5&num_after=0&apply_markdown=false&narrow="+narrow, "iago@zulip.com", key, nil)["messages"].([]any)
	if len(msgs) != 1 {
		t.Fatalf("messages in Denmark > Weekly report: %v", msgs)
	}
	m := msgs[0].(map[string]any)
	if m["sender_email"] != "emailgateway@zulip.com" || m["content"] != "From: Ada <ada@example.org>\nAll systems go." {
		t.Errorf("the posted message: %v", m)
	}
	bad := "denmark.0123456789abcdef0123456789abcdef@127.0.0.1"
	err = smtp.SendMail(smtpAddr, nil, "ada@example.org", []string{bad}, []byte("Subject: x\r\n\r\ny\r\n"))
	if err == nil || !strings.Contains(err.Error(), "550") || !strings.Contains(err.Error(), "Bad stream token") {
		t.Errorf("a mail for an unknown token: %v, want a 550 Bad stream token", err)
	}
}
