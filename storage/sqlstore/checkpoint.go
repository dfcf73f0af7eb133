package sqlstore

import (
	"context"
	"database/sql"
	"sync/atomic"
)

// WAL checkpoints on SQLite. By default SQLite checkpoints inside the commit that takes the WAL
// past 1,000 pages: on the committing connection, after the commit's own fsync, it copies the
// WAL's pages into the database file and fsyncs that, while every writer of the process waits
// for the one write connection. The store moves that work beside the writer instead:
//
//   - A checkpointer, a goroutine with a connection of its own, runs a PASSIVE checkpoint after
//     every checkpointEvery commits of the write connection (Store.once tells it). PASSIVE
//     takes no lock that a writer or reader waits for: it copies the frames that no reader
//     still needs, and fsyncs the database file, while the writer appends new frames.
//   - The write connection still checkpoints itself when the WAL reaches writerCheckpointPages
//     (wal_autocheckpoint). The WAL starts over from its beginning only at a write transaction
//     that finds every frame copied, which under a steady load the checkpointer, always a few
//     commits behind, never achieves alone; the writer's own checkpoint then copies only the
//     frames of the commits since the checkpointer's last run (one fsync of the database file
//     every writerCheckpointPages pages instead of a copy and an fsync every 1,000), and the
//     next write starts the WAL over. It is also the bound on the WAL when the checkpointer
//     lags (a large import, a starved goroutine): 16 MiB, where the default keeps 4 MiB.
//
// The checkpointer's connection has the store's synchronous setting, which decides whether a
// checkpoint fsyncs the database file before the WAL may start over. Several processes may
// checkpoint one file: SQLite lets one checkpoint run at a time and a PASSIVE one that finds
// another running reports busy and copies nothing. Close stops the checkpointer and waits for
// it before closing the other connections; the last connection of the file to close then
// checkpoints everything and removes the WAL, as before.

const (
	// checkpointEvery is how many commits of the write connection wake the checkpointer: a
	// group commit of 8 sends writes about 37 pages, so about 1,200 pages (frames, some of
	// them the same page again) at a time, near SQLite's default of 1,000.
	checkpointEvery = 32
	// writerCheckpointPages is the write connection's own wal_autocheckpoint, in pages of
	// 4 KiB: the WAL's size when it starts over (within one wal-index block of 4,096 frames).
	writerCheckpointPages = 4000
)

// checkpointer runs the WAL checkpoints of a SQLite store beside its writer.
type checkpointer struct {
	db      *sql.DB
	every   uint64
	commits atomic.Uint64
	wake    chan struct{}
	cancel  context.CancelFunc
	done    chan struct{}

	runs     atomic.Uint64 // checkpoints run
	busy     atomic.Uint64 // checkpoints that found another one running
	failures atomic.Uint64 // checkpoints that failed (the writer's own bound still holds)
}

// startCheckpointer starts the checkpointer of db, its own connection (closed by stop), woken
// after every every commits.
func startCheckpointer(db *sql.DB, every uint64) *checkpointer {
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{db: db, every: every, wake: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{})}
	go c.run(ctx)
	return c
}

// committed counts a commit of the write connection, waking the checkpointer at every
// every-th. It never waits: a wake-up already pending covers this one.
func (c *checkpointer) committed() {
	if c.commits.Add(1)%c.every != 0 {
		return
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run(ctx context.Context) {
	defer close(c.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
		}
		c.checkpoint(ctx)
	}
}

// attempts counts the checkpoints run, found busy or failed.
func (c *checkpointer) attempts() uint64 { return c.runs.Load() + c.busy.Load() + c.failures.Load() }

// checkpoint runs one PASSIVE checkpoint.
func (c *checkpointer) checkpoint(ctx context.Context) {
	var busy, logFrames, copied int64
	err := c.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logFrames, &copied)
	switch {
	case err != nil:
		if ctx.Err() == nil {
			c.failures.Add(1)
		}
	case busy != 0:
		c.busy.Add(1)
	default:
		c.runs.Add(1)
	}
}

// stop ends the checkpointer, waits for a checkpoint in progress (cancelled) and closes its
// connection.
func (c *checkpointer) stop() error {
	c.cancel()
	<-c.done
	return c.db.Close()
}
