package pgbus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
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
	DefaultLogRetention      = 10 * time.Minute
)

// maxInline is the largest message sent inline in a notification ("ID:" comes first);
// PostgreSQL refuses payloads of 8000 bytes and more.
const maxInline = 7850

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
	// LogRetention is how long messages stay in chat_bus_log: a process that stopped (or lost
	// its connection) longer ago cannot continue its queues.
	LogRetention time.Duration
	// RestartGrace is how long, after Close, the other processes answer requests for this
	// node's queues with 503 (retry) rather than BAD_EVENT_QUEUE_ID, expecting it back with
	// its saved queues. Zero: the node is not expected back.
	RestartGrace time.Duration
	// Logger receives the bus's logs; nil means slog.Default().
	Logger *slog.Logger
}

// Bus is the PostgreSQL event bus of one process.
type Bus struct {
	opts      Options
	advertise *url.URL
	pool      *pgxpool.Pool
	channel   string
	lockKey   int64
	instance  string
	log       *slog.Logger
	routes    routeCache
	// nodeConn holds the lock on the node id (lockNode).
	nodeConn *pgxpool.Conn

	stop      context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// ErrNodeRunning: another live process already uses the node id.
var ErrNodeRunning = errors.New("pgbus: another live process uses this node id")

// schema creates the bus's tables: the log of messages (ids from a sequence), how far it was
// pruned, and the nodes.
const schema = `
CREATE TABLE IF NOT EXISTS chat_bus_log (
	id      BIGINT PRIMARY KEY,
	created TIMESTAMPTZ NOT NULL DEFAULT now(),
	body    BYTEA NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_bus_log_created ON chat_bus_log (created);
CREATE SEQUENCE IF NOT EXISTS chat_bus_log_ids;
CREATE TABLE IF NOT EXISTS chat_bus_pruned (
	one     BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
	through BIGINT NOT NULL
);
INSERT INTO chat_bus_pruned (one, through) VALUES (TRUE, 0) ON CONFLICT DO NOTHING;
DROP TABLE IF EXISTS chat_bus_payloads;
CREATE TABLE IF NOT EXISTS chat_bus_nodes (
	node      TEXT PRIMARY KEY,
	url       TEXT NOT NULL,
	instance  TEXT NOT NULL,
	started   TIMESTAMPTZ NOT NULL,
	heartbeat TIMESTAMPTZ NOT NULL
);
ALTER TABLE chat_bus_nodes ADD COLUMN IF NOT EXISTS back_by TIMESTAMPTZ;`

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
	if opts.LogRetention <= 0 {
		opts.LogRetention = DefaultLogRetention
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	cfg, err := pgxpool.ParseConfig(opts.URL)
	if err != nil {
		return nil, fmt.Errorf("pgbus: %w", err)
	}
	cfg.MaxConns = 5 // one of them holds the node id (lockNode)
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
		h := fnv.New64a()
		h.Write([]byte(b.channel))
		b.lockKey = int64(h.Sum64())
		return nil
	})
	if err != nil {
		return fmt.Errorf("pgbus: setup: %w", err)
	}
	if err := b.lockNode(ctx); err != nil {
		return err
	}
	_, err = b.pool.Exec(ctx, `
INSERT INTO chat_bus_nodes (node, url, instance, started, heartbeat) VALUES ($1, $2, $3, now(), now())
ON CONFLICT (node) DO UPDATE SET url = EXCLUDED.url, instance = EXCLUDED.instance,
	started = EXCLUDED.started, heartbeat = EXCLUDED.heartbeat, back_by = NULL`,
		b.opts.Node, b.advertise.String(), b.instance)
	if err != nil {
		b.unlockNode()
		return fmt.Errorf("pgbus: registering the node: %w", err)
	}
	return nil
}

// lockNode takes the node id for this process: a session-level advisory lock on it, held on a
// connection of its own until Close. PostgreSQL releases it the moment that connection ends,
// so a process that was killed (SIGKILL, a crash) frees its node id at once and can be
// restarted straight away, while a live process keeps it: a second process with the same id
// gets ErrNodeRunning.
func (b *Bus) lockNode(ctx context.Context) error {
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("pgbus: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte(b.channel + "\x00node\x00" + b.opts.Node))
	var got bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, int64(h.Sum64())).Scan(&got); err != nil {
		conn.Release()
		return fmt.Errorf("pgbus: locking the node id: %w", err)
	}
	if !got {
		conn.Release()
		return fmt.Errorf("%w (node %q): stop it first or choose another --node-id", ErrNodeRunning, b.opts.Node)
	}
	b.nodeConn = conn
	return nil
}

// unlockNode gives the node id up: closing the lock's connection releases the lock.
func (b *Bus) unlockNode() {
	if b.nodeConn != nil {
		_ = b.nodeConn.Hijack().Close(context.Background())
		b.nodeConn = nil
	}
}

// interval renders d for a PostgreSQL interval parameter.
func interval(d time.Duration) string {
	return strconv.FormatInt(d.Microseconds(), 10) + " microseconds"
}

// Close stops the heartbeat and closes the connections. With a RestartGrace the node's row
// says until when it is expected back; without, the row is deleted (its queues are gone).
func (b *Bus) Close() error {
	var err error
	b.closeOnce.Do(func() {
		b.stop()
		b.wg.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if b.opts.RestartGrace > 0 {
			_, err = b.pool.Exec(ctx, `UPDATE chat_bus_nodes SET back_by = now() + $3::interval WHERE node = $1 AND instance = $2`,
				b.opts.Node, b.instance, interval(b.opts.RestartGrace))
		} else {
			_, err = b.pool.Exec(ctx, `DELETE FROM chat_bus_nodes WHERE node = $1 AND instance = $2`, b.opts.Node, b.instance)
		}
		b.unlockNode()
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

// Publish appends msg to the log in tx and notifies it: inline when it fits, else as a
// reference to its log row. The id comes from a sequence taken under a transaction-level
// advisory lock, held until commit, so that ids increase in commit order and the commits
// visible in any snapshot are exactly those up to some id. (NOTIFY already serialises the
// commits of notifying transactions; the lock extends that to the few statements of Publish.)
func (b *Bus) Publish(tx storage.Tx, msg []byte) error {
	s, err := sqlTx(tx)
	if err != nil {
		return err
	}
	if err := s.ExecSQL(`SELECT pg_advisory_xact_lock(?)`, b.lockKey); err != nil {
		return fmt.Errorf("pgbus: %w", err)
	}
	var id int64
	if err := s.QueryRowSQL(`INSERT INTO chat_bus_log (id, body) VALUES (nextval('chat_bus_log_ids'), ?) RETURNING id`,
		[]any{msg}, &id); err != nil {
		return fmt.Errorf("pgbus: logging a message: %w", err)
	}
	payload := strconv.FormatInt(id, 10) + ":"
	if len(msg) <= maxInline {
		payload += string(msg)
	} else {
		payload += "@"
	}
	if err := s.ExecSQL(`SELECT pg_notify(?, ?)`, b.channel, payload); err != nil {
		return fmt.Errorf("pgbus: notify: %w", err)
	}
	return nil
}

// Position returns the id of the last message that tx's snapshot includes.
func (b *Bus) Position(tx storage.ReadTx) (uint64, error) {
	s, err := sqlTx(tx)
	if err != nil {
		return 0, err
	}
	var id int64
	if err := s.QueryRowSQL(`SELECT GREATEST((SELECT COALESCE(max(id), 0) FROM chat_bus_log), (SELECT through FROM chat_bus_pruned))`,
		nil, &id); err != nil {
		return 0, fmt.Errorf("pgbus: %w", err)
	}
	return uint64(id), nil
}
