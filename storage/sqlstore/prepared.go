package sqlstore

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// SQLite parses every statement it is given (sqlite3_prepare), and parsing was about a third
// of the CPU of a send. A stmtCache keeps prepared statements of one SQLite connection pool:
// a statement text seen preparedAfter times is prepared once, after the transaction that saw
// it (the connection is then free: SQLite's writer pool has one), and later transactions run
// it through Tx.StmtContext, which reuses the connection's prepared statement. Statements
// whose text varies (lists of rows) mostly stay below the threshold, and the cache is
// bounded. PostgreSQL needs none of this: pgx prepares and caches statements per connection.
type stmtCache struct {
	db *sql.DB

	mu       sync.Mutex
	prepared map[string]*sql.Stmt
	seen     map[string]int // texts not prepared yet, and how often they ran
	pending  []string       // texts to prepare once the transaction is over
}

const (
	// preparedAfter is how often a text runs before it is prepared.
	preparedAfter = 3
	// maxPrepared bounds the prepared statements of a pool, maxSeen the texts counted.
	maxPrepared = 512
	maxSeen     = 4096
	// prepareTimeout bounds the preparation of one statement.
	prepareTimeout = 5 * time.Second
)

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, prepared: map[string]*sql.Stmt{}, seen: map[string]int{}}
}

// lookup returns the prepared statement of query, or nil (and counts the query).
func (c *stmtCache) lookup(query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.prepared[query]; ok {
		return st
	}
	if len(c.prepared) >= maxPrepared {
		return nil
	}
	if len(c.seen) >= maxSeen {
		clear(c.seen)
	}
	c.seen[query]++
	if c.seen[query] == preparedAfter {
		c.pending = append(c.pending, query)
	}
	return nil
}

// preparePending prepares the statements that reached the threshold; a text that fails to
// prepare is not tried again.
func (c *stmtCache) preparePending() {
	if c == nil {
		return
	}
	c.mu.Lock()
	todo := c.pending
	c.pending = nil
	c.mu.Unlock()
	for _, q := range todo {
		ctx, cancel := context.WithTimeout(context.Background(), prepareTimeout)
		st, err := c.db.PrepareContext(ctx, q)
		cancel()
		c.mu.Lock()
		if err == nil && c.prepared[q] == nil && len(c.prepared) < maxPrepared {
			c.prepared[q] = st
			delete(c.seen, q)
		} else if err == nil {
			st.Close()
		}
		c.mu.Unlock()
	}
}

// close closes the prepared statements.
func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.prepared {
		st.Close()
		delete(c.prepared, q)
	}
}
