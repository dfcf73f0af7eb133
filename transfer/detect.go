package transfer

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/teamchat/chat/storage"
)

// Format is the kind of archive DetectFormat recognised.
type Format int

// The formats chatserver import reads.
const (
	FormatBackup         Format = iota + 1 // a backup archive of WriteBackup
	FormatZulipDirectory                   // a directory in Zulip's export format (realm.json)
	FormatZulipTarball                     // a Zulip export tarball (.tar.gz holding realm.json)
)

// DetectFormat tells a backup archive from a Zulip export (a directory holding realm.json, or
// a tarball whose first entry is not a backup's). It reads at most one tar header.
func DetectFormat(path string) (Format, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if fi.IsDir() {
		if _, err := os.Stat(filepath.Join(path, "realm.json")); err != nil {
			return 0, fmt.Errorf("%w: directory %s holds no realm.json (not a Zulip export)", ErrCorrupt, path)
		}
		return FormatZulipDirectory, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	name, err := firstEntry(f)
	if err != nil {
		return 0, err
	}
	if strings.HasPrefix(name, backupPrefix) {
		return FormatBackup, nil
	}
	return FormatZulipTarball, nil
}

// firstEntry is the name of the first entry of a tar archive, gzip-compressed or not.
func firstEntry(r io.Reader) (string, error) {
	br := bufio.NewReader(r)
	var in io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		in = gz
	}
	hdr, err := tar.NewReader(in).Next()
	if err != nil {
		return "", fmt.Errorf("%w: not a tar archive: %v", ErrCorrupt, err)
	}
	return hdr.Name, nil
}

// Empty reports whether the store holds no organization.
func Empty(ctx context.Context, st storage.Storage) (bool, error) {
	empty := false
	err := st.View(ctx, func(tx storage.ReadTx) error {
		_, err := tx.Realm().Get()
		if errors.Is(err, storage.ErrNotFound) {
			empty = true
			return nil
		}
		return err
	})
	if err != nil {
		return false, fmt.Errorf("transfer: reading the store: %w", err)
	}
	return empty, nil
}
