package sqlstore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// Whole-table reads of users, groups, channels, the organization and its linkifiers happen on most
// requests (the Service decides who may see what from them), and scanning 10,000 user rows costs
// tens of milliseconds. A Store keeps the last list it read of each such table and reuses it in a
// later transaction when it can prove that no write to the table has become visible since: the kept
// list is then exactly what the transaction's own snapshot holds, whichever process wrote last. A
// transaction that has written the table reads it afresh and never fills the cache.
//
// The proof differs by dialect:
//
//   - SQLite: every write bumps the table's row in table_versions inside the writing
//     transaction; a kept list is reused while the version a reader sees is the one it was
//     read at. (Writers are serialized by SQLite anyway, so the row costs no concurrency.)
//   - PostgreSQL: one version row would be a hot spot (concurrent SERIALIZABLE writers bumping
//     it conflict), so each writing transaction instead inserts its transaction id into
//     table_changes. A kept list carries the snapshot it was read in (pg_current_snapshot); a
//     reader whose snapshot contains that one reuses the list unless a change row it can see
//     belongs to a transaction the old snapshot could not see. At READ COMMITTED (a send's
//     UpdateReadCommitted) each statement has a snapshot of its own, so a list read after the check
//     may hold a change the check's snapshot did not see: it is kept only when a statement
//     after the read finds no such change row (unchangedSince).

// cachedTable names a table whose whole-table list is cached.
type cachedTable string

const (
	usersTable      cachedTable = "users"
	groupsTable     cachedTable = "groups"
	channelsTable   cachedTable = "channels" // subscriber_count is not part of the cached rows
	realmTable      cachedTable = "realm"    // a list of the one row
	linkifiersTable cachedTable = "linkifiers"
	mutedTable      cachedTable = "muted_users"
	alertWordsTable cachedTable = "alert_words"
	userTopicsTable cachedTable = "user_topics"   // the followed rows only
	settingsTable   cachedTable = "user_settings" // the true values only
)

// pgChangeRetention is how long table_changes rows are kept; pgCacheMaxAge (shorter) is how
// long a kept list may be validated against them. (A writing transaction running longer than
// the difference could have its change row pruned before a reader looks; the Service's
// transactions last milliseconds.)
const (
	pgChangeRetention = time.Hour
	pgCacheMaxAge     = 30 * time.Minute
)

// listCache holds the last list read of one table and what it was read at.
type listCache[T any] struct {
	mu      sync.Mutex
	list    []T // nil when nothing is kept
	version int64
	snap    pgSnapshot
	at      time.Time
}

// caches are a Store's list caches.
type caches struct {
	users      listCache[users.User]
	groups     listCache[users.Group]
	channels   listCache[channels.Channel]
	realm      listCache[realms.Realm]
	linkifiers listCache[linkifiers.Linkifier]
	muted      listCache[users.MutedUser]
	alertWords listCache[alertWord]
	followed   listCache[followedTopic]
	// settingsTrue lists each user's settings that are true (settings.go).
	settingsTrue listCache[settingsTrue]

	subscribers subscriberCache // SQLite: active subscriptions per channel (subscribers.go)
	activity    activityFloor   // the user_activity this Store has written (activity.go)
}

// bump records a write to table in t, once per table and transaction.
func (t *txn) bump(table cachedTable) error {
	if t.wrote[table] {
		return nil
	}
	var err error
	if t.d.postgres {
		now := time.Now()
		_, err = t.exec("INSERT INTO table_changes (tbl, xid, at) VALUES (?, CAST(CAST(pg_current_xact_id() AS TEXT) AS BIGINT), ?)",
			string(table), now.Unix())
		if err == nil && rand.IntN(100) == 0 {
			// Now and then, prune what no kept list can need any more.
			_, err = t.exec("DELETE FROM table_changes WHERE tbl = ? AND at < ?", string(table), now.Add(-pgChangeRetention).Unix())
		}
	} else {
		_, err = t.exec("UPDATE table_versions SET version = version + 1 WHERE name = ?", string(table))
	}
	if err != nil {
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
	kept, fresh, err := sharedList(t, table, c, load)
	if err != nil || fresh {
		return kept, err
	}
	out := slices.Clone(kept)
	if clone != nil {
		for i := range out {
			out[i] = clone(out[i])
		}
	}
	return out, nil
}

// sharedList returns the rows of table as load reads them, through c, without copying: the
// list may be the one c keeps, shared with every transaction that reads it, so nothing may
// modify it. fresh reports a list read by this call and kept nowhere else: a transaction that
// wrote table reads it afresh, and so does one whose read could not be kept.
func sharedList[T any](t *txn, table cachedTable, c *listCache[T], load func() ([]T, error)) (list []T, fresh bool, err error) {
	if t.wrote[table] {
		list, err = load()
		return list, true, err
	}
	kept, st, err := keptList(t, table, c)
	if err != nil || kept != nil {
		return kept, false, err
	}
	list, err = load()
	if err != nil {
		return nil, false, err
	}
	if list == nil {
		list = []T{} // an empty table is kept too (nil means nothing kept)
	}
	if t.pg != nil && t.pg.eachStatement {
		// The list was read in a snapshot of its own, taken after st.snap: it is the table
		// st.snap saw only when no change to the table became visible in between.
		if same, err := t.unchangedSince(table, st.snap); err != nil || !same {
			return list, true, err
		}
	}
	c.mu.Lock()
	newer := c.list == nil || (t.d.postgres && c.snap.within(st.snap)) || (!t.d.postgres && st.versions[table] > c.version)
	if newer {
		c.list, c.version, c.snap, c.at = list, st.versions[table], st.snap, time.Now()
	}
	c.mu.Unlock()
	return list, !newer, nil
}

// unchangedSince reports whether every change to table that a statement run now sees was
// seen by snap too (PostgreSQL).
func (t *txn) unchangedSince(table cachedTable, snap pgSnapshot) (bool, error) {
	var text string
	if err := t.get("SELECT COALESCE(string_agg(tbl || ':' || CAST(xid AS TEXT), ','), '') FROM table_changes WHERE tbl = ? AND xid >= ?",
		[]any{string(table), snap.xmin}, &text); err != nil {
		return false, err
	}
	changes := map[cachedTable][]int64{}
	if err := parseChanges(text, changes); err != nil {
		return false, err
	}
	return snap.sawAll(changes[table]), nil
}

// keptList returns the list c keeps when it is exactly what the transaction would read of
// table (nil otherwise: nothing kept, or kept from a state the transaction does not see), and
// the transaction's tableState. It reads no row of table; the list is shared (read it, never
// modify it). A transaction that wrote table gets nil.
func keptList[T any](t *txn, table cachedTable, c *listCache[T]) ([]T, *tableState, error) {
	if t.wrote[table] {
		return nil, nil, nil
	}
	c.mu.Lock()
	kept, version, snap, at := c.list, c.version, c.snap, c.at
	c.mu.Unlock()

	st, err := t.tableState()
	if err != nil {
		return nil, nil, err
	}
	var hit bool
	if t.d.postgres {
		// A kept list not known when the transaction read the change rows cannot be checked.
		since, read := st.since[table]
		hit = kept != nil && read && snap.xmin >= since && time.Since(at) <= pgCacheMaxAge &&
			snap.within(st.snap) && snap.sawAll(st.changes[table])
	} else {
		hit = kept != nil && version == st.versions[table]
	}
	if !hit {
		return nil, st, nil
	}
	return kept, st, nil
}

// tableState is what a transaction reads once, on its first cached list, about every cached
// table: on SQLite the versions; on PostgreSQL its snapshot and, for each table with a kept
// list, the change rows of transactions from since (the xmin of the kept list's snapshot) on.
type tableState struct {
	versions map[cachedTable]int64
	snap     pgSnapshot
	since    map[cachedTable]int64
	changes  map[cachedTable][]int64
}

// tableState reads the transaction's tableState (once).
func (t *txn) tableState() (*tableState, error) {
	if t.tables != nil {
		return t.tables, nil
	}
	st := &tableState{versions: map[cachedTable]int64{}, changes: map[cachedTable][]int64{}}
	if !t.d.postgres {
		rows, err := t.query("SELECT name, version FROM table_versions")
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var name string
			var v int64
			if err := rows.Scan(&name, &v); err != nil {
				return nil, t.check(err)
			}
			st.versions[cachedTable(name)] = v
		}
		if err := t.check(rows.Err()); err != nil {
			return nil, err
		}
		t.tables = st
		return st, nil
	}
	st.since = t.cache.keptXmins()
	// One statement: the snapshot, and the change rows a kept list must be checked against
	// ("tbl:xid" pairs, comma-separated; an aggregate row exists even when none match). The
	// tables and their xmins travel as two arrays, so that the statement's text, prepared
	// once per connection, is the same whichever lists are kept.
	tables := make([]string, 0, len(st.since))
	xmins := make([]int64, 0, len(st.since))
	for table, xmin := range st.since {
		tables, xmins = append(tables, string(table)), append(xmins, xmin)
	}
	var snapText, changes string
	if err := t.getFirst(`SELECT CAST(pg_current_snapshot() AS TEXT), COALESCE(string_agg(c.tbl || ':' || CAST(c.xid AS TEXT), ','), '')
		FROM unnest(CAST(? AS TEXT[]), CAST(? AS BIGINT[])) AS k(tbl, xid) JOIN table_changes AS c ON c.tbl = k.tbl AND c.xid >= k.xid`,
		[]any{tables, xmins}, &snapText, &changes); err != nil {
		return nil, err
	}
	var err error
	if st.snap, err = parseSnapshot(snapText); err != nil {
		return nil, err
	}
	if err := parseChanges(changes, st.changes); err != nil {
		return nil, err
	}
	t.tables = st
	return st, nil
}

// parseChanges adds the change rows of text ("tbl:xid" pairs, comma-separated) to into.
func parseChanges(text string, into map[cachedTable][]int64) error {
	if text == "" {
		return nil
	}
	for _, pair := range strings.Split(text, ",") {
		name, x, ok := strings.Cut(pair, ":")
		xid, err := strconv.ParseInt(x, 10, 64)
		if !ok || err != nil {
			return fmt.Errorf("sqlstore: unexpected change row %q", pair)
		}
		into[cachedTable(name)] = append(into[cachedTable(name)], xid)
	}
	return nil
}

// keptXmins maps each table with a kept list to the xmin of that list's snapshot.
func (c *caches) keptXmins() map[cachedTable]int64 {
	out := map[cachedTable]int64{}
	for table, xmin := range map[cachedTable]func() (int64, bool){
		usersTable: c.users.keptXmin, groupsTable: c.groups.keptXmin, channelsTable: c.channels.keptXmin,
		realmTable: c.realm.keptXmin, linkifiersTable: c.linkifiers.keptXmin, mutedTable: c.muted.keptXmin,
		alertWordsTable: c.alertWords.keptXmin, userTopicsTable: c.followed.keptXmin,
		settingsTable: c.settingsTrue.keptXmin,
	} {
		if x, ok := xmin(); ok {
			out[table] = x
		}
	}
	return out
}

// keptXmin is the xmin of the kept list's snapshot (ok false when none is kept).
func (c *listCache[T]) keptXmin() (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snap.xmin, c.list != nil
}

// pgSnapshot is a PostgreSQL snapshot (pg_current_snapshot): every transaction below xmin
// had finished, none from xmax on had, and xip lists those in between still in progress.
type pgSnapshot struct {
	xmin, xmax int64
	xip        []int64 // ascending
}

// parseSnapshot reads the text form xmin:xmax:xip,xip,...
func parseSnapshot(s string) (pgSnapshot, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return pgSnapshot{}, fmt.Errorf("sqlstore: unexpected snapshot %q", s)
	}
	var snap pgSnapshot
	var err error
	if snap.xmin, err = strconv.ParseInt(parts[0], 10, 64); err != nil {
		return pgSnapshot{}, fmt.Errorf("sqlstore: snapshot %q: %w", s, err)
	}
	if snap.xmax, err = strconv.ParseInt(parts[1], 10, 64); err != nil {
		return pgSnapshot{}, fmt.Errorf("sqlstore: snapshot %q: %w", s, err)
	}
	if parts[2] != "" {
		for _, x := range strings.Split(parts[2], ",") {
			id, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return pgSnapshot{}, fmt.Errorf("sqlstore: snapshot %q: %w", s, err)
			}
			snap.xip = append(snap.xip, id)
		}
		slices.Sort(snap.xip)
	}
	return snap, nil
}

// sees reports whether a transaction that has committed is visible in s.
func (s pgSnapshot) sees(xid int64) bool {
	if xid >= s.xmax {
		return false
	}
	_, inProgress := slices.BinarySearch(s.xip, xid)
	return !inProgress
}

// within reports whether every transaction s sees is seen by later too (later is not an
// older snapshot than s). The zero snapshot is within none.
func (s pgSnapshot) within(later pgSnapshot) bool {
	if s.xmax == 0 || later.xmax < s.xmax {
		return false
	}
	// A transaction later still sees as running must have been running (or not started)
	// for s too.
	for _, x := range later.xip {
		if x < s.xmax && s.sees(x) {
			return false
		}
	}
	return true
}

// sawAll reports whether s sees every transaction in xids (change rows a later reader
// sees, whose transactions have therefore committed).
func (s pgSnapshot) sawAll(xids []int64) bool {
	for _, x := range xids {
		if !s.sees(x) {
			return false
		}
	}
	return true
}
