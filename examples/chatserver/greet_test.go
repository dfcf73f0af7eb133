package main

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestGreetTellsWhatToDoNext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  serveCmd
		want []string
	}{
		{"dev on SQLite", serveCmd{orgFlags: orgFlags{Store: "sqlite:./chat.db", Listen: "127.0.0.1:9991", Dev: true, DevPassword: "devpassword"}}, []string{
			"teamchat serves the Zulip API at http://127.0.0.1:9991",
			"chat in a browser: open http://127.0.0.1:9991/",
			"data: SQLite file ./chat.db",
			`development users (password "devpassword"`,
			"iago@zulip.com         administrator",
			"desdemona@zulip.com    owner",
			"polonius@zulip.com     guest",
			"curl -s -X POST http://127.0.0.1:9991/api/v1/dev_fetch_api_key -d username=iago@zulip.com",
			"zuliprc --dev --user iago@zulip.com --out ~/.zuliprc",
		}},
		{"memory on another port", serveCmd{orgFlags: orgFlags{Store: "memory", Listen: "127.0.0.1:8000", Dev: true, DevPassword: "pw"}}, []string{
			"data: in memory only",
			`development users (password "pw"`,
			"zuliprc --store 'memory' --listen 127.0.0.1:8000 --dev --dev-password 'pw' --user iago@zulip.com",
		}},
		{"seeded PostgreSQL", serveCmd{orgFlags: orgFlags{Store: "postgres://chat:secret@db:5432/chat", Listen: "127.0.0.1:9991", Seed: "org.json"}}, []string{
			"data: PostgreSQL postgres://chat:xxxxx@db:5432/chat",
			"POST http://127.0.0.1:9991/api/v1/fetch_api_key",
			"zuliprc --store 'postgres://chat:secret@db:5432/chat' --seed org.json --user EMAIL",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var b strings.Builder
			tt.cmd.greet(&b, "http://"+tt.cmd.Listen, tt.cmd.Listen)
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("greeting lacks %q:\n%s", w, b.String())
				}
			}
			if strings.Contains(tt.cmd.Store, "secret") && strings.Contains(dataLocation(tt.cmd.Store), "secret") {
				t.Errorf("data location shows the password: %s", dataLocation(tt.cmd.Store))
			}
		})
	}
}

func TestWatchParentStopsWhenTheParentEnds(t *testing.T) {
	t.Parallel()
	var ppid atomic.Int64
	ppid.Store(4242)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stopped atomic.Bool
	watchParent(ctx, func() { stopped.Store(true); cancel() }, time.Millisecond, func() int { return int(ppid.Load()) })
	time.Sleep(20 * time.Millisecond)
	if stopped.Load() {
		t.Fatal("stopped while the parent lives")
	}
	ppid.Store(1) // adopted: the parent ended
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("not stopped 10s after the parent ended")
	}
	if !stopped.Load() {
		t.Error("context ended without the stop")
	}
}
