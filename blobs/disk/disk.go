// Package disk is a blobs.Store on the local file system: each object is a file under the
// root's objects/ directory at the path its key names. A Put writes a temporary file in the
// root's partial/ directory, syncs it and renames it into place, so an object appears whole
// or not at all, even when the process is killed; SweepPartial removes what killed writes
// left behind.
//
// It imports blobs and the standard library.
package disk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/teamchat/chat/blobs"
)

// Store is a blobs.Store in a directory, safe for concurrent use (also by several
// processes sharing the directory).
type Store struct {
	objects string
	partial string
}

// Compile-time conformance.
var (
	_ blobs.Store          = (*Store)(nil)
	_ blobs.PartialSweeper = (*Store)(nil)
)

// Open returns the Store rooted at dir, creating the directory if needed.
func Open(dir string) (*Store, error) {
	s := &Store{objects: filepath.Join(dir, "objects"), partial: filepath.Join(dir, "partial")}
	for _, d := range []string{s.objects, s.partial} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, fmt.Errorf("disk: %w", err)
		}
	}
	return s, nil
}

func (s *Store) path(key string) string {
	return filepath.Join(s.objects, filepath.FromSlash(key))
}

// Put streams r into a temporary file, syncs it and renames it to the key's path.
func (s *Store) Put(ctx context.Context, key string, r io.Reader) (n int64, err error) {
	if err := blobs.CheckKey(key); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	f, err := os.CreateTemp(s.partial, "put-*")
	if err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	buf := make([]byte, 256<<10)
	n, err = io.CopyBuffer(f, blobs.ContextReader(ctx, r), buf)
	if err != nil {
		return 0, err
	}
	if err = f.Sync(); err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	if err = f.Close(); err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	dest := s.path(key)
	if err = os.MkdirAll(filepath.Dir(dest), 0o750); err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	if err = os.Rename(f.Name(), dest); err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	syncDir(filepath.Dir(dest))
	return n, nil
}

// syncDir makes a rename in dir durable (best effort: some file systems refuse it).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Open opens the file of key.
func (s *Store) Open(ctx context.Context, key string) (blobs.Object, error) {
	if err := blobs.CheckKey(key); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(s.path(key))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscallNotDir) {
		return nil, fmt.Errorf("disk: %s: %w", key, blobs.ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("disk: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("disk: %w", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("disk: %s: %w", key, blobs.ErrNotFound)
	}
	return &file{File: f, info: blobs.Info{Key: key, Size: st.Size(), ModTime: st.ModTime()}}, nil
}

// Delete removes the file of key and the directories it leaves empty.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := blobs.CheckKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	p := s.path(key)
	if st, err := os.Lstat(p); err == nil && st.IsDir() {
		return nil // a key that names a directory holds no object
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscallNotDir) {
		return fmt.Errorf("disk: %w", err)
	}
	for dir := filepath.Dir(p); dir != s.objects && strings.HasPrefix(dir, s.objects); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break // not empty (or already gone)
		}
	}
	return nil
}

// List walks the directory that holds the keys under prefix.
func (s *Store) List(ctx context.Context, prefix string, fn func(blobs.Info) error) error {
	if err := blobs.CheckPrefix(prefix); err != nil {
		return err
	}
	start := s.objects
	if i := strings.LastIndex(prefix, "/"); i >= 0 {
		start = s.path(prefix[:i])
	}
	var list []blobs.Info
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscallNotDir) {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(s.objects, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if !strings.HasPrefix(key, prefix) {
			return nil
		}
		st, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		list = append(list, blobs.Info{Key: key, Size: st.Size(), ModTime: st.ModTime()})
		return nil
	})
	if err != nil {
		return fmt.Errorf("disk: %w", err)
	}
	slices.SortFunc(list, func(a, b blobs.Info) int { return strings.Compare(a.Key, b.Key) })
	for _, info := range list {
		if err := fn(info); err != nil {
			return err
		}
	}
	return nil
}

// SweepPartial removes the temporary files of writes begun before the given time (those a
// killed process left).
func (s *Store) SweepPartial(ctx context.Context, before time.Time) (int, error) {
	entries, err := os.ReadDir(s.partial)
	if err != nil {
		return 0, fmt.Errorf("disk: %w", err)
	}
	n := 0
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		st, err := e.Info()
		if err != nil || !st.ModTime().Before(before) {
			continue
		}
		if os.Remove(filepath.Join(s.partial, e.Name())) == nil {
			n++
		}
	}
	return n, nil
}

type file struct {
	*os.File
	info blobs.Info
}

func (f *file) Info() blobs.Info { return f.info }
