package transfer

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/storage"
)

// BackupOpener opens the SQLite database a restore wrote (sqlstore.Open with "sqlite:"+path),
// which this package cannot import.
type BackupOpener func(ctx context.Context, path string) (storage.Storage, error)

// RestoreBackupInto restores a backup archive into any empty store (PostgreSQL, memory):
// the archive is restored into a temporary SQLite file and blob directory under tmpDir,
// exported from there in Zulip's format, and imported into st and bl. tmpBlobs opens the
// temporary blob store (a directory) that the restore fills.
func RestoreBackupInto(ctx context.Context, r io.Reader, st storage.Storage, bl blobs.Store, tmpDir string,
	open BackupOpener, tmpBlobs func(dir string) (blobs.Store, error), prog *Progress) (ImportResult, error) {
	empty, err := Empty(ctx, st)
	if err != nil {
		return ImportResult{}, err
	}
	if !empty {
		return ImportResult{}, ErrNotEmpty
	}
	dir, err := os.MkdirTemp(tmpDir, "chat-restore-")
	if err != nil {
		return ImportResult{}, fmt.Errorf("transfer: restore: %w", err)
	}
	defer os.RemoveAll(dir)
	srcBlobs, err := tmpBlobs(filepath.Join(dir, "uploads"))
	if err != nil {
		return ImportResult{}, err
	}
	dbPath := filepath.Join(dir, "backup.db")
	if _, err := RestoreBackup(ctx, r, dbPath, srcBlobs, prog); err != nil {
		return ImportResult{}, err
	}
	src, err := open(ctx, dbPath)
	if err != nil {
		return ImportResult{}, fmt.Errorf("transfer: restore: the backup's database: %w", err)
	}
	defer src.Close()
	exported := filepath.Join(dir, "export")
	if _, err := ExportDir(ctx, src, srcBlobs, exported, ExportOptions{Type: ExportFull, Progress: prog}); err != nil {
		return ImportResult{}, err
	}
	return ImportDir(ctx, st, bl, exported, ImportOptions{Progress: prog})
}
