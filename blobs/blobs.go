package blobs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ErrNotFound is returned (wrapped) for a key that holds no object.
var ErrNotFound = errors.New("blobs: not found")

// ErrInvalidKey is returned (wrapped) for a key CheckKey refuses.
var ErrInvalidKey = errors.New("blobs: invalid key")

// MaxKeyLength bounds a key, in bytes (S3 allows 1024).
const MaxKeyLength = 1024

// Store holds objects of bytes under keys.
type Store interface {
	// Put writes r to key, replacing any object there, and returns the number of bytes
	// written. The object appears whole or not at all.
	Put(ctx context.Context, key string, r io.Reader) (int64, error)
	// Open returns the object under key; ErrNotFound when there is none. The caller closes it.
	Open(ctx context.Context, key string) (Object, error)
	// Delete removes the object under key; a missing object is no error.
	Delete(ctx context.Context, key string) error
	// List calls fn with every object whose key starts with prefix, ascending by key. An
	// error from fn stops the walk and is returned.
	List(ctx context.Context, prefix string, fn func(Info) error) error
}

// Info describes one object.
type Info struct {
	Key     string
	Size    int64
	ModTime time.Time
}

// Object is an open object: a seekable reader of its bytes.
type Object interface {
	io.ReadSeekCloser
	// Info describes the object.
	Info() Info
}

// CheckKey refuses keys no backend can hold safely: empty, longer than MaxKeyLength, not
// UTF-8, with control characters or backslashes, or with an empty, "." or ".." segment
// (so that a key never escapes a directory or names one).
func CheckKey(key string) error {
	if key == "" || len(key) > MaxKeyLength || !utf8.ValidString(key) {
		return fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	for _, r := range key {
		if r == '\\' || unicode.IsControl(r) {
			return fmt.Errorf("%w: %q", ErrInvalidKey, key)
		}
	}
	for seg := range strings.SplitSeq(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("%w: %q", ErrInvalidKey, key)
		}
	}
	return nil
}

// CheckPrefix refuses prefixes that no key could start with through an escape: those with
// "..", backslashes or control characters. The empty prefix lists everything.
func CheckPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if err := CheckKey(strings.TrimSuffix(prefix, "/")); err != nil {
		return err
	}
	return nil
}

// PartialSweeper is the optional capability of backends that keep the remains of
// interrupted writes (a process killed during a Put): SweepPartial removes those begun
// before the given time and returns how many it removed.
type PartialSweeper interface {
	SweepPartial(ctx context.Context, before time.Time) (int, error)
}

// ContextReader reads r until ctx is done; then its reads fail with ctx's error, so that a
// store copying a long upload stops when its request ends.
func ContextReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
