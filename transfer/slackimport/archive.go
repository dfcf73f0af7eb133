package slackimport

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
)

// ErrInvalidExport is returned (wrapped) for a file that is not a Slack export or breaks a
// limit.
var ErrInvalidExport = errors.New("slackimport: not a valid Slack export")

// exportEntryRE is the shape of the entries of a Slack export: something.json, channel/ and
// channel/2024-01-02.json (zerver/data_import/slack.py).
var exportEntryRE = regexp.MustCompile(`^[^/]+(\.json|/([^/]+\.json)?)$`)

// archive is an opened export: its JSON entries, read in place (from the zip, or from the
// directory through an os.Root), never extracted.
type archive struct {
	closer io.Closer
	lim    Limits
	files  map[string]entry
	dayDir map[string][]string // directory -> its day files' names, sorted
	total  uint64
}

// entry is one JSON file of the export.
type entry struct {
	size uint64
	open func() (io.ReadCloser, error)
}

func newArchive(c io.Closer, lim Limits) *archive {
	return &archive{closer: c, lim: lim, files: map[string]entry{}, dayDir: map[string][]string{}}
}

func openArchive(path string, lim Limits) (*archive, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("slackimport: %w", err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidExport, err)
	}
	a := newArchive(zr, lim)
	err = func() error {
		if len(zr.File) > lim.MaxEntries {
			return fmt.Errorf("%w: more than %d entries", ErrInvalidExport, lim.MaxEntries)
		}
		for _, f := range zr.File {
			if err := a.add(f.Name, f.UncompressedSize64, f.FileInfo().IsDir(), f.Open); err != nil {
				return err
			}
		}
		return a.finish(uint64(st.Size()))
	}()
	if err != nil {
		_ = zr.Close()
		return nil, err
	}
	return a, nil
}

// openDirArchive opens an export already unzipped into dir. Files are opened through an
// os.Root, so no symbolic link leads outside dir.
func openDirArchive(dir string, lim Limits) (*archive, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("slackimport: %w", err)
	}
	a := newArchive(root, lim)
	n := 0
	err = fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || name == "." {
			return err
		}
		if n++; n > lim.MaxEntries {
			return fmt.Errorf("%w: more than %d entries", ErrInvalidExport, lim.MaxEntries)
		}
		if d.IsDir() {
			if strings.Count(name, "/") > 0 {
				return fs.SkipDir // an export is one level deep
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("slackimport: %w", err)
		}
		rel := name
		return a.add(name, uint64(info.Size()), false, func() (io.ReadCloser, error) { return root.Open(rel) })
	})
	if err == nil {
		err = a.finish(0)
	}
	if err != nil {
		_ = root.Close()
		return nil, err
	}
	return a, nil
}

func (a *archive) Close() error { return a.closer.Close() }

// add checks an entry's name and size and lists it if it is one of the export's JSON files.
func (a *archive) add(name string, size uint64, isDir bool, open func() (io.ReadCloser, error)) error {
	if !safeEntryName(name) {
		return fmt.Errorf("%w: unsafe entry name %q", ErrInvalidExport, name)
	}
	if !exportEntryRE.MatchString(name) || isDir {
		return nil // directories, and files Slack adds that are not conversations (canvases)
	}
	if size > uint64(a.lim.MaxEntrySize) {
		return fmt.Errorf("%w: %s is larger than %d bytes", ErrInvalidExport, name, a.lim.MaxEntrySize)
	}
	a.total += size
	a.files[name] = entry{size: size, open: open}
	if dir, day, ok := strings.Cut(name, "/"); ok {
		a.dayDir[dir] = append(a.dayDir[dir], day)
	}
	return nil
}

// finish checks the total size (and, for a zip of zipSize bytes, its expansion) and sorts
// the days.
func (a *archive) finish(zipSize uint64) error {
	// Based on historical Slack exports, more than a tenfold expansion past 1 GiB is suspect.
	if a.total > uint64(a.lim.MaxTotalSize) || (zipSize > 0 && a.total > 1<<30 && a.total > 10*zipSize) {
		return fmt.Errorf("%w: %d bytes uncompressed", ErrInvalidExport, a.total)
	}
	for _, days := range a.dayDir {
		slices.Sort(days)
	}
	return nil
}

// safeEntryName rejects names that could escape a directory if extracted: absolute,
// backslashes, NUL, "." and ".." components.
func safeEntryName(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.ContainsAny(name, "\\\x00") {
		return false
	}
	for _, part := range strings.Split(strings.TrimSuffix(name, "/"), "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}

// has reports whether the export holds the top-level file name.
func (a *archive) has(name string) bool { _, ok := a.files[name]; return ok }

// readJSON decodes the entry name into v, reading at most the entry size limit.
func (a *archive) readJSON(name string, v any) error {
	f, ok := a.files[name]
	if !ok {
		return fmt.Errorf("%w: %s is missing", ErrInvalidExport, name)
	}
	rc, err := f.open()
	if err != nil {
		return fmt.Errorf("%w: open %s: %w", ErrInvalidExport, name, err)
	}
	defer rc.Close()
	lr := &io.LimitedReader{R: rc, N: a.lim.MaxEntrySize + 1}
	if err := json.NewDecoder(lr).Decode(v); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrInvalidExport, name, err)
	}
	if lr.N <= 0 {
		return fmt.Errorf("%w: %s is larger than %d bytes", ErrInvalidExport, name, a.lim.MaxEntrySize)
	}
	return nil
}

// readOptional is readJSON for a file an export may lack (groups.json, mpims.json, dms.json).
func (a *archive) readOptional(name string, v any) error {
	if !a.has(name) {
		return nil
	}
	return a.readJSON(name, v)
}
