package main

import (
	"net/url"
	"testing"
	"time"
)

// TestDevServerAsZulips checks what a client's test suite notices of serve --dev against
// Zulip's development server: a bot created over the API gets an @zulipdev.com address (its
// FAKE_EMAIL_DOMAIN, the realm host 127.0.0.1:port forming none) and then logs in with it;
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
