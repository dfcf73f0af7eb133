package pgbus

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Listen delivers, in commit order, the messages after id after: it LISTENs first, then reads
// the log's messages after `after` in one snapshot, then delivers the notifications of the
// commits that snapshot lacks (ids above the last read; earlier ones are dropped, as they were
// read). A commit before the LISTEN is in the snapshot, one after it is notified, so nothing
// falls between. When the log was pruned past `after`, it calls ready(false) and delivers the
// commits after the snapshot only.
func (b *Bus) Listen(ctx context.Context, after uint64, ready func(complete bool, last uint64), deliver func(id uint64, msg []byte)) error {
	conn, err := pgx.ConnectConfig(ctx, b.pool.Config().ConnConfig.Copy())
	if err != nil {
		return fmt.Errorf("pgbus: listen: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{b.channel}.Sanitize()); err != nil {
		return fmt.Errorf("pgbus: listen: %w", err)
	}
	last, complete, err := b.replay(ctx, conn, after, deliver)
	if err != nil {
		return err
	}
	ready(complete, last)
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("pgbus: listen: %w", err)
		}
		idText, rest, ok := strings.Cut(n.Payload, ":")
		id, perr := strconv.ParseUint(idText, 10, 64)
		if !ok || perr != nil {
			return fmt.Errorf("pgbus: unreadable notification %.40q", n.Payload)
		}
		if id <= last {
			continue // read from the log
		}
		msg := []byte(rest)
		if rest == "@" {
			if err := conn.QueryRow(ctx, `SELECT body FROM chat_bus_log WHERE id = $1`, id).Scan(&msg); err != nil {
				return fmt.Errorf("pgbus: reading message %d from the log: %w", id, err)
			}
		}
		last = id
		deliver(id, msg)
	}
}

// replay delivers the logged messages after id after, in one snapshot, and returns the id of
// the last message that snapshot includes. complete is false when the log was pruned past
// after: then nothing is delivered.
func (b *Bus) replay(ctx context.Context, conn *pgx.Conn, after uint64, deliver func(id uint64, msg []byte)) (last uint64, complete bool, err error) {
	err = pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var pruned, head int64
		if err := tx.QueryRow(ctx, `SELECT through, (SELECT COALESCE(max(id), 0) FROM chat_bus_log) FROM chat_bus_pruned`).
			Scan(&pruned, &head); err != nil {
			return err
		}
		last = uint64(max(pruned, head))
		if after < uint64(pruned) {
			return nil
		}
		complete = true
		rows, err := tx.Query(ctx, `SELECT id, body FROM chat_bus_log WHERE id > $1 ORDER BY id`, int64(after))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var (
				id   int64
				body []byte
			)
			if err := rows.Scan(&id, &body); err != nil {
				return err
			}
			deliver(uint64(id), body)
		}
		return rows.Err()
	})
	if err != nil {
		return 0, false, fmt.Errorf("pgbus: replaying the log: %w", err)
	}
	return last, complete, nil
}
