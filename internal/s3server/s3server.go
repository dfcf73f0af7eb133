// Package s3server starts a real S3-compatible server for tests: versitygw
// (github.com/versity/versitygw, installed by .ci/run with `go install`) serving a temporary
// directory through its posix backend. Tests that need it skip with a clear message when the
// binary is absent. CHAT_TEST_S3_URL (s3://ACCESS:SECRET@HOST:PORT/BUCKET?secure=false)
// points the tests at an existing server instead.
package s3server

import (
	"context"
	"fmt"
	"go/build"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/teamchat/chat/blobs/s3"
)

// Version is the versitygw release .ci/run installs.
const Version = "v1.8.0"

// binary finds versitygw on PATH or in GOPATH/bin.
func binary() string {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	p := filepath.Join(build.Default.GOPATH, "bin", "versitygw")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return ""
}

var buckets atomic.Int64

// Start returns the configuration of a new, empty bucket on a server started for the test
// (stopped at its end), or on CHAT_TEST_S3_URL's server. It skips the test when neither is
// available.
func Start(t testing.TB) s3.Config {
	t.Helper()
	bucket := fmt.Sprintf("chat-test-%d-%d", os.Getpid(), buckets.Add(1))
	if raw := os.Getenv("CHAT_TEST_S3_URL"); raw != "" {
		cfg, err := s3.ParseURL(raw)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Bucket, cfg.Prefix, cfg.CreateBucket = bucket, "", true
		return cfg
	}
	bin := binary()
	if bin == "" {
		t.Skip("no S3-compatible server: install versitygw (go install github.com/versity/versitygw/cmd/versitygw@" + Version + ", as .ci/run does) or set CHAT_TEST_S3_URL")
	}
	root := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "--access", "chat-test", "--secret", "chat-test-secret", "--port", addr, "--quiet", "posix", root)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	cfg := s3.Config{Endpoint: addr, AccessKeyID: "chat-test", SecretAccessKey: "chat-test-secret", Bucket: bucket, CreateBucket: true}
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("versitygw did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cfg
}

// Open starts a server (see Start) and opens a store on a fresh bucket of it.
func Open(t testing.TB) *s3.Store {
	t.Helper()
	cfg := Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := s3.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
