// Package blobstest is the conformance suite of blobs.Store backends: Run pins the contract
// described in package blobs against a backend.
//
// It imports blobs and the standard library.
package blobstest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/teamchat/chat/blobs"
)

// Run runs the suite. open returns an empty store for each subtest (and registers its
// clean-up with t.Cleanup).
func Run(t *testing.T, open func(t *testing.T) blobs.Store) {
	t.Run("put then open reads the bytes back", func(t *testing.T) { putOpen(t, open(t)) })
	t.Run("open seeks for range requests", func(t *testing.T) { seek(t, open(t)) })
	t.Run("put replaces an object", func(t *testing.T) { replace(t, open(t)) })
	t.Run("missing objects are ErrNotFound", func(t *testing.T) { missing(t, open(t)) })
	t.Run("delete removes and tolerates a missing object", func(t *testing.T) { remove(t, open(t)) })
	t.Run("a failed put leaves nothing", func(t *testing.T) { failedPut(t, open(t)) })
	t.Run("a cancelled put leaves nothing", func(t *testing.T) { cancelledPut(t, open(t)) })
	t.Run("list visits a prefix in key order", func(t *testing.T) { list(t, open(t)) })
	t.Run("invalid keys are refused", func(t *testing.T) { invalidKeys(t, open(t)) })
	t.Run("empty objects and odd names", func(t *testing.T) { oddNames(t, open(t)) })
	t.Run("concurrent puts of different keys", func(t *testing.T) { concurrent(t, open(t)) })
}

// MustPut stores data under key or fails the test.
func MustPut(t *testing.T, s blobs.Store, key string, data []byte) {
	t.Helper()
	ctx := t.Context()
	n, err := s.Put(ctx, key, bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Put(%q): %v", key, err)
	}
	if n != int64(len(data)) {
		t.Fatalf("Put(%q) wrote %d bytes, want %d", key, n, len(data))
	}
}

// MustRead returns the bytes under key or fails the test.
func MustRead(t *testing.T, s blobs.Store, key string) []byte {
	t.Helper()
	ctx := t.Context()
	o, err := s.Open(ctx, key)
	if err != nil {
		t.Fatalf("Open(%q): %v", key, err)
	}
	defer o.Close()
	b, err := io.ReadAll(o)
	if err != nil {
		t.Fatalf("reading %q: %v", key, err)
	}
	if o.Info().Size != int64(len(b)) {
		t.Errorf("Info().Size of %q = %d, read %d bytes", key, o.Info().Size, len(b))
	}
	return b
}

func putOpen(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	data := bytes.Repeat([]byte("0123456789"), 100_000) // 1 MB: several buffers
	MustPut(t, s, "2/ab/token/report.pdf", data)
	if got := MustRead(t, s, "2/ab/token/report.pdf"); !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes back, want the %d written", len(got), len(data))
	}
	o, err := s.Open(ctx, "2/ab/token/report.pdf")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if info := o.Info(); info.Key != "2/ab/token/report.pdf" || info.Size != int64(len(data)) || info.ModTime.IsZero() {
		t.Errorf("Info() = %+v", info)
	}
}

func seek(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	MustPut(t, s, "k/range.txt", []byte("hello, range requests"))
	o, err := s.Open(ctx, "k/range.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if _, err := o.Seek(7, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 5)
	if _, err := io.ReadFull(o, b); err != nil || string(b) != "range" {
		t.Fatalf("after Seek(7): %q, %v; want \"range\"", b, err)
	}
	end, err := o.Seek(0, io.SeekEnd)
	if err != nil || end != int64(len("hello, range requests")) {
		t.Fatalf("Seek(0, End) = %d, %v", end, err)
	}
}

func replace(t *testing.T, s blobs.Store) {
	MustPut(t, s, "a/b", []byte("first version, longer"))
	MustPut(t, s, "a/b", []byte("second"))
	if got := string(MustRead(t, s, "a/b")); got != "second" {
		t.Fatalf("after replacing: %q", got)
	}
}

func missing(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	MustPut(t, s, "dir/file", []byte("x"))
	for _, key := range []string{"nothing", "dir", "dir/file/below", "dir/other"} {
		if _, err := s.Open(ctx, key); !errors.Is(err, blobs.ErrNotFound) {
			t.Errorf("Open(%q) = %v, want ErrNotFound", key, err)
		}
	}
}

func remove(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	MustPut(t, s, "x/y/z", []byte("bytes"))
	MustPut(t, s, "x/y2", []byte("kept"))
	if err := s.Delete(ctx, "x/y/z"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "x/y/z"); !errors.Is(err, blobs.ErrNotFound) {
		t.Fatalf("after Delete: %v", err)
	}
	if err := s.Delete(ctx, "x/y/z"); err != nil {
		t.Fatalf("second Delete: %v", err)
	}
	if err := s.Delete(ctx, "never/there"); err != nil {
		t.Fatalf("Delete of a missing key: %v", err)
	}
	if got := string(MustRead(t, s, "x/y2")); got != "kept" {
		t.Fatalf("a neighbour was touched: %q", got)
	}
	// The key's directory can hold an object again.
	MustPut(t, s, "x/y", []byte("now a file"))
}

// failingReader yields some bytes, then an error.
type failingReader struct{ n int }

var errBroken = errors.New("client went away")

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errBroken
	}
	k := min(len(p), f.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	f.n -= k
	return k, nil
}

func failedPut(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	if _, err := s.Put(ctx, "f/new", &failingReader{n: 300_000}); !errors.Is(err, errBroken) {
		t.Fatalf("Put with a failing reader = %v, want its error", err)
	}
	if _, err := s.Open(ctx, "f/new"); !errors.Is(err, blobs.ErrNotFound) {
		t.Fatalf("a failed Put left an object: %v", err)
	}
	MustPut(t, s, "f/old", []byte("before"))
	if _, err := s.Put(ctx, "f/old", &failingReader{n: 10}); err == nil {
		t.Fatal("Put with a failing reader succeeded")
	}
	if got := string(MustRead(t, s, "f/old")); got != "before" {
		t.Fatalf("a failed Put changed the object: %q", got)
	}
	assertKeys(t, s, "", []string{"f/old"})
}

// cancellingReader cancels its context after the first read.
type cancellingReader struct {
	cancel context.CancelFunc
	reads  int
}

func (c *cancellingReader) Read(p []byte) (int, error) {
	c.reads++
	if c.reads > 1 {
		c.cancel()
	}
	if c.reads > 1000 {
		return 0, io.EOF
	}
	return copy(p, strings.Repeat("y", len(p))), nil
}

func cancelledPut(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if _, err := s.Put(cctx, "c/obj", &cancellingReader{cancel: cancel}); err == nil {
		t.Fatal("a cancelled Put succeeded")
	}
	if _, err := s.Open(ctx, "c/obj"); !errors.Is(err, blobs.ErrNotFound) {
		t.Fatalf("a cancelled Put left an object: %v", err)
	}
}

func assertKeys(t *testing.T, s blobs.Store, prefix string, want []string) {
	t.Helper()
	ctx := t.Context()
	got := []string{}
	err := s.List(ctx, prefix, func(i blobs.Info) error {
		got = append(got, i.Key)
		return nil
	})
	if err != nil {
		t.Fatalf("List(%q): %v", prefix, err)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("List(%q) = %q, want %q", prefix, got, want)
	}
}

func list(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	for _, k := range []string{"u/2/b/z", "u/2/a-c", "u/2/a/b", "u/3/x", "v/1", "u/20/y"} {
		MustPut(t, s, k, []byte(k))
	}
	assertKeys(t, s, "u/2/", []string{"u/2/a-c", "u/2/a/b", "u/2/b/z"})
	assertKeys(t, s, "u/2", []string{"u/2/a-c", "u/2/a/b", "u/2/b/z", "u/20/y"})
	assertKeys(t, s, "", []string{"u/2/a-c", "u/2/a/b", "u/2/b/z", "u/20/y", "u/3/x", "v/1"})
	assertKeys(t, s, "w/", []string{})
	stop := errors.New("stop")
	n := 0
	err := s.List(ctx, "u/", func(blobs.Info) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Fatalf("List stopped by fn: %v after %d calls", err, n)
	}
	err = s.List(ctx, "v/", func(i blobs.Info) error {
		if i.Size != 3 || i.ModTime.IsZero() {
			t.Errorf("List info %+v", i)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func invalidKeys(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	for _, key := range []string{"", "/abs", "a//b", "../escape", "a/../../b", "a/./b", "a/", "back\\slash", "nul\x00", "bad\xff", strings.Repeat("k", blobs.MaxKeyLength+1)} {
		if _, err := s.Put(ctx, key, strings.NewReader("x")); !errors.Is(err, blobs.ErrInvalidKey) {
			t.Errorf("Put(%q) = %v, want ErrInvalidKey", key, err)
		}
		if _, err := s.Open(ctx, key); !errors.Is(err, blobs.ErrInvalidKey) {
			t.Errorf("Open(%q) = %v, want ErrInvalidKey", key, err)
		}
		if err := s.Delete(ctx, key); !errors.Is(err, blobs.ErrInvalidKey) {
			t.Errorf("Delete(%q) = %v, want ErrInvalidKey", key, err)
		}
	}
	assertKeys(t, s, "", []string{})
}

func oddNames(t *testing.T, s blobs.Store) {
	keys := []string{"2/ff/tok/empty.txt", "2/0/tok/naïve résumé.pdf", "2/1/tok/with space & #hash?.txt", "2/2/tok/.hidden"}
	for _, k := range keys {
		MustPut(t, s, k, nil)
	}
	for _, k := range keys {
		if got := MustRead(t, s, k); len(got) != 0 {
			t.Errorf("%q: read %d bytes of an empty object", k, len(got))
		}
	}
}

func concurrent(t *testing.T, s blobs.Store) {
	ctx := t.Context()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			key := "p/" + string(rune('a'+i))
			if _, err := s.Put(ctx, key, bytes.NewReader(bytes.Repeat([]byte{byte(i)}, 100_000))); err != nil {
				t.Errorf("Put(%q): %v", key, err)
			}
		})
	}
	wg.Wait()
	n := 0
	_ = s.List(ctx, "p/", func(blobs.Info) error { n++; return nil })
	if n != 8 {
		t.Fatalf("%d objects after 8 concurrent puts", n)
	}
}
