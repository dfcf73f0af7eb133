package pgbus_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/teamchat/chat/eventbus/pgbus"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
)

// sqlTx gives a pgx transaction the storage.SQLTx capability, as the SQL store's transactions
// have it.
type sqlTx struct {
	ctx context.Context
	tx  pgx.Tx
}

func (t sqlTx) SQLDialect() string { return "postgres" }

func (t sqlTx) ExecSQL(q string, args ...any) error {
	_, err := t.tx.Exec(t.ctx, dollars(q), args...)
	return err
}

func (t sqlTx) QueryRowSQL(q string, args []any, dest ...any) error {
	return t.tx.QueryRow(t.ctx, dollars(q), args...).Scan(dest...)
}

// writeTx and readTx are a storage.Tx and a storage.ReadTx with only the SQL capability.
type writeTx struct {
	storage.Tx
	sqlTx
}

type readTx struct {
	storage.ReadTx
	sqlTx
}

func dollars(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// testDSN returns a connection string on a fresh schema, dropped after the test.
func testDSN(t *testing.T) string {
	t.Helper()
	base := os.Getenv("CHAT_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("CHAT_TEST_POSTGRES_URL is unset: the PostgreSQL event bus needs a PostgreSQL server")
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "pgbus_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Error(err)
		}
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}

func mustOpen(t *testing.T, dsn, node string) *pgbus.Bus {
	t.Helper()
	b, err := pgbus.Open(context.Background(), pgbus.Options{
		URL: dsn, Node: node, AdvertiseURL: "http://" + node + ".example:9991",
		HeartbeatInterval: 100 * time.Millisecond, NodeTimeout: 2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

type received struct {
	id  uint64
	msg string
}

// listen runs b.Listen until the test ends and returns the channel of its messages.
func listen(t *testing.T, b *pgbus.Bus) <-chan received {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan received, 100)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- b.Listen(ctx, func() { close(ready) }, func(id uint64, msg []byte) { out <- received{id, string(msg)} })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Listen ended with %v, want context.Canceled", err)
		}
	})
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Listen: %v", err)
	}
	return out
}

// publish publishes msgs in one transaction, committed or rolled back, and returns its xid.
func publish(t *testing.T, dsn string, b *pgbus.Bus, commit bool, msgs ...string) uint64 {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if err := b.Publish(writeTx{sqlTx: sqlTx{ctx, tx}}, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	var xid uint64
	if err := tx.QueryRow(ctx, "SELECT pg_current_xact_id()::text::bigint").Scan(&xid); err != nil {
		t.Fatal(err)
	}
	if commit {
		err = tx.Commit(ctx)
	} else {
		err = tx.Rollback(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	return xid
}

func next(t *testing.T, c <-chan received) received {
	t.Helper()
	select {
	case r := <-c:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no message within 10s")
	}
	return received{}
}

// TestPublishListen: every listener gets committed messages in commit order, large ones
// through the payload table, and nothing of a rolled-back transaction.
func TestPublishListen(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	a, b := mustOpen(t, dsn, "a"), mustOpen(t, dsn, "b")
	if a.Channel() != b.Channel() || !strings.HasPrefix(a.Channel(), "teamchat_events_pgbus_") {
		t.Fatalf("channels %q and %q: want one per schema", a.Channel(), b.Channel())
	}
	inA, inB := listen(t, a), listen(t, b)

	large := strings.Repeat("x", 20000)
	x1 := publish(t, dsn, a, true, "one", "two")
	publish(t, dsn, b, false, "rolled back")
	x2 := publish(t, dsn, b, true, large)
	x3 := publish(t, dsn, a, true, "three")
	want := []received{{x1, "one"}, {x1, "two"}, {x2, large}, {x3, "three"}}
	for name, c := range map[string]<-chan received{"a": inA, "b": inB} {
		var got []received
		for range want {
			got = append(got, next(t, c))
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(received{})); diff != "" {
			t.Errorf("listener %s (-want +got):\n%s", name, diff)
		}
		select {
		case r := <-c:
			t.Errorf("listener %s: unexpected message %.40q", name, r.msg)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// TestSnapshot: a read transaction's snapshot includes the commits before it and none after.
func TestSnapshot(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	b := mustOpen(t, dsn, "a")
	before := publish(t, dsn, b, true, "before")

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT 1"); err != nil { // takes the snapshot
		t.Fatal(err)
	}
	after := publish(t, dsn, b, true, "after")
	includes, err := b.Snapshot(readTx{sqlTx: sqlTx{ctx, tx}})
	if err != nil {
		t.Fatal(err)
	}
	if !includes(before) {
		t.Errorf("snapshot does not include transaction %d committed before it", before)
	}
	if includes(after) {
		t.Errorf("snapshot includes transaction %d committed after it", after)
	}
}

// TestRouteQueue: queue ids name their node; a node gone (closed) is reported as such, and a
// live node id cannot be taken twice.
func TestRouteQueue(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	a, b := mustOpen(t, dsn, "a"), mustOpen(t, dsn, "b")
	ctx := context.Background()
	tests := []struct {
		id        string
		wantLocal bool
		wantURL   string
	}{
		{"a:0f0e", true, ""},
		{"0f0e-plain-uuid", true, ""},
		{"b:0f0e", false, "http://b.example:9991"},
		{"zz:0f0e", false, ""},
	}
	for _, tt := range tests {
		local, target, err := a.RouteQueue(ctx, tt.id)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if target != nil {
			got = target.String()
		}
		if local != tt.wantLocal || got != tt.wantURL {
			t.Errorf("RouteQueue(%q) = %v, %q; want %v, %q", tt.id, local, got, tt.wantLocal, tt.wantURL)
		}
	}
	if _, err := pgbus.Open(ctx, pgbus.Options{URL: dsn, Node: "b", AdvertiseURL: "http://other:1"}); !errors.Is(err, pgbus.ErrNodeRunning) {
		t.Fatalf("opening a second live node b: %v, want ErrNodeRunning", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	local, target, err := a.RouteQueue(ctx, "b:0f0e")
	if err != nil || local || target != nil {
		t.Fatalf("RouteQueue after b closed = %v, %v, %v; want not local, no target", local, target, err)
	}
}

// TestPublishThroughSQLStore: through the SQL store's transactions (storage.SQLTx), a closure
// that fails after publishing publishes nothing, and committed ones arrive in commit order.
func TestPublishThroughSQLStore(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	b := mustOpen(t, dsn, "a")
	in := listen(t, b)
	failed := errors.New("the mutation failed after publishing")
	for _, m := range []string{"first", "rolled back", "second"} {
		err := store.Update(ctx, func(tx storage.Tx) error {
			if err := b.Publish(tx, []byte(m)); err != nil {
				return err
			}
			if m == "rolled back" {
				return failed
			}
			return nil
		})
		if m == "rolled back" && !errors.Is(err, failed) || m != "rolled back" && err != nil {
			t.Fatalf("Update publishing %q: %v", m, err)
		}
	}
	var got []string
	for range 2 {
		got = append(got, next(t, in).msg)
	}
	if diff := cmp.Diff([]string{"first", "second"}, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	select {
	case r := <-in:
		t.Errorf("unexpected message %q", r.msg)
	case <-time.After(100 * time.Millisecond):
	}
	// The memory store's transactions lack the capability: Publish refuses them.
	var refused error
	if err := storeWithoutSQL(ctx, func(tx storage.Tx) error { refused = b.Publish(tx, []byte("x")); return nil }); err != nil {
		t.Fatal(err)
	}
	if refused == nil {
		t.Error("Publish accepted a transaction without storage.SQLTx")
	}
}

func storeWithoutSQL(ctx context.Context, fn func(storage.Tx) error) error {
	s := memory.New()
	defer s.Close()
	return s.Update(ctx, fn)
}
