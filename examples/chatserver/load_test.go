package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
)

// TestDebugHandler: --debug-vars adds /debug/vars and the profiler in front of the API;
// without it the API handler serves every path.
func TestDebugHandler(t *testing.T) {
	t.Parallel()
	api := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "api", http.StatusTeapot) })
	get := func(h http.Handler, path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}

	off := (&loadFlags{}).handler(api)
	for _, path := range []string{"/debug/vars", "/debug/pprof/", "/api/v1/users"} {
		if code := get(off, path).Code; code != http.StatusTeapot {
			t.Errorf("without --debug-vars, %s answered %d, want the API's %d", path, code, http.StatusTeapot)
		}
	}

	on := (&loadFlags{DebugVars: true}).handler(api)
	rec := get(on, "/debug/vars")
	var v DebugVars
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &v) != nil || v.Goroutines == 0 || v.HeapSys == 0 {
		t.Errorf("/debug/vars: %d %s", rec.Code, rec.Body)
	}
	if rec := get(on, "/debug/pprof/"); rec.Code != http.StatusOK {
		t.Errorf("/debug/pprof/: %d", rec.Code)
	}
	if code := get(on, "/api/v1/users").Code; code != http.StatusTeapot {
		t.Errorf("with --debug-vars, the API answered %d, want %d", code, http.StatusTeapot)
	}
}

// TestLoadUsersSurviveARestart: serving again with the same --load-users on the same store
// keeps the load organization instead of failing on its existing users.
func TestLoadUsersSurviveARestart(t *testing.T) {
	t.Parallel()
	store := "sqlite:" + filepath.Join(t.TempDir(), "chat.db")
	for run := range 2 {
		c := &serveCmd{
			orgFlags:      orgFlags{Store: store, Dev: true, DevPassword: "devpassword"},
			HeartbeatWait: time.Second,
			loadFlags:     loadFlags{LoadUsers: 3, LoadChannels: 2, LoadSubs: 1},
		}
		base, stop := serveUntilStopped(t, c)
		status, body := get(t, base+"/api/v1/server_settings")
		stop()
		if status != http.StatusOK {
			t.Fatalf("run %d: server_settings %d %s", run, status, body)
		}
	}
}

// TestLoadUsersAllInChannelZero: on top of the development organization (which has channels
// of its own), every load user is subscribed to "channel 0", the channel loadgen sends to.
func TestLoadUsersAllInChannelZero(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	store := memory.New()
	defer store.Close()
	svc, err := chat.New(chat.Options{Store: store, Dev: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if _, err := seeds.Dev("devpassword").Apply(ctx, svc, "http://chat.test"); err != nil {
		t.Fatal(err)
	}
	const n = 60
	l := loadFlags{LoadUsers: n, LoadChannels: 20, LoadSubs: 20}
	if err := l.build(ctx, svc, store, slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	err = store.View(ctx, func(tx storage.ReadTx) error {
		all, err := tx.Channels().List()
		if err != nil {
			return err
		}
		for _, c := range all {
			if c.Name != benchorg.ChannelName(0) {
				continue
			}
			subs, err := tx.Subscriptions().ListForChannels([]channels.ID{c.ID}, true)
			if err != nil {
				return err
			}
			load := 0
			for _, s := range subs {
				u, err := tx.Users().Get(s.UserID)
				if err != nil {
					return err
				}
				if strings.HasSuffix(u.Email, "@load.example.com") && u.Email != "admin@load.example.com" {
					load++
				}
			}
			if load != n {
				t.Errorf("%d of the %d load users are subscribed to %q", load, n, c.Name)
			}
			return nil
		}
		t.Errorf("no channel %q", benchorg.ChannelName(0))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
