package pgbus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/teamchat/chat/storage"
)

// Defaults of Options.
const (
	DefaultHeartbeatInterval = 2 * time.Second
	DefaultNodeTimeout       = 10 * time.Second
	DefaultPayloadRetention  = 10 * time.Minute
)

// maxInline is the largest notification payload sent inline; PostgreSQL refuses 8000 bytes
// and more.
const maxInline = 7900

// Options configure a Bus.
type Options struct {
	// URL is the PostgreSQL connection string (postgres://...), the store's.
	URL string
	// Node is this process's id (chat.Options.NodeID); required, without ":".
	Node string
	// AdvertiseURL is the base URL (scheme://host:port) at which the other processes reach
	// this one; required.
	AdvertiseURL string
	// HeartbeatInterval is how often the node's row is refreshed.
	HeartbeatInterval time.Duration
	// NodeTimeout is how old a heartbeat may be before its node counts as gone.
	NodeTimeout time.Duration
	// PayloadRetention is how long large payloads stay in chat_bus_payloads.
	PayloadRetention time.Duration
	// Logger receives the bus's logs; nil means slog.Default().
	Logger *slog.Logger
}

// Bus is the PostgreSQL event bus of one process.
type Bus struct {
	opts      Options
	advertise *url.URL
	pool      *pgxpool.Pool
	channel   string
	instance  string
	log       *slog.Logger

	stop      context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// ErrNodeRunning: another live process already uses the node id.
var ErrNodeRunning = errors.New("pgbus: another live process uses this node id")

// schema creates the bus's tables.
const schema = `
CREATE TABLE IF NOT EXISTS chat_bus_payloads (
	id      BIGSERIAL PRIMARY KEY,
	created TIMESTAMPTZ NOT NULL DEFAULT now(),
	body    BYTEA NOT NULL
);
CREATE TABLE IF NOT EXISTS chat_bus_nodes (
	node      TEXT PRIMARY KEY,
	url       TEXT NOT NULL,
	instance  TEXT NOT NULL,
	started   TIMESTAMPTZ NOT NULL,
	heartbeat TIMESTAMPTZ NOT NULL
);`

// Open connects, creates the tables if needed, announces the node and starts its heartbeat.
func Open(ctx context.Context, opts Options) (*Bus, error) {
	if opts.Node == "" || strings.ContainsAny(opts.Node, ": /") {
		return nil, fmt.Errorf("pgbus: node id %q must be non-empty, without ':', ' ' or '/'", opts.Node)
	}
	adv, err := url.Parse(opts.AdvertiseURL)
	if err != nil || adv.Scheme == "" || adv.Host == "" {
		return nil, fmt.Errorf("pgbus: advertise URL %q must be an absolute URL", opts.AdvertiseURL)
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = DefaultHeartbeatInterval
	}
	if opts.NodeTimeout <= 0 {
		opts.NodeTimeout = DefaultNodeTimeout
	}
	if opts.PayloadRetention <= 0 {
		opts.PayloadRetention = DefaultPayloadRetention
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	cfg, err := pgxpool.ParseConfig(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("pgbus: %w", err)
	}
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("pgbus: %w", err)
	}
	var tok [12]byte
	_, _ = rand.Read(tok[:])
	b := &Bus{opts: opts, advertise: adv, pool: pool, instance: hex.EncodeToString(tok[:]), log: opts.Logger}
	if err := b.setup(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	hctx, cancel := context.WithCancel(context.Background())
	b.stop = cancel
	b.wg.Add(1)
	go b.heartbeat(hctx)
	return b, nil
}

// setup creates the tables, finds the channel and inserts the node's row.
func (b *Bus) setup(ctx context.Context) error {
	err := pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('teamchat pgbus schema'))`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, schema); err != nil {
			return err
		}
		var current string
		if err := tx.QueryRow(ctx, `SELECT current_schema()`).Scan(&current); err != nil {
			return err
		}
		b.channel = "teamchat_events_" + current
		tag, err := tx.Exec(ctx, `
INSERT INTO chat_bus_nodes (node, url, instance, started, heartbeat) VALUES ($1, $2, $3, now(), now())
ON CONFLICT (node) DO UPDATE SET url = EXCLUDED.url, instance = EXCLUDED.instance,
	started = EXCLUDED.started, heartbeat = EXCLUDED.heartbeat
WHERE chat_bus_nodes.heartbeat < now() - $4::interval`,
			b.opts.Node, b.advertise.String(), b.instance, interval(b.opts.NodeTimeout))
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("%w (node %q); wait %s or choose another --node-id", ErrNodeRunning, b.opts.Node, b.opts.NodeTimeout)
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrNodeRunning) {
		err = fmt.Errorf("pgbus: setup: %w", err)
	}
	return err
}

// interval renders d for a PostgreSQL interval parameter.
func interval(d time.Duration) string {
	return strconv.FormatInt(d.Microseconds(), 10) + " microseconds"
}

// cleanupEvery is how many heartbeats pass between deletions of expired payloads and of the
// rows of nodes long gone.
const cleanupEvery = 10

// goneNodeRetention is how long the row of a silent node is kept (RouteQueue answers "gone"
// either way).
const goneNodeRetention = 24 * time.Hour

// heartbeat refreshes the node's row, and now and then deletes expired payloads and the rows of
// nodes long gone, until ctx ends.
func (b *Bus) heartbeat(ctx context.Context) {
	defer b.wg.Done()
	tick := time.NewTicker(b.opts.HeartbeatInterval)
	defer tick.Stop()
	for beat := 1; ; beat++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		tag, err := b.pool.Exec(ctx, `UPDATE chat_bus_nodes SET heartbeat = now() WHERE node = $1 AND instance = $2`,
			b.opts.Node, b.instance)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			b.log.Warn("event bus heartbeat failed", "err", err)
		case tag.RowsAffected() == 0:
			b.log.Error("event bus node row taken over by another process", "node", b.opts.Node)
		}
		if beat%cleanupEvery != 0 {
			continue
		}
		if _, err := b.pool.Exec(ctx, `DELETE FROM chat_bus_payloads WHERE created < now() - $1::interval`,
			interval(b.opts.PayloadRetention)); err != nil && ctx.Err() == nil {
			b.log.Warn("event bus payload cleanup failed", "err", err)
		}
		if _, err := b.pool.Exec(ctx, `DELETE FROM chat_bus_nodes WHERE heartbeat < now() - $1::interval`,
			interval(goneNodeRetention)); err != nil && ctx.Err() == nil {
			b.log.Warn("event bus node cleanup failed", "err", err)
		}
	}
}

// Close stops the heartbeat, removes the node's row (its queues are gone with it) and closes
// the connections.
func (b *Bus) Close() error {
	var err error
	b.closeOnce.Do(func() {
		b.stop()
		b.wg.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = b.pool.Exec(ctx, `DELETE FROM chat_bus_nodes WHERE node = $1 AND instance = $2`, b.opts.Node, b.instance)
		b.pool.Close()
	})
	return err
}

// Channel is the notification channel of the bus.
func (b *Bus) Channel() string { return b.channel }

// sqlTx finds the SQL capability of a PostgreSQL store's transaction.
func sqlTx(tx any) (storage.SQLTx, error) {
	s, ok := tx.(storage.SQLTx)
	if !ok || s.SQLDialect() != "postgres" {
		return nil, errors.New("pgbus: the store is not PostgreSQL (its transactions lack storage.SQLTx)")
	}
	return s, nil
}

// Publish notifies msg in tx: inline when it fits, else through chat_bus_payloads.
func (b *Bus) Publish(tx storage.Tx, msg []byte) error {
	s, err := sqlTx(tx)
	if err != nil {
		return err
	}
	var xid int64
	if err := s.QueryRowSQL(`SELECT pg_current_xact_id()::text::bigint`, nil, &xid); err != nil {
		return fmt.Errorf("pgbus: %w", err)
	}
	payload := strconv.FormatInt(xid, 10) + ":"
	if len(payload)+len(msg) <= maxInline {
		payload += string(msg)
	} else {
		var id int64
		if err := s.QueryRowSQL(`INSERT INTO chat_bus_payloads (body) VALUES (?) RETURNING id`, []any{msg}, &id); err != nil {
			return fmt.Errorf("pgbus: storing a large payload: %w", err)
		}
		payload += "@" + strconv.FormatInt(id, 10)
	}
	if err := s.ExecSQL(`SELECT pg_notify(?, ?)`, b.channel, payload); err != nil {
		return fmt.Errorf("pgbus: notify: %w", err)
	}
	return nil
}

// Snapshot reads the snapshot of tx and reports which transaction ids it includes.
func (b *Bus) Snapshot(tx storage.ReadTx) (func(id uint64) bool, error) {
	s, err := sqlTx(tx)
	if err != nil {
		return nil, err
	}
	var text string
	if err := s.QueryRowSQL(`SELECT pg_current_snapshot()::text`, nil, &text); err != nil {
		return nil, fmt.Errorf("pgbus: %w", err)
	}
	snap, err := parseSnapshot(text)
	if err != nil {
		return nil, err
	}
	return snap.includes, nil
}

// snapshot is a parsed pg_snapshot: xmin:xmax:xip,...
type snapshot struct {
	xmin, xmax uint64
	inProgress map[uint64]bool
}

func parseSnapshot(text string) (snapshot, error) {
	parts := strings.Split(text, ":")
	bad := fmt.Errorf("pgbus: unreadable snapshot %q", text)
	if len(parts) != 3 {
		return snapshot{}, bad
	}
	var s snapshot
	var err error
	if s.xmin, err = strconv.ParseUint(parts[0], 10, 64); err != nil {
		return snapshot{}, bad
	}
	if s.xmax, err = strconv.ParseUint(parts[1], 10, 64); err != nil {
		return snapshot{}, bad
	}
	if parts[2] != "" {
		s.inProgress = map[uint64]bool{}
		for _, x := range strings.Split(parts[2], ",") {
			id, err := strconv.ParseUint(x, 10, 64)
			if err != nil {
				return snapshot{}, bad
			}
			s.inProgress[id] = true
		}
	}
	return s, nil
}

// includes reports whether a transaction is visible in the snapshot (as
// pg_visible_in_snapshot, for committed transactions).
func (s snapshot) includes(xid uint64) bool {
	if xid < s.xmin {
		return true
	}
	return xid < s.xmax && !s.inProgress[xid]
}

// Listen delivers the bus's messages until ctx ends or the connection fails.
func (b *Bus) Listen(ctx context.Context, ready func(), deliver func(id uint64, msg []byte)) error {
	conn, err := pgx.ConnectConfig(ctx, b.pool.Config().ConnConfig.Copy())
	if err != nil {
		return fmt.Errorf("pgbus: listen: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{b.channel}.Sanitize()); err != nil {
		return fmt.Errorf("pgbus: listen: %w", err)
	}
	ready()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("pgbus: listen: %w", err)
		}
		xidText, rest, ok := strings.Cut(n.Payload, ":")
		xid, perr := strconv.ParseUint(xidText, 10, 64)
		if !ok || perr != nil {
			return fmt.Errorf("pgbus: unreadable notification %.40q", n.Payload)
		}
		msg := []byte(rest)
		if ref, large := strings.CutPrefix(rest, "@"); large {
			row, err := strconv.ParseInt(ref, 10, 64)
			if err != nil {
				return fmt.Errorf("pgbus: unreadable notification %.40q", n.Payload)
			}
			if err := conn.QueryRow(ctx, `SELECT body FROM chat_bus_payloads WHERE id = $1`, row).Scan(&msg); err != nil {
				return fmt.Errorf("pgbus: reading large payload %d: %w", row, err)
			}
		}
		deliver(xid, msg)
	}
}

// RouteQueue says where an event queue lives: local when this node holds it (or its id names
// no node), otherwise the advertised URL of its node, or nil when that node is gone.
func (b *Bus) RouteQueue(ctx context.Context, queueID string) (local bool, target *url.URL, err error) {
	node, _, ok := strings.Cut(queueID, ":")
	if !ok || node == b.opts.Node {
		return true, nil, nil
	}
	var (
		raw   string
		alive bool
	)
	err = b.pool.QueryRow(ctx, `SELECT url, heartbeat >= now() - $2::interval FROM chat_bus_nodes WHERE node = $1`,
		node, interval(b.opts.NodeTimeout)).Scan(&raw, &alive)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, fmt.Errorf("pgbus: %w", err)
	}
	if !alive {
		return false, nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return false, nil, fmt.Errorf("pgbus: node %s: %w", node, err)
	}
	return false, u, nil
}
