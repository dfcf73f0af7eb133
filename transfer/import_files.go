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
	"path"
	"path/filepath"
	"strings"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/uploads"
)

// importFiles puts the files of uploads/, avatars/, emoji/ and thumbnails/ (each listed by
// its records.json) into the blob store; avatars under the keys of their users' new ids.
func (im *importer) importFiles() error {
	if im.bl == nil {
		return nil
	}
	for _, dir := range []string{"uploads", "avatars", "emoji", "thumbnails"} {
		var records []fileRecord
		p := filepath.Join(im.dir, dir, "records.json")
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err := readJSONFile(p, MaxRecordsBytes, &records); err != nil {
			return err
		}
		for _, r := range records {
			key, ok := im.fileKey(dir, r)
			if !ok {
				continue
			}
			if err := im.putFile(dir, r.Path, key); err != nil {
				return err
			}
		}
	}
	return nil
}

// fileKey is the blob key of a file record; false for an avatar of no imported user.
func (im *importer) fileKey(dir string, r fileRecord) (string, bool) {
	switch dir {
	case "avatars":
		u, ok := im.users[r.UserProfileID]
		if !ok {
			return "", false
		}
		return uploads.AvatarKey(uploads.AvatarPath(u, strings.Contains(r.Path, "-medium"))), true
	default:
		return dir + "/" + r.Path, true
	}
}

func (im *importer) putFile(dir, name, key string) error {
	file := dir + "/" + name
	if err := blobs.CheckKey(file); err != nil || blobs.CheckKey(key) != nil {
		return corrupt(dir+"/records.json", "file %q", name)
	}
	f, err := os.Open(filepath.Join(im.dir, filepath.FromSlash(file)))
	if err != nil {
		return corrupt(dir+"/records.json", "file %q is missing: %v", name, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxImportFileBytes {
		return corrupt(dir+"/records.json", "file %q is not a regular file of at most %d bytes", name, int64(MaxImportFileBytes))
	}
	im.put = append(im.put, key)
	if _, err := im.bl.Put(im.ctx, key, f); err != nil {
		return fmt.Errorf("transfer: %s: %w", file, err)
	}
	im.res.Files++
	im.opts.Progress.Step("import: files", im.res.Files, 0)
	return nil
}

// MaxUnpackedBytes bounds what unpacking a tarball may write.
const MaxUnpackedBytes = 1 << 40

// unpack extracts the tarball at src (gzip-compressed or not) into dir, refusing entries
// that would leave it, and returns the directory holding realm.json: dir, or the one
// directory the tarball's entries lie under (Zulip's zulip-export-XXXX/).
func unpack(ctx context.Context, src, dir string) (string, error) {
	f, err := os.Open(src)
	if err != nil {
		return "", fmt.Errorf("transfer: import: %w", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var in io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		in = gz
	}
	tr := tar.NewReader(in)
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		name := path.Clean(strings.TrimPrefix(hdr.Name, "./"))
		if name == "." || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
			return "", fmt.Errorf("%w: entry %q leaves the archive", ErrCorrupt, hdr.Name)
		}
		target := filepath.Join(dir, filepath.FromSlash(name))
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return "", fmt.Errorf("transfer: import: %w", err)
			}
			continue
		case tar.TypeReg:
		default:
			continue // links and devices are no part of an export
		}
		total += hdr.Size
		if hdr.Size < 0 || total > MaxUnpackedBytes {
			return "", fmt.Errorf("%w: more than %d bytes", ErrCorrupt, int64(MaxUnpackedBytes))
		}
		if err := writeEntry(target, tr, hdr.Size); err != nil {
			return "", err
		}
	}
	if _, err := io.Copy(io.Discard, in); err != nil { // the gzip trailer's checksum
		return "", fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return exportRoot(dir)
}

func writeEntry(target string, r io.Reader, size int64) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return fmt.Errorf("transfer: import: %w", err)
	}
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("%w: entry %s: %v", ErrCorrupt, filepath.Base(target), err)
	}
	_, err = io.CopyN(out, r, size)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%w: entry %s: %v", ErrCorrupt, filepath.Base(target), err)
	}
	return nil
}

func exportRoot(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, "realm.json")); err == nil {
		return dir, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("transfer: import: %w", err)
	}
	if len(entries) == 1 && entries[0].IsDir() {
		sub := filepath.Join(dir, entries[0].Name())
		if _, err := os.Stat(filepath.Join(sub, "realm.json")); err == nil {
			return sub, nil
		}
	}
	return "", fmt.Errorf("%w: the tarball holds no realm.json", ErrCorrupt)
}
