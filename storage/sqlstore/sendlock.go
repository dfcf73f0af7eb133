package sqlstore

import (
	"context"
	"database/sql/driver"

	"github.com/teamchat/chat/channels"
)

// Sends to one channel from several processes, serialized (PostgreSQL, SERIALIZABLE).
//
// A send reads its channel's bounds (its first message, its last message's time: whether the
// message changes the channel) and inserts a message into the same channel: two such sends
// running side by side in different processes each read what the other writes, a cycle of
// read-write conflicts, and PostgreSQL aborts one of them (SQLSTATE 40001). Measured with
// three Services on one database and eight senders, four of them into one channel: about 900
// serialization failures per 2,400 sends, all but a few between sends to the same channel
// (with every sender in a channel of its own: 14). The conflict is in what a send is, so such
// sends are serialized instead of aborted: a send announced ahead (storage.PrefetchSend, which
// names its channel before the transaction's first statement) takes a session advisory lock
// on its channel before BEGIN, so before its snapshot, and releases it once the transaction
// has ended. A send that waited for the lock then sees the other's message in its snapshot:
// nothing to conflict with. Sends to other channels take other locks and are not held up.
//
// The lock is taken only by SERIALIZABLE transactions (READ COMMITTED ones, the overlapping
// sends of one process, have no read-write conflicts to avoid) and only before BEGIN. A send
// holds at most one channel lock and takes no other lock before its commit but the bus's
// (pgbus, which nothing holds while waiting for a channel lock), so the locks cannot
// deadlock. A failure to take the lock only loses the serialization: the conflict, if any,
// is caught and retried as before.

// channelLockSpace is the first key of the channel locks (pg_advisory_lock(int4, int4)), whose
// keys never meet those of the one-key form the bus uses.
const channelLockSpace = 0x63686174 // "chat"

// lockChannel takes the send lock of channel c, before the transaction's first statement.
func (t *txn) lockChannel(c channels.ID) {
	if t.pg == nil || t.pg.begun || t.pg.eachStatement || t.pg.channelLock != 0 || c == 0 {
		return
	}
	t.count.Add(1)
	t.trips.Add(1)
	if _, err := t.pg.conn.ExecContext(t.ctx, "SELECT pg_advisory_lock(CAST($1 AS INTEGER), CAST($2 AS INTEGER))", int32(channelLockSpace), int32(c)); err != nil {
		return // not serialized: SSI still catches the conflict (see above)
	}
	t.pg.channelLock = int64(c)
}

// unlockChannel releases the send lock the transaction's connection holds, if any, once the
// transaction has ended. A connection whose lock could not be released is discarded rather
// than returned to the pool holding it.
func (t *txn) unlockChannel() {
	if t.pg.channelLock == 0 {
		return
	}
	c := t.pg.channelLock
	t.pg.channelLock = 0
	t.count.Add(1)
	t.trips.Add(1)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ctx), rollbackTimeout)
	defer cancel()
	var released bool
	err := t.pg.conn.QueryRowContext(ctx, "SELECT pg_advisory_unlock(CAST($1 AS INTEGER), CAST($2 AS INTEGER))", int32(channelLockSpace), int32(c)).Scan(&released)
	if err != nil || !released {
		_ = t.pg.conn.Raw(func(any) error { return driver.ErrBadConn })
	}
}
