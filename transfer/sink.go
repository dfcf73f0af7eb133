package transfer

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/teamchat/chat/blobs"
)

// sink receives the files of an export: a directory, or a tar stream.
type sink interface {
	// write stores a whole file.
	write(name string, body []byte) error
	// copyBlob stores the blob under key as the file name.
	copyBlob(ctx context.Context, name string, bl blobs.Store, key string) (int64, error)
	close() error
}

func writeJSON(s sink, name string, v any) error {
	body, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("transfer: %s: %w", name, err)
	}
	return s.write(name, body)
}

// dirSink writes the files under a directory.
type dirSink struct{ dir string }

func (d dirSink) path(name string) (string, error) {
	p := filepath.Join(d.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", fmt.Errorf("transfer: %w", err)
	}
	return p, nil
}

func (d dirSink) write(name string, body []byte) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := os.WriteFile(p, body, 0o644); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	return nil
}

func (d dirSink) copyBlob(ctx context.Context, name string, bl blobs.Store, key string) (int64, error) {
	p, err := d.path(name)
	if err != nil {
		return 0, err
	}
	obj, err := bl.Open(ctx, key)
	if err != nil {
		return 0, fmt.Errorf("transfer: blob %q: %w", key, err)
	}
	defer obj.Close()
	f, err := os.Create(p)
	if err != nil {
		return 0, fmt.Errorf("transfer: %w", err)
	}
	n, err := io.Copy(f, blobs.ContextReader(ctx, obj))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("transfer: blob %q: %w", key, err)
	}
	return n, nil
}

func (dirSink) close() error { return nil }

// tarSink writes the files into a gzip-compressed tar under one top directory, as Zulip's
// export tarballs are (zulip-export-XXXX/realm.json, ...).
type tarSink struct {
	top string
	gz  *gzip.Writer
	tw  *tar.Writer
}

func newTarSink(w io.Writer, top string) *tarSink {
	gz := gzip.NewWriter(w)
	return &tarSink{top: top, gz: gz, tw: tar.NewWriter(gz)}
}

func (t *tarSink) header(name string, size int64) error {
	return t.tw.WriteHeader(&tar.Header{Name: t.top + "/" + name, Mode: 0o644, Size: size, ModTime: time.Now(), Typeflag: tar.TypeReg})
}

func (t *tarSink) write(name string, body []byte) error {
	if err := t.header(name, int64(len(body))); err != nil {
		return fmt.Errorf("transfer: %s: %w", name, err)
	}
	if _, err := t.tw.Write(body); err != nil {
		return fmt.Errorf("transfer: %s: %w", name, err)
	}
	return nil
}

func (t *tarSink) copyBlob(ctx context.Context, name string, bl blobs.Store, key string) (int64, error) {
	obj, err := bl.Open(ctx, key)
	if err != nil {
		return 0, fmt.Errorf("transfer: blob %q: %w", key, err)
	}
	defer obj.Close()
	size := obj.Info().Size
	if err := t.header(name, size); err != nil {
		return 0, fmt.Errorf("transfer: %s: %w", name, err)
	}
	if _, err := io.CopyN(t.tw, blobs.ContextReader(ctx, obj), size); err != nil {
		return 0, fmt.Errorf("transfer: blob %q: %w", key, err)
	}
	return size, nil
}

func (t *tarSink) close() error {
	if err := t.tw.Close(); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	if err := t.gz.Close(); err != nil {
		return fmt.Errorf("transfer: %w", err)
	}
	return nil
}
