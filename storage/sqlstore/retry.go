package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/teamchat/chat/storage"
)

// defaultRetryBudget bounds how long a closure is run again when its transaction keeps losing
// races: past it (or past the context's deadline) the transaction fails with
// storage.ErrContention, which the engine answers with 503 and Retry-After. A lost race
// (PostgreSQL SSI aborts one transaction of a dangerous structure, so another commits) is
// rarely lost twice in a row; the budget is for bursts of writers, not for a steady state.
const defaultRetryBudget = 5 * time.Second

// maxBackoff caps one wait between two runs of a closure.
const maxBackoff = 100 * time.Millisecond

// run runs fn in a transaction, again when the transaction lost a race: after a wait drawn
// at random below a cap that doubles with each attempt (full jitter, so that the writers that
// collided do not collide again in step), for as long as the retry budget and ctx allow.
func (s *Store) run(ctx context.Context, db *sql.DB, opts *sql.TxOptions, fn func(*txn) error) error {
	budget := s.retryBudget
	if budget <= 0 {
		budget = defaultRetryBudget
	}
	deadline := time.Now().Add(budget)
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		retry, err := s.once(ctx, db, opts, fn)
		if retry == nil {
			return err
		}
		backoff := time.Duration(rand.Int64N(int64(min(time.Millisecond<<min(attempt, 10), maxBackoff)) + 1))
		if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
			deadline = d
		}
		if time.Now().Add(backoff).After(deadline) {
			s.contended.Add(1)
			return fmt.Errorf("sqlstore: transaction still conflicting after %d attempts in %v: %w: %w",
				attempt, budget, storage.ErrContention, retry)
		}
		s.retries.Add(1)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
	}
}
