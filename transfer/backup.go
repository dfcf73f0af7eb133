package transfer

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/teamchat/chat/blobs"
)

// Names inside a backup archive (a gzip-compressed tar): the database first, then every
// blob, then the manifest, which therefore also marks the archive as complete.
const (
	backupPrefix   = "teamchat-backup/"
	backupDatabase = backupPrefix + "database.sqlite"
	backupBlobs    = backupPrefix + "blobs/"
	backupManifest = backupPrefix + "manifest.json"
	backupFormat   = "teamchat-backup"
	backupVersion  = 1
)

// ErrCorrupt is returned (wrapped, with the reason) for an archive or export that is
// truncated, corrupted or not in the expected format.
var ErrCorrupt = errors.New("transfer: archive truncated or corrupted")

// ErrNotEmpty is returned when the target of a restore or an import already holds data.
var ErrNotEmpty = errors.New("transfer: the target store is not empty")

// ErrIncomplete is returned when an import failed after it had written the organization
// (its export checked whole and found sound): the store failed, the export's files changed
// meanwhile, or the import was cancelled. The store holds part of the organization; import
// again into a new, empty store.
var ErrIncomplete = errors.New("transfer: import incomplete, the store holds part of the organization")

// Snapshotter is a store that writes a consistent copy of itself to a new file while it stays
// live (sqlstore's SQLite store: Backup runs VACUUM INTO).
type Snapshotter interface {
	Backup(ctx context.Context, dest string) error
}

// BackupManifest describes a backup archive; it is the archive's last entry.
type BackupManifest struct {
	Format         string    `json:"format"`
	Version        int       `json:"version"`
	Created        time.Time `json:"created"`
	DatabaseBytes  int64     `json:"database_bytes"`
	DatabaseSHA256 string    `json:"database_sha256"`
	Blobs          int64     `json:"blobs"`
	BlobBytes      int64     `json:"blob_bytes"`
}

// WriteBackup writes a backup archive of the live store and its blobs to w: a consistent
// copy of the database (through a temporary file in tmpDir), then every blob of bl (nil: no
// blobs). Blobs are copied after the database, so every blob the copy refers to is in the
// archive unless it was deleted meanwhile; blobs uploaded meanwhile are unreferenced in the
// restored store, and its sweep removes them.
func WriteBackup(ctx context.Context, w io.Writer, store Snapshotter, bl blobs.Store, tmpDir string, prog *Progress) (BackupManifest, error) {
	m := BackupManifest{Format: backupFormat, Version: backupVersion, Created: time.Now().UTC()}
	dir, err := os.MkdirTemp(tmpDir, "chat-backup-")
	if err != nil {
		return m, fmt.Errorf("transfer: backup: %w", err)
	}
	defer os.RemoveAll(dir)
	snap := filepath.Join(dir, "database.sqlite")
	prog.Step("backup: copying the database", 0, 0)
	if err := store.Backup(ctx, snap); err != nil {
		return m, fmt.Errorf("transfer: backup: %w", err)
	}
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	if m.DatabaseBytes, m.DatabaseSHA256, err = addFile(tw, backupDatabase, snap); err != nil {
		return m, err
	}
	os.Remove(snap) // the disk space goes back before the blobs are copied
	if bl != nil {
		err := bl.List(ctx, "", func(info blobs.Info) error {
			if err := addBlob(ctx, tw, bl, info); err != nil {
				return err
			}
			m.Blobs++
			m.BlobBytes += info.Size
			prog.Step("backup: copying uploads", m.Blobs, 0)
			return nil
		})
		if err != nil {
			return m, fmt.Errorf("transfer: backup of the uploads: %w", err)
		}
	}
	body, err := json.Marshal(m)
	if err != nil {
		return m, fmt.Errorf("transfer: backup manifest: %w", err)
	}
	if err := addBytes(tw, backupManifest, body); err != nil {
		return m, err
	}
	if err := tw.Close(); err != nil {
		return m, fmt.Errorf("transfer: backup: %w", err)
	}
	if err := gz.Close(); err != nil {
		return m, fmt.Errorf("transfer: backup: %w", err)
	}
	prog.Done()
	return m, nil
}

func addFile(tw *tar.Writer, name, path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", fmt.Errorf("transfer: backup: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, "", fmt.Errorf("transfer: backup: %w", err)
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: st.Size(), ModTime: st.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return 0, "", fmt.Errorf("transfer: backup: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(tw, io.TeeReader(f, h))
	if err != nil {
		return 0, "", fmt.Errorf("transfer: backup of the database: %w", err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

func addBlob(ctx context.Context, tw *tar.Writer, bl blobs.Store, info blobs.Info) error {
	obj, err := bl.Open(ctx, info.Key)
	if errors.Is(err, blobs.ErrNotFound) {
		return nil // deleted since it was listed
	}
	if err != nil {
		return err
	}
	defer obj.Close()
	size := obj.Info().Size
	hdr := &tar.Header{Name: backupBlobs + info.Key, Mode: 0o600, Size: size, ModTime: info.ModTime, Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if _, err := io.CopyN(tw, blobs.ContextReader(ctx, obj), size); err != nil {
		return fmt.Errorf("blob %q: %w", info.Key, err)
	}
	return nil
}

func addBytes(tw *tar.Writer, name string, body []byte) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(body)), ModTime: time.Now(), Typeflag: tar.TypeReg}); err != nil {
		return fmt.Errorf("transfer: %s: %w", name, err)
	}
	if _, err := tw.Write(body); err != nil {
		return fmt.Errorf("transfer: %s: %w", name, err)
	}
	return nil
}

// RestoreBackup restores a backup archive read from r: the database to the new file dbPath
// (which must not exist; the file appears whole, by a rename, only once the whole archive
// has been read and checked against its manifest) and the blobs into bl, which must be empty.
// A truncated or corrupted archive returns ErrCorrupt and leaves neither a database file nor
// blobs behind.
func RestoreBackup(ctx context.Context, r io.Reader, dbPath string, bl blobs.Store, prog *Progress) (m BackupManifest, err error) {
	if _, err := os.Lstat(dbPath); err == nil {
		return m, fmt.Errorf("%w: %s exists", ErrNotEmpty, dbPath)
	}
	if err := checkBlobsEmpty(ctx, bl); err != nil {
		return m, err
	}
	tmp := dbPath + ".restoring"
	var put []string
	defer func() {
		if err != nil {
			os.Remove(tmp)
			for _, k := range put {
				bl.Delete(context.WithoutCancel(ctx), k)
			}
		}
	}()
	rs := &restore{ctx: ctx, bl: bl, tmp: tmp, prog: prog}
	if m, err = rs.read(r); err != nil {
		put = rs.put
		return m, err
	}
	put = rs.put
	if err := os.Rename(tmp, dbPath); err != nil {
		return m, fmt.Errorf("transfer: restore: %w", err)
	}
	prog.Done()
	return m, nil
}

func checkBlobsEmpty(ctx context.Context, bl blobs.Store) error {
	if bl == nil {
		return nil
	}
	errFound := errors.New("found")
	err := bl.List(ctx, "", func(blobs.Info) error { return errFound })
	if errors.Is(err, errFound) {
		return fmt.Errorf("%w: the uploads store holds files", ErrNotEmpty)
	}
	return err
}

// restore is one RestoreBackup's reading of the archive.
type restore struct {
	ctx  context.Context
	bl   blobs.Store
	tmp  string
	prog *Progress
	put  []string // blob keys written, removed again on failure

	dbBytes int64
	dbSum   string
	blobs   int64
	bytes   int64
}

func (rs *restore) read(r io.Reader) (BackupManifest, error) {
	var m BackupManifest
	gz, err := gzip.NewReader(r)
	if err != nil {
		return m, fmt.Errorf("%w: not a gzip-compressed backup: %v", ErrCorrupt, err)
	}
	tr := tar.NewReader(gz)
	seenManifest := false
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return m, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		if seenManifest {
			return m, fmt.Errorf("%w: entry %q after the manifest", ErrCorrupt, hdr.Name)
		}
		switch {
		case hdr.Name == backupDatabase:
			err = rs.database(tr)
		case strings.HasPrefix(hdr.Name, backupBlobs):
			err = rs.blob(tr, strings.TrimPrefix(hdr.Name, backupBlobs))
		case hdr.Name == backupManifest:
			m, err = readManifest(tr, hdr.Size)
			seenManifest = true
		default:
			err = fmt.Errorf("%w: unexpected entry %q", ErrCorrupt, hdr.Name)
		}
		if err != nil {
			return m, err
		}
	}
	if _, err := io.Copy(io.Discard, gz); err != nil { // the gzip trailer's checksum
		return m, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return m, rs.check(m, seenManifest)
}

func (rs *restore) check(m BackupManifest, seen bool) error {
	switch {
	case !seen:
		return fmt.Errorf("%w: no manifest (the archive ends early)", ErrCorrupt)
	case m.Format != backupFormat || m.Version != backupVersion:
		return fmt.Errorf("%w: format %q version %d (want %q version %d)", ErrCorrupt, m.Format, m.Version, backupFormat, backupVersion)
	case rs.dbSum == "":
		return fmt.Errorf("%w: no database", ErrCorrupt)
	case rs.dbSum != m.DatabaseSHA256 || rs.dbBytes != m.DatabaseBytes:
		return fmt.Errorf("%w: the database does not match its checksum", ErrCorrupt)
	case rs.blobs != m.Blobs || rs.bytes != m.BlobBytes:
		return fmt.Errorf("%w: %d uploads of %d bytes, the manifest says %d of %d", ErrCorrupt, rs.blobs, rs.bytes, m.Blobs, m.BlobBytes)
	}
	return nil
}

func (rs *restore) database(r io.Reader) error {
	if rs.dbSum != "" {
		return fmt.Errorf("%w: two databases", ErrCorrupt)
	}
	f, err := os.OpenFile(rs.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("transfer: restore: %w", err)
	}
	h := sha256.New()
	rs.prog.Step("restore: the database", 0, 0)
	n, err := io.Copy(io.MultiWriter(f, h), blobs.ContextReader(rs.ctx, r))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%w: the database: %v", ErrCorrupt, err)
	}
	rs.dbBytes, rs.dbSum = n, hex.EncodeToString(h.Sum(nil))
	return nil
}

func (rs *restore) blob(r io.Reader, key string) error {
	if err := blobs.CheckKey(key); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if rs.bl == nil {
		return fmt.Errorf("transfer: restore: the archive holds uploads and no uploads store was given")
	}
	rs.put = append(rs.put, key)
	n, err := rs.bl.Put(rs.ctx, key, r)
	if err != nil {
		return fmt.Errorf("%w: upload %q: %v", ErrCorrupt, key, err)
	}
	rs.blobs++
	rs.bytes += n
	rs.prog.Step("restore: uploads", rs.blobs, 0)
	return nil
}

// maxManifestBytes bounds the manifest an archive may carry.
const maxManifestBytes = 1 << 16

func readManifest(r io.Reader, size int64) (BackupManifest, error) {
	var m BackupManifest
	if size > maxManifestBytes {
		return m, fmt.Errorf("%w: manifest of %d bytes", ErrCorrupt, size)
	}
	body, err := io.ReadAll(io.LimitReader(r, maxManifestBytes))
	if err != nil {
		return m, fmt.Errorf("%w: manifest: %v", ErrCorrupt, err)
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return m, fmt.Errorf("%w: manifest: %v", ErrCorrupt, err)
	}
	return m, nil
}
