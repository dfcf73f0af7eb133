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
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx := context.Background() // t.Context() is canceled before Cleanup runs
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

func mustOpen(t *testing.T, dsn, node string, opts ...func(*pgbus.Options)) *pgbus.Bus {
	t.Helper()
	o := pgbus.Options{
		URL: dsn, Node: node, AdvertiseURL: "http://" + node + ".example:9991",
		HeartbeatInterval: 100 * time.Millisecond, NodeTimeout: 2 * time.Second,
	}
	for _, f := range opts {
		f(&o)
	}
	b, err := pgbus.Open(t.Context(), o)
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

// listen runs b.Listen from after until the test ends and returns the channel of its
// messages; complete is what Listen passed to ready.
func listen(t *testing.T, b *pgbus.Bus, after uint64) (msgs <-chan received, complete bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	out := make(chan received, 100)
	ready := make(chan bool, 1)
	done := make(chan error, 1)
	go func() {
		done <- b.Listen(ctx, after, func(c bool, _ uint64) { ready <- c }, func(id uint64, msg []byte) { out <- received{id, string(msg)} })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Listen ended with %v, want context.Canceled", err)
		}
	})
	select {
	case complete = <-ready:
	case err := <-done:
		t.Fatalf("Listen: %v", err)
	}
	return out, complete
}

// publish publishes msgs in one transaction, committed or rolled back.
func publish(t *testing.T, dsn string, b *pgbus.Bus, commit bool, msgs ...string) {
	t.Helper()
	ctx := t.Context()
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
	if commit {
		err = tx.Commit(ctx)
	} else {
		err = tx.Rollback(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
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

// position reads Position in a fresh read transaction.
func position(t *testing.T, dsn string, b *pgbus.Bus) uint64 {
	t.Helper()
	ctx := t.Context()
	tx, done := readOnlyTx(t, dsn)
	defer done()
	pos, err := b.Position(readTx{sqlTx: sqlTx{ctx, tx}})
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// collect reads n messages.
func collect(t *testing.T, c <-chan received, n int) []received {
	t.Helper()
	var got []received
	for range n {
		got = append(got, next(t, c))
	}
	return got
}

// quiet checks that no further message arrives.
func quiet(t *testing.T, name string, c <-chan received) {
	t.Helper()
	select {
	case r := <-c:
		t.Errorf("%s: unexpected message %d %.40q", name, r.id, r.msg)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestPublishListen: every listener gets committed messages in commit order with increasing
// ids, large ones through the log, and nothing of a rolled-back transaction.
func TestPublishListen(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	a, b := mustOpen(t, dsn, "a"), mustOpen(t, dsn, "b")
	if a.Channel() != b.Channel() || !strings.HasPrefix(a.Channel(), "teamchat_events_pgbus_") {
		t.Fatalf("channels %q and %q: want one per schema", a.Channel(), b.Channel())
	}
	inA, _ := listen(t, a, position(t, dsn, a))
	inB, _ := listen(t, b, position(t, dsn, b))

	large := strings.Repeat("x", 20000)
	publish(t, dsn, a, true, "one", "two")
	publish(t, dsn, b, false, "rolled back")
	publish(t, dsn, b, true, large)
	publish(t, dsn, a, true, "three")
	want := []string{"one", "two", large, "three"}
	for name, c := range map[string]<-chan received{"a": inA, "b": inB} {
		got := collect(t, c, len(want))
		var msgs []string
		for i, r := range got {
			msgs = append(msgs, r.msg)
			if i > 0 && r.id <= got[i-1].id {
				t.Errorf("listener %s: id %d after %d", name, r.id, got[i-1].id)
			}
		}
		if diff := cmp.Diff(want, msgs); diff != "" {
			t.Errorf("listener %s (-want +got):\n%s", name, diff)
		}
		quiet(t, name, c)
	}
}

// TestPosition: a read transaction's position covers the commits before its snapshot and
// none after.
func TestPosition(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	b := mustOpen(t, dsn, "a")
	if p := position(t, dsn, b); p != 0 {
		t.Errorf("position of an empty log: %d", p)
	}
	publish(t, dsn, b, true, "before")
	before := position(t, dsn, b)

	ctx := t.Context()
	tx, done := readOnlyTx(t, dsn)
	defer done()
	if _, err := tx.Exec(ctx, "SELECT 1"); err != nil { // takes the snapshot
		t.Fatal(err)
	}
	publish(t, dsn, b, true, "after")
	got, err := b.Position(readTx{sqlTx: sqlTx{ctx, tx}})
	if err != nil {
		t.Fatal(err)
	}
	if before == 0 || got != before {
		t.Errorf("position in a snapshot taken before a commit: %d, want %d", got, before)
	}
	if after := position(t, dsn, b); after <= before {
		t.Errorf("position after a commit: %d, want above %d", after, before)
	}
}

// TestListenReplays: Listen from an earlier id delivers the logged messages after it, then
// the live ones, each once and in order; from an id the log was pruned past, it reports the
// loss and delivers only new messages.
func TestListenReplays(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	b := mustOpen(t, dsn, "a")
	publish(t, dsn, b, true, "seen")
	start := position(t, dsn, b)
	publish(t, dsn, b, true, "missed 1", strings.Repeat("y", 9000))
	publish(t, dsn, b, false, "rolled back")
	publish(t, dsn, b, true, "missed 3")
	in, complete := listen(t, b, start)
	if !complete {
		t.Fatal("Listen reported a loss on an unpruned log")
	}
	publish(t, dsn, b, true, "live")
	var msgs []string
	for _, r := range collect(t, in, 4) {
		msgs = append(msgs, r.msg)
	}
	if diff := cmp.Diff([]string{"missed 1", strings.Repeat("y", 9000), "missed 3", "live"}, msgs); diff != "" {
		t.Errorf("replay then live (-want +got):\n%s", diff)
	}
	quiet(t, "replaying listener", in)

	// A bus pruning everything but the newest message (retention 1ms, pruning every tenth
	// heartbeat of 100ms).
	pruner := mustOpen(t, dsn, "pruner", func(o *pgbus.Options) { o.LogRetention = time.Millisecond })
	_ = pruner
	deadline := time.Now().Add(10 * time.Second)
	for {
		in, complete := listen(t, b, start)
		if !complete {
			publish(t, dsn, b, true, "new")
			if got := next(t, in); got.msg != "new" {
				t.Errorf("after a loss: %q, want only the new message", got.msg)
			}
			quiet(t, "listener after a loss", in)
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the log was not pruned within 10s")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestRouteQueue: queue ids name their node; a node gone (closed) is reported as such, and a
// live node id cannot be taken twice.
func TestRouteQueue(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	a, b := mustOpen(t, dsn, "a"), mustOpen(t, dsn, "b")
	ctx := t.Context()
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
		local, target, _, err := a.RouteQueue(ctx, tt.id)
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
	deadline := time.Now().Add(5 * time.Second)
	for { // the cache sees the row gone within two heartbeats
		local, target, retry, err := a.RouteQueue(ctx, "b:0f0e")
		if err == nil && !local && target == nil && retry == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("RouteQueue after b closed = %v, %v, %v, %v; want not local, no target, no retry", local, target, retry, err)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A node closed with a restart grace is expected back: retry, then gone once the grace
	// ends; started again, it is reachable at its new URL.
	c := mustOpen(t, dsn, "c", func(o *pgbus.Options) { o.RestartGrace = time.Second })
	if _, target, _, _ := a.RouteQueue(ctx, "c:0f0e"); target == nil {
		t.Fatal("node c is not reachable")
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(5 * time.Second)
	for { // the cache sees the stop within two heartbeats
		_, target, retry, err := a.RouteQueue(ctx, "c:0f0e")
		if err != nil {
			t.Fatal(err)
		}
		if target == nil {
			if retry <= 0 || retry > time.Second {
				t.Fatalf("node c stopped gracefully: retry %v, want (0, 1s]", retry)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("node c still reachable 5s after its stop")
		}
		time.Sleep(20 * time.Millisecond)
	}
	c2 := mustOpen(t, dsn, "c", func(o *pgbus.Options) { o.AdvertiseURL = "http://c2.example:1" })
	for {
		_, target, _, err := a.RouteQueue(ctx, "c:0f0e")
		if err != nil {
			t.Fatal(err)
		}
		if target != nil && target.String() == "http://c2.example:1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("node c restarted is not reachable at its new URL: %v", target)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := c2.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPublishThroughSQLStore: through the SQL store's transactions (storage.SQLTx), a closure
// that fails after publishing publishes nothing, and committed ones arrive in commit order.
func TestPublishThroughSQLStore(t *testing.T) {
	t.Parallel()
	dsn := testDSN(t)
	ctx := t.Context()
	store, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	b := mustOpen(t, dsn, "a")
	in, _ := listen(t, b, 0)
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

// readOnlyTx begins a REPEATABLE READ, read-only transaction on a connection of its own;
// done rolls it back and closes the connection.
func readOnlyTx(t *testing.T, dsn string) (tx pgx.Tx, done func()) {
	t.Helper()
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	tx, err = conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		conn.Close(ctx)
		t.Fatal(err)
	}
	return tx, func() {
		tx.Rollback(ctx)
		conn.Close(ctx)
	}
}
