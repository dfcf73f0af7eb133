package ops_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/ops"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// probe answers GET path of h's handlers: the status.
func probe(t *testing.T, h http.Handler) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	return rec.Code
}

// openOrg opens dsn with an organization in it.
func openOrg(t *testing.T, dsn string) *sqlstore.Store {
	t.Helper()
	s, err := sqlstore.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	err = s.Update(t.Context(), func(tx storage.Tx) error {
		if _, err := tx.Realm().Get(); err == nil {
			return nil
		}
		return tx.Realm().Put(realms.Realm{Name: "Health"})
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// current is a storage whose backing store a test replaces (a reopened store).
type current struct {
	mu sync.Mutex
	storage.Storage
}

func (c *current) set(s storage.Storage) { c.mu.Lock(); c.Storage = s; c.mu.Unlock() }
func (c *current) View(ctx context.Context, fn func(storage.ReadTx) error) error {
	c.mu.Lock()
	s := c.Storage
	c.mu.Unlock()
	return s.View(ctx, fn)
}

func TestReadinessFollowsTheSQLiteStore(t *testing.T) {
	t.Parallel()
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "chat.db")
	store := &current{Storage: openOrg(t, dsn)}
	h := ops.NewHealth()
	ready, live, zulip := h.ReadyHandler(), h.LiveHandler(), h.ZulipHandler()
	if got := probe(t, ready); got != http.StatusServiceUnavailable {
		t.Errorf("readiness while starting: %d, want 503", got)
	}
	if got := probe(t, zulip); got != http.StatusInternalServerError {
		t.Errorf("Zulip's /health while starting: %d, want 500", got)
	}
	h.Started(ops.StoreCheck(store))
	if got := probe(t, ready); got != http.StatusOK {
		t.Errorf("readiness after start: %d, want 200", got)
	}
	store.Storage.Close()
	if got := probe(t, ready); got != http.StatusServiceUnavailable {
		t.Errorf("readiness with the store closed: %d, want 503", got)
	}
	if got := probe(t, live); got != http.StatusOK {
		t.Errorf("liveness with the store closed: %d, want 200 (a restart would not help)", got)
	}
	store.set(openOrg(t, dsn))
	if got := probe(t, ready); got != http.StatusOK {
		t.Errorf("readiness with the store back: %d, want 200", got)
	}
}

// TestReadinessFollowsPostgreSQL cuts the store's connections to PostgreSQL (through a proxy
// the test controls: the shared server keeps running) and restores them.
func TestReadinessFollowsPostgreSQL(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Schema(t)
	p := startProxy(t, dsn)
	store := openOrg(t, p.dsn)
	h := ops.NewHealth()
	h.Started(ops.StoreCheck(store))
	ready := h.ReadyHandler()
	if got := probe(t, ready); got != http.StatusOK {
		t.Fatalf("readiness: %d, want 200", got)
	}
	p.cut()
	if got := probe(t, ready); got != http.StatusServiceUnavailable {
		t.Errorf("readiness with PostgreSQL unreachable: %d, want 503", got)
	}
	p.restore(t)
	var got int
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = probe(t, ready); got == http.StatusOK {
			break
		}
	}
	if got != http.StatusOK {
		t.Errorf("readiness with PostgreSQL reachable again: %d, want 200", got)
	}
}

// proxy forwards TCP connections to a PostgreSQL server until cut.
type proxy struct {
	addr, target, dsn string
	mu                sync.Mutex
	ln                net.Listener
	conns             []net.Conn
}

// startProxy listens on a free port and forwards to dsn's server; p.dsn reaches the server
// through it.
func startProxy(t *testing.T, dsn string) *proxy {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{target: u.Host}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.addr = ln.Addr().String()
	u.Host = p.addr
	p.dsn = u.String()
	p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

func (p *proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

func (p *proxy) forward(c net.Conn) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, c, s)
	p.mu.Unlock()
	go func() { _, _ = io.Copy(s, c); s.Close() }()
	_, _ = io.Copy(c, s)
	c.Close()
}

// cut closes the listener and every forwarded connection.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// restore listens again on the same address.
func (p *proxy) restore(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.serve(ln)
}
