package sqlstore

import (
	"slices"
	"sync"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// Whole-table reads of users, groups and channels happen on most requests (the Service decides who may
// see what from them), and scanning 10,000 user rows costs tens of milliseconds. A Store
// keeps the last list it read of each such table with the table's version (table_versions),
// which every write to the table bumps inside the writing transaction. A later List reads the
// version in its own transaction and reuses the kept list when it matches: the list is then
// exactly what the transaction's snapshot holds, whichever process wrote last. A transaction
// that has written the table reads it afresh (its version is not committed yet) and never
// fills the cache.
//
// Only SQLite uses the caches. On PostgreSQL the version row would be a hot spot: writers run
// SERIALIZABLE and concurrently, and two transactions bumping one row conflict, so concurrent
// sign-ups would retry each other into failure; there the lists are read from the tables.

// cachedTable names a table with a version row.
type cachedTable string

const (
	usersTable    cachedTable = "users"
	groupsTable   cachedTable = "groups"
	channelsTable cachedTable = "channels" // subscriber_count is not part of the cached rows
)

// listCache holds the last list read of one table and the version it was read at.
type listCache[T any] struct {
	mu      sync.Mutex
	version int64
	list    []T // nil when nothing is kept
}

// caches are a Store's list caches.
type caches struct {
	users    listCache[users.User]
	groups   listCache[users.Group]
	channels listCache[channels.Channel]
}

// bump records a write to table in t: the first write of each table in a transaction bumps
// its version.
func (t *txn) bump(table cachedTable) error {
	if t.wrote[table] || t.d.postgres {
		return nil
	}
	if _, err := t.exec("UPDATE table_versions SET version = version + 1 WHERE name = ?", string(table)); err != nil {
		return err
	}
	if t.wrote == nil {
		t.wrote = map[cachedTable]bool{}
	}
	t.wrote[table] = true
	return nil
}

// cachedList returns the rows of table as load reads them, through c. clone copies a row
// so that callers may modify what they get.
func cachedList[T any](t *txn, table cachedTable, c *listCache[T], clone func(T) T, load func() ([]T, error)) ([]T, error) {
	if t.wrote[table] || t.d.postgres {
		return load()
	}
	var version int64
	if err := t.get("SELECT version FROM table_versions WHERE name = ?", []any{string(table)}, &version); err != nil {
		return nil, err
	}
	c.mu.Lock()
	kept, keptVersion := c.list, c.version
	c.mu.Unlock()
	if kept == nil || keptVersion != version {
		list, err := load()
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		if c.list == nil || version > c.version {
			c.list, c.version = list, version
		}
		c.mu.Unlock()
		kept = list
	}
	out := slices.Clone(kept)
	if clone != nil {
		for i := range out {
			out[i] = clone(out[i])
		}
	}
	return out, nil
}
