package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/blobs/disk"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/transfer"
)

// backupCmd is `chatserver backup`: a consistent copy of a live SQLite store and its uploads
// in one archive.
type backupCmd struct {
	Store   string `help:"The SQLite store to copy (sqlite:PATH); a PostgreSQL store is backed up with pg_dump (README, Operating it)." default:"sqlite:./chat.db"`
	Out     string `help:"The archive to write (a gzip-compressed tar); written beside, then renamed into place." required:""`
	Uploads string `help:"The uploads store, as serve's --uploads (default: the one serve uses with --store)."`
}

// Run writes the backup.
func (c *backupCmd) Run(logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if c.Store == "memory" || strings.HasPrefix(c.Store, "postgres") {
		return fmt.Errorf("backup: --store %q: backup copies SQLite stores; back up PostgreSQL with pg_dump and the uploads directory (README, Operating it)", c.Store)
	}
	st, err := sqlstore.Open(ctx, c.Store)
	if err != nil {
		return fmt.Errorf("--store: %w", err)
	}
	defer st.Close()
	bl, err := uploadFlags{Uploads: c.Uploads}.openBlobs(ctx, c.Store)
	if err != nil {
		return err
	}
	var m transfer.BackupManifest
	err = writeAtomically(c.Out, func(w io.Writer) (err error) {
		m, err = transfer.WriteBackup(ctx, w, st, bl, filepath.Dir(c.Out), newProgress(logger))
		return err
	})
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	logger.Info("backup written", "out", c.Out, "database_bytes", m.DatabaseBytes, "uploads", m.Blobs, "upload_bytes", m.BlobBytes)
	return nil
}

// importCmd is `chatserver import`: a backup archive, or an organization in Zulip's export
// format (a directory or a tarball), into an empty store.
type importCmd struct {
	Store   string `help:"The empty store to fill: sqlite:PATH (a backup restores only to SQLite), postgres://..." default:"sqlite:./chat.db"`
	Uploads string `help:"The uploads store, as serve's --uploads (default: the one serve uses with --store)."`
	From    string `help:"The file's kind when it is another server's export: slack (the workspace's .zip) or mattermost (a bulk export's JSONL, its data/ folder beside it); detected when empty." enum:",slack,mattermost" default:""`
	Team    string `help:"With a Mattermost export of several teams: the team to import (Zulip imports one team per organization)."`
	Domain  string `help:"With a Slack export: the email domain of users it gives no address."`
	Name    string `help:"With a Slack export: the organization's name and string id (Zulip's importer takes the subdomain)." default:"slack"`
	File    string `arg:"" help:"A backup archive (from backup), a Zulip export (its directory or its .tar.gz), a Slack export (.zip) or a Mattermost bulk export (.jsonl)." type:"existingpath"`
}

// Run imports.
func (c *importCmd) Run(logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if from := c.otherServer(); from != "" {
		dir, err := c.convert(ctx, from, logger)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer os.RemoveAll(filepath.Dir(dir))
		c.File = dir
	}
	format, err := transfer.DetectFormat(c.File)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	bl, err := uploadFlags{Uploads: c.Uploads}.openBlobs(ctx, c.Store)
	if err != nil {
		return err
	}
	if format == transfer.FormatBackup {
		return c.restore(ctx, bl, logger)
	}
	return c.importExport(ctx, bl, logger)
}

// restore restores a backup archive into the SQLite store of --store, which must not exist
// or hold no organization.
func (c *importCmd) restore(ctx context.Context, bl blobs.Store, logger *slog.Logger) error {
	if c.Store == "memory" || strings.HasPrefix(c.Store, "postgres") {
		return c.restoreElsewhere(ctx, bl, logger)
	}
	path, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(c.Store, "sqlite:"), "//"), "?")
	if err := removeEmptySQLite(ctx, c.Store, path); err != nil {
		return err
	}
	f, err := os.Open(c.File)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	m, err := transfer.RestoreBackup(ctx, f, path, bl, newProgress(logger))
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	st, err := sqlstore.Open(ctx, c.Store) // applies the migrations newer than the backup
	if err != nil {
		return fmt.Errorf("import: the restored store: %w", err)
	}
	logger.Info("backup restored", "store", c.Store, "created", m.Created, "uploads", m.Blobs)
	return st.Close()
}

// restoreElsewhere restores a backup archive into an empty PostgreSQL (or memory) store,
// through Zulip's export format (transfer.RestoreBackupInto).
func (c *importCmd) restoreElsewhere(ctx context.Context, bl blobs.Store, logger *slog.Logger) error {
	st, err := openStore(ctx, c.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	f, err := os.Open(c.File)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	open := func(ctx context.Context, path string) (storage.Storage, error) {
		return sqlstore.Open(ctx, "sqlite:"+path)
	}
	tmpBlobs := func(dir string) (blobs.Store, error) { return disk.Open(dir) }
	res, err := transfer.RestoreBackupInto(ctx, f, st, bl, filepath.Dir(c.File), open, tmpBlobs, newProgress(logger))
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	logger.Info("backup restored", "store", c.Store, "users", res.Users, "messages", res.Messages, "files", res.Files)
	return nil
}

// removeEmptySQLite removes the SQLite database at path when it holds no organization (so
// that the restore may put its own file there) and refuses when it holds one.
func removeEmptySQLite(ctx context.Context, dsn, path string) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	st, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		return fmt.Errorf("import: --store: %w", err)
	}
	empty, err := transfer.Empty(ctx, st)
	st.Close()
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	if !empty {
		return fmt.Errorf("import: %w: %s holds an organization", transfer.ErrNotEmpty, path)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("import: %w", err)
		}
	}
	return nil
}

// importExport imports an organization in Zulip's export format into the store of --store.
func (c *importCmd) importExport(ctx context.Context, bl blobs.Store, logger *slog.Logger) error {
	st, err := openStore(ctx, c.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := transfer.ImportPath(ctx, st, bl, c.File, transfer.ImportOptions{Progress: newProgress(logger)})
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	logger.Info("organization imported", "store", c.Store, "users", res.Users, "channels", res.Channels, "messages", res.Messages, "files", res.Files)
	return nil
}

// newProgress reports on standard error: a line rewritten in place on a terminal, log lines
// otherwise.
func newProgress(logger *slog.Logger) *transfer.Progress {
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		return &transfer.Progress{Terminal: os.Stderr}
	}
	return &transfer.Progress{Logger: logger}
}

// exportCmd is `chatserver export`: the organization in Zulip's export format.
type exportCmd struct {
	Store   string `help:"The store to export (sqlite:PATH, postgres://...); it may be serving meanwhile." default:"sqlite:./chat.db"`
	Uploads string `help:"The uploads store, as serve's --uploads (default: the one serve uses with --store)."`
	Out     string `help:"The tarball to write (.tar.gz); written beside, then renamed into place." required:""`
	Type    string `help:"What to export: public, full-with-consent (private data of the users who allow it) or full." default:"full" enum:"public,full-with-consent,full"`
}

// Run writes the export.
func (c *exportCmd) Run(logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	typ, err := transfer.ParseExportType(c.Type)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, c.Store)
	if err != nil {
		return err
	}
	defer st.Close()
	bl, err := uploadFlags{Uploads: c.Uploads}.openBlobs(ctx, c.Store)
	if err != nil {
		return err
	}
	var res transfer.ExportResult
	err = writeAtomically(c.Out, func(w io.Writer) (err error) {
		res, err = transfer.Export(ctx, st, bl, w, transfer.ExportOptions{Type: typ, Progress: newProgress(logger)})
		return err
	})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	logger.Info("export written", "out", c.Out, "type", c.Type, "users", res.Users, "channels", res.Channels, "messages", res.Messages, "files", res.Files)
	return nil
}

// writeAtomically writes the file out with write: into out+".partial", synced, then renamed
// into place, so that out is either absent or whole; the partial file is removed on failure.
func writeAtomically(out string, write func(io.Writer) error) error {
	tmp := out + ".partial"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, out)
}
