package pgbus

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// cleanupEvery is how many heartbeats pass between prunings of the log and of the rows of
// nodes long gone.
const cleanupEvery = 10

// goneNodeRetention is how long the row of a silent node is kept (RouteQueue answers "gone"
// either way).
const goneNodeRetention = 24 * time.Hour

// heartbeat refreshes the node's row and the route cache, and now and then prunes the log and
// the rows of nodes long gone, until ctx ends.
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
		if err := b.loadRoutes(ctx, ""); err != nil && ctx.Err() == nil {
			b.log.Warn("event bus node list failed", "err", err)
		}
		if beat%cleanupEvery != 0 {
			continue
		}
		if err := b.prune(ctx); err != nil && ctx.Err() == nil {
			b.log.Warn("event bus log pruning failed", "err", err)
		}
		if _, err := b.pool.Exec(ctx, `DELETE FROM chat_bus_nodes WHERE heartbeat < now() - $1::interval AND (back_by IS NULL OR back_by < now())`,
			interval(goneNodeRetention)); err != nil && ctx.Err() == nil {
			b.log.Warn("event bus node cleanup failed", "err", err)
		}
	}
}

// prune deletes the log's messages older than LogRetention, but never the newest (Position
// reads it), and records the largest id deleted: a listener resuming from an id below it has
// missed messages.
func (b *Bus) prune(ctx context.Context) error {
	_, err := b.pool.Exec(ctx, `
WITH gone AS (
	DELETE FROM chat_bus_log WHERE created < now() - $1::interval AND id < (SELECT max(id) FROM chat_bus_log)
	RETURNING id)
UPDATE chat_bus_pruned SET through = GREATEST(through, (SELECT max(id) FROM gone)) WHERE EXISTS (SELECT 1 FROM gone)`,
		interval(b.opts.LogRetention))
	return err
}

// route is what a process knows of another node: its URL, until when it counts as alive
// (heartbeat plus NodeTimeout), and, after a graceful stop, until when it is expected back.
// Times are on this process's clock; fetched says when the row was read.
type route struct {
	url        *url.URL
	aliveUntil time.Time
	backBy     time.Time
	fetched    time.Time
}

// routeCache holds the nodes' rows, refreshed every heartbeat, so that forwarding a request
// needs no query. An entry is trusted for two heartbeat intervals; a node counts as gone as
// soon as its heartbeat expires, cached or not.
type routeCache struct {
	mu    sync.Mutex
	nodes map[string]route
}

// loadRoutes reads the row of node ("" for every node) into the cache; a node without a row
// is cached as gone.
func (b *Bus) loadRoutes(ctx context.Context, node string) error {
	now := time.Now()
	rows, err := b.pool.Query(ctx, `
SELECT node, url, EXTRACT(EPOCH FROM heartbeat + $1::interval - now())::float8,
	EXTRACT(EPOCH FROM back_by - now())::float8
FROM chat_bus_nodes WHERE $2 = '' OR node = $2`, interval(b.opts.NodeTimeout), node)
	if err != nil {
		return fmt.Errorf("pgbus: %w", err)
	}
	found := map[string]route{}
	var (
		name, raw string
		life      float64
		back      *float64
	)
	_, err = pgx.ForEachRow(rows, []any{&name, &raw, &life, &back}, func() error {
		u, err := url.Parse(raw)
		if err != nil {
			return fmt.Errorf("node %s: %w", name, err)
		}
		r := route{url: u, fetched: now}
		if back != nil {
			r.backBy = now.Add(time.Duration(*back * float64(time.Second)))
		} else {
			r.aliveUntil = now.Add(time.Duration(life * float64(time.Second)))
		}
		found[name] = r
		return nil
	})
	if err != nil {
		return fmt.Errorf("pgbus: %w", err)
	}
	b.routes.mu.Lock()
	defer b.routes.mu.Unlock()
	if node != "" {
		if b.routes.nodes == nil {
			b.routes.nodes = map[string]route{}
		}
		r, ok := found[node]
		if !ok {
			r = route{fetched: now}
		}
		b.routes.nodes[node] = r
		return nil
	}
	b.routes.nodes = found
	return nil
}

// cachedRoute returns the cached row of node while it is trusted.
func (b *Bus) cachedRoute(node string, now time.Time) (route, bool) {
	b.routes.mu.Lock()
	defer b.routes.mu.Unlock()
	r, ok := b.routes.nodes[node]
	if !ok || now.Sub(r.fetched) > 2*b.opts.HeartbeatInterval {
		return route{}, false
	}
	return r, true
}

// RouteQueue says where an event queue lives: local when this node holds it (or its id names
// no node); otherwise the advertised URL of its node, or, when that node stopped gracefully
// and is expected back, how long to wait before retrying (retry > 0, no target), or neither
// when the node is gone. It reads the route cache, and PostgreSQL only for a node missing
// from it or no longer trusted.
func (b *Bus) RouteQueue(ctx context.Context, queueID string) (local bool, target *url.URL, retry time.Duration, err error) {
	node, _, ok := strings.Cut(queueID, ":")
	if !ok || node == b.opts.Node {
		return true, nil, 0, nil
	}
	now := time.Now()
	r, ok := b.cachedRoute(node, now)
	if !ok {
		if err := b.loadRoutes(ctx, node); err != nil {
			return false, nil, 0, err
		}
		if r, ok = b.cachedRoute(node, now); !ok {
			return false, nil, 0, errors.New("pgbus: route cache refused a fresh entry")
		}
	}
	switch {
	case now.Before(r.aliveUntil):
		return false, r.url, 0, nil
	case now.Before(r.backBy):
		return false, nil, min(r.backBy.Sub(now), maxRetryAfter), nil
	}
	return false, nil, 0, nil
}

// maxRetryAfter bounds the wait RouteQueue suggests for a node expected back.
const maxRetryAfter = 5 * time.Second
