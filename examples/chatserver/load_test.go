package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"
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
