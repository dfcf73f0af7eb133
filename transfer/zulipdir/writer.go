package zulipdir

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MessageChunkSize is the number of messages per messages-NNNNNN.json file, as in Zulip's
// exports (MESSAGE_BATCH_CHUNK_SIZE).
const MessageChunkSize = 1000

// ErrNotEmpty is returned by Create when the output directory already holds files.
var ErrNotEmpty = errors.New("zulipdir: output directory is not empty")

// ErrUnsafePath is returned for a relative path that is absolute, empty or leaves the
// directory it is meant for.
var ErrUnsafePath = errors.New("zulipdir: unsafe path")

// Writer writes one export directory. It is not safe for concurrent use.
type Writer struct {
	dir      string
	nextFile int
}

// Create makes dir (and its parents) if needed and returns a Writer for it. dir must be
// empty: a conversion never mixes with an earlier one.
func Create(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("zulipdir: create %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("zulipdir: read %s: %w", dir, err)
	}
	if len(entries) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrNotEmpty, dir)
	}
	for _, sub := range []string{"uploads", "avatars", "emoji"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o750); err != nil {
			return nil, fmt.Errorf("zulipdir: create %s: %w", sub, err)
		}
	}
	return &Writer{dir: dir, nextFile: 1}, nil
}

// Dir is the directory written.
func (w *Writer) Dir() string { return w.dir }

// WriteRealm writes realm.json.
func (w *Writer) WriteRealm(r *Realm) error {
	r.normalize()
	return w.writeJSON("realm.json", r)
}

// WriteMessages writes the next messages-NNNNNN.json file (numbered from 1) with the
// messages and their UserMessage rows.
func (w *Writer) WriteMessages(msgs []Message, ums []UserMessage) error {
	name := fmt.Sprintf("messages-%06d.json", w.nextFile)
	w.nextFile++
	return w.writeJSON(name, struct {
		Message     []Message     `json:"zerver_message"`
		UserMessage []UserMessage `json:"zerver_usermessage"`
	}{orEmpty(msgs), orEmpty(ums)})
}

// WriteAttachments writes attachment.json.
func (w *Writer) WriteAttachments(a []Attachment) error {
	return w.writeJSON("attachment.json", struct {
		Attachment []Attachment `json:"zerver_attachment"`
	}{orEmpty(a)})
}

// WriteUploadRecords writes uploads/records.json.
func (w *Writer) WriteUploadRecords(r []UploadRecord) error {
	return w.writeJSON(filepath.Join("uploads", "records.json"), orEmpty(r))
}

// WriteAvatarRecords writes avatars/records.json.
func (w *Writer) WriteAvatarRecords(r []AvatarRecord) error {
	return w.writeJSON(filepath.Join("avatars", "records.json"), orEmpty(r))
}

// WriteEmojiRecords writes emoji/records.json.
func (w *Writer) WriteEmojiRecords(r []EmojiRecord) error {
	return w.writeJSON(filepath.Join("emoji", "records.json"), orEmpty(r))
}

// CreateFile creates the file rel (slash-separated) under the area directory ("uploads",
// "avatars" or "emoji"), making its parents. rel must stay inside the area.
func (w *Writer) CreateFile(area, rel string) (*os.File, error) {
	switch area {
	case "uploads", "avatars", "emoji":
	default:
		return nil, fmt.Errorf("%w: area %q", ErrUnsafePath, area)
	}
	clean, err := SafeRel(rel)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(w.dir, area, filepath.FromSlash(clean))
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("zulipdir: create %s: %w", rel, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o640)
	if err != nil {
		return nil, fmt.Errorf("zulipdir: create %s: %w", rel, err)
	}
	return f, nil
}

// CopyFile writes at most limit bytes of r to the file rel under area and returns the number
// written; more than limit bytes is an error and leaves no file.
func (w *Writer) CopyFile(area, rel string, r io.Reader, limit int64) (int64, error) {
	f, err := w.CreateFile(area, rel)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, io.LimitReader(r, limit+1))
	if err == nil && n > limit {
		err = fmt.Errorf("zulipdir: %s is larger than %d bytes", rel, limit)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("zulipdir: close %s: %w", rel, cerr)
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return 0, err
	}
	return n, nil
}

// SafeRel checks a slash-separated relative path from untrusted input and returns it
// cleaned: it must be non-empty, relative, free of NUL and backslashes, and must not climb
// out of its directory.
func SafeRel(rel string) (string, error) {
	if rel == "" || strings.ContainsAny(rel, "\x00\\") || strings.HasPrefix(rel, "/") {
		return "", fmt.Errorf("%w: %q", ErrUnsafePath, rel)
	}
	clean := filepath.ToSlash(filepath.Clean(filepath.FromSlash(rel)))
	if clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || filepath.IsAbs(clean) ||
		filepath.VolumeName(clean) != "" {
		return "", fmt.Errorf("%w: %q", ErrUnsafePath, rel)
	}
	return clean, nil
}

func (w *Writer) writeJSON(rel string, v any) error {
	path := filepath.Join(w.dir, rel)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return fmt.Errorf("zulipdir: create %s: %w", rel, err)
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err = enc.Encode(v)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("zulipdir: write %s: %w", rel, err)
	}
	return nil
}
