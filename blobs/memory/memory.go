// Package memory is an in-memory blobs.Store, for tests and for services on the memory
// storage. It keeps every object in memory, so it is no place for large uploads.
//
// It imports blobs and the standard library.
package memory

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/teamchat/chat/blobs"
)

// Store is an in-memory blobs.Store, safe for concurrent use.
type Store struct {
	mu      sync.RWMutex
	objects map[string]object
	now     func() time.Time
}

type object struct {
	data []byte
	mod  time.Time
}

// Compile-time conformance.
var _ blobs.Store = (*Store)(nil)

// New returns an empty Store.
func New() *Store { return &Store{objects: map[string]object{}, now: time.Now} }

// Put reads r whole, then stores it under key.
func (s *Store) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	if err := blobs.CheckKey(key); err != nil {
		return 0, err
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, blobs.ContextReader(ctx, r)); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objects[key] = object{data: buf.Bytes(), mod: s.now()}
	return int64(buf.Len()), nil
}

// Open returns a reader of the object under key.
func (s *Store) Open(ctx context.Context, key string) (blobs.Object, error) {
	if err := blobs.CheckKey(key); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	o, ok := s.objects[key]
	s.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("memory: %s: %w", key, blobs.ErrNotFound)
	}
	return &reader{Reader: bytes.NewReader(o.data), info: blobs.Info{Key: key, Size: int64(len(o.data)), ModTime: o.mod}}, nil
}

// Delete removes the object under key.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := blobs.CheckKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.objects, key)
	return nil
}

// List visits the objects under prefix in key order.
func (s *Store) List(ctx context.Context, prefix string, fn func(blobs.Info) error) error {
	if err := blobs.CheckPrefix(prefix); err != nil {
		return err
	}
	s.mu.RLock()
	var list []blobs.Info
	for k, o := range s.objects {
		if strings.HasPrefix(k, prefix) {
			list = append(list, blobs.Info{Key: k, Size: int64(len(o.data)), ModTime: o.mod})
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(list, func(a, b blobs.Info) int { return strings.Compare(a.Key, b.Key) })
	for _, info := range list {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(info); err != nil {
			return err
		}
	}
	return nil
}

// SetClock replaces the clock that stamps objects' modification times (tests of grace
// periods).
func (s *Store) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

type reader struct {
	*bytes.Reader
	info blobs.Info
}

func (r *reader) Close() error     { return nil }
func (r *reader) Info() blobs.Info { return r.info }
