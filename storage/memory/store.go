package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/teamchat/chat/storage"
)

// Store is an in-memory storage.Storage.
type Store struct {
	mu     sync.RWMutex
	closed bool
	d      *data
	types  textTypes // which record types can hold text (strings.go)
}

// Compile-time conformance.
var _ storage.Storage = (*Store)(nil)

// New returns an empty Store.
func New() *Store { return &Store{d: newData()} }

var errClosed = errors.New("memory: store is closed")

// View runs fn in a read-only transaction.
func (s *Store) View(ctx context.Context, fn func(storage.ReadTx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return errClosed
	}
	return fn(&readTx{ctx: ctx, d: s.d})
}

// Update runs fn in a read-write transaction, rolling every write back when fn fails.
func (s *Store) Update(ctx context.Context, fn func(storage.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	j := &journal{types: &s.types}
	t := &tx{readTx: readTx{ctx: ctx, d: s.d}, j: j}
	defer func() {
		if r := recover(); r != nil {
			j.rollback()
			panic(r)
		}
		if err != nil {
			j.rollback()
		}
	}()
	if err := fn(t); err != nil {
		return err
	}
	return j.invalid
}

// Close releases the store; later transactions fail.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// journal records how to undo each write of a transaction, and the first write of a string
// that no backend keeps alike (note in strings.go).
type journal struct {
	undo    []func()
	invalid error
	types   *textTypes
}

func (j *journal) rollback() {
	for i := len(j.undo) - 1; i >= 0; i-- {
		j.undo[i]()
	}
	j.undo = nil
}

// setKey stores m[k] = v, recording how to undo it.
func setKey[K comparable, V any](j *journal, m map[K]V, k K, v V) {
	note(j, k, v)
	old, had := m[k]
	j.undo = append(j.undo, func() {
		if had {
			m[k] = old
		} else {
			delete(m, k)
		}
	})
	m[k] = v
}

// deleteKey removes m[k], recording how to undo it.
func deleteKey[K comparable, V any](j *journal, m map[K]V, k K) {
	old, had := m[k]
	if !had {
		return
	}
	j.undo = append(j.undo, func() { m[k] = old })
	delete(m, k)
}

// nextID takes the next value of a sequence, recording how to undo it.
func nextID[T ~int64](j *journal, seq *T) T {
	*seq++
	j.undo = append(j.undo, func() { *seq-- })
	return *seq
}

// sortedSet returns a sorted copy of ids without repeats.
func sortedSet[T cmp.Ordered](ids []T) []T {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// sortedValues returns the values of m ordered by key, each passed through clone.
func sortedValues[K cmp.Ordered, V any](m map[K]V, clone func(V) V) []V {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]V, len(keys))
	for i, k := range keys {
		out[i] = clone(m[k])
	}
	return out
}

// keptSorted returns the list kept in p, or builds it from m (ordered by key, the values as
// they are) and keeps it. The kept list is never modified (a write drops it, and its undo
// again): concurrent readers may each build it, and build the same list.
func keptSorted[K cmp.Ordered, V any](p *atomic.Pointer[[]V], m map[K]V) []V {
	if l := p.Load(); l != nil {
		return *l
	}
	l := sortedValues(m, same)
	p.Store(&l)
	return l
}

// same is the clone of records without reference fields.
func same[V any](v V) V { return v }

// notFound wraps storage.ErrNotFound with what was looked up.
func notFound(what string, key any) error {
	return fmt.Errorf("memory: %s %v: %w", what, key, storage.ErrNotFound)
}

// conflict wraps storage.ErrConflict with the violated uniqueness.
func conflict(what string) error {
	return fmt.Errorf("memory: %s taken: %w", what, storage.ErrConflict)
}

// readTx is a read-only transaction. Its accessors check the context first.
type readTx struct {
	ctx context.Context
	d   *data
}

// tx is a read-write transaction.
type tx struct {
	readTx
	j *journal
}

// live reports the context's error, if any.
func (t *readTx) live() error { return t.ctx.Err() }
