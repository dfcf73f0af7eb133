package slackimport

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// archive is an opened export: its JSON entries, read from the zip without extracting
// anything to disk.
type archive struct {
	zr     *zip.ReadCloser
	lim    Limits
	files  map[string]*zip.File
	dayDir map[string][]string // directory -> its day files' names, sorted
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
	a := &archive{zr: zr, lim: lim, files: map[string]*zip.File{}, dayDir: map[string][]string{}}
	if err := a.index(st.Size()); err != nil {
		_ = zr.Close()
		return nil, err
	}
	return a, nil
}

func (a *archive) Close() error { return a.zr.Close() }

// index checks every entry's name and size and lists the JSON entries.
func (a *archive) index(zipSize int64) error {
	if len(a.zr.File) > a.lim.MaxEntries {
		return fmt.Errorf("%w: more than %d entries", ErrInvalidExport, a.lim.MaxEntries)
	}
	var total uint64
	for _, f := range a.zr.File {
		name := f.Name
		if !safeEntryName(name) {
			return fmt.Errorf("%w: unsafe entry name %q", ErrInvalidExport, name)
		}
		if !exportEntryRE.MatchString(name) || f.FileInfo().IsDir() {
			continue // directories, and files Slack adds that are not conversations (canvases)
		}
		if f.UncompressedSize64 > uint64(a.lim.MaxEntrySize) {
			return fmt.Errorf("%w: %s is larger than %d bytes", ErrInvalidExport, name, a.lim.MaxEntrySize)
		}
		total += f.UncompressedSize64
		a.files[name] = f
		if dir, day, ok := strings.Cut(name, "/"); ok {
			a.dayDir[dir] = append(a.dayDir[dir], day)
		}
	}
	// Based on historical Slack exports, more than a tenfold expansion past 1 GiB is suspect.
	if total > uint64(a.lim.MaxTotalSize) || (total > 1<<30 && total > 10*uint64(zipSize)) {
		return fmt.Errorf("%w: %d bytes uncompressed", ErrInvalidExport, total)
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
	rc, err := f.Open()
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
