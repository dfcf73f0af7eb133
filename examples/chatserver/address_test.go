package main

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeReportsAddress starts `serve --listen 127.0.0.1:0 --address-file F` as a subprocess,
// the way a harness in another language does: the address printed on standard output and the
// one in F are the same, the server answers there at once, and F is gone after SIGTERM.
func TestServeReportsAddress(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "addr")
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1",
		"CHATSERVER_TEST_ARGS=serve --dev --store memory --listen 127.0.0.1:0 --address-file "+file)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	cmd.Stderr = &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var addr string
	select {
	case addr = <-lines:
	case <-time.After(60 * time.Second):
		t.Fatal("no address on standard output within 60s")
	}
	if addr == "" || strings.HasSuffix(addr, ":0") || !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("standard output reported %q, want 127.0.0.1:PORT with a real port; log:\n%s", addr, log.String())
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("--address-file: %v", err)
	}
	if got := string(data); got != addr+"\n" {
		t.Errorf("--address-file holds %q, want %q", got, addr+"\n")
	}
	resp, err := http.Get("http://" + addr + "/api/v1/server_settings")
	if err != nil {
		t.Fatalf("GET server_settings at the reported address: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("server_settings: status %d", resp.StatusCode)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v\n%s", err, log.String())
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("--address-file still exists after a graceful stop (stat: %v)", err)
	}
}

// TestProbesThenAPI: the probes answer their paths; every other request reaches the API with
// its path as sent, a doubled slash included (no redirect).
func TestProbesThenAPI(t *testing.T) {
	t.Parallel()
	probes := http.NewServeMux()
	probes.HandleFunc("GET /livez", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "probe") })
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "api "+r.URL.Path) })
	h := probesThenAPI(probes, api)
	for _, tt := range []struct{ method, path, want string }{
		{"GET", "/livez", "probe"},
		{"POST", "/api/v1/register", "api /api/v1/register"},
		{"POST", "//api/v1/register", "api //api/v1/register"},
		{"GET", "/api/v1/../v1/users", "api /api/v1/../v1/users"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, "http://chat.test"+tt.path, nil))
		if rec.Code != http.StatusOK || rec.Body.String() != tt.want {
			t.Errorf("%s %s: %d %q, want 200 %q", tt.method, tt.path, rec.Code, rec.Body.String(), tt.want)
		}
	}
}
