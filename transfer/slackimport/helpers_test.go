package slackimport

import (
	"archive/zip"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// mustZipDir zips the files under dir (names relative to it) into a new zip file and returns
// its path; extra adds entries by name.
func mustZipDir(t *testing.T, dir string, extra map[string]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "export.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	if dir != "" {
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			w, err := zw.Create(filepath.ToSlash(rel))
			if err != nil {
				return err
			}
			_, err = w.Write(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range extra {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// output is a converted directory, read back.
type output struct {
	realm       zulipdir.Realm
	messages    []zulipdir.Message
	ums         []zulipdir.UserMessage
	attachments []zulipdir.Attachment
	uploads     []zulipdir.UploadRecord
	avatars     []zulipdir.AvatarRecord
}

func mustReadJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func mustReadOutput(t *testing.T, dir string) output {
	t.Helper()
	var out output
	mustReadJSON(t, filepath.Join(dir, "realm.json"), &out.realm)
	files, err := filepath.Glob(filepath.Join(dir, "messages-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		var m struct {
			Message     []zulipdir.Message     `json:"zerver_message"`
			UserMessage []zulipdir.UserMessage `json:"zerver_usermessage"`
		}
		mustReadJSON(t, f, &m)
		out.messages = append(out.messages, m.Message...)
		out.ums = append(out.ums, m.UserMessage...)
	}
	var att struct {
		Attachment []zulipdir.Attachment `json:"zerver_attachment"`
	}
	mustReadJSON(t, filepath.Join(dir, "attachment.json"), &att)
	out.attachments = att.Attachment
	mustReadJSON(t, filepath.Join(dir, "uploads", "records.json"), &out.uploads)
	mustReadJSON(t, filepath.Join(dir, "avatars", "records.json"), &out.avatars)
	return out
}

func (o output) userByEmail(t *testing.T, email string) zulipdir.UserProfile {
	t.Helper()
	for _, u := range o.realm.UserProfile {
		if u.Email == email {
			return u
		}
	}
	t.Fatalf("no user %s", email)
	return zulipdir.UserProfile{}
}

func (o output) messageByContent(t *testing.T, content string) zulipdir.Message {
	t.Helper()
	for _, m := range o.messages {
		if m.Content == content {
			return m
		}
	}
	t.Fatalf("no message %q", content)
	return zulipdir.Message{}
}
