package main

import (
	"archive/zip"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs/disk"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// storeContents are the users and messages of the SQLite store at dsn.
func storeContents(t *testing.T, dsn string) (int, []messages.Message) {
	t.Helper()
	st, err := sqlstore.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	var list []messages.Message
	err = st.View(t.Context(), func(tx storage.ReadTx) error {
		us, err := tx.Users().List()
		n = len(us)
		if err != nil {
			return err
		}
		list, err = tx.Messages().Scan(0, 1<<20)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n, list
}

// TestBackupExportImportCommands runs chatserver backup, export and import on SQLite stores:
// the backup restores to an equal store, the export imports to one with the same users and
// messages, and an import into a store that holds an organization is refused.
func TestBackupExportImportCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := "sqlite:" + filepath.Join(dir, "chat.db")
	st, err := sqlstore.Open(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	bl, err := disk.Open(filepath.Join(dir, "chat-uploads"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := chat.New(chat.Options{Store: st, Blobs: bl})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seeds.Dev("pw").Apply(t.Context(), svc, "http://chat.test"); err != nil {
		t.Fatal(err)
	}
	iago, err := svc.AuthenticateAPIKey(t.Context(), "iago@zulip.com", seeds.DevAPIKey("iago@zulip.com", "pw"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.UploadFile(t.Context(), iago, chat.UploadFileParams{Filename: "a.txt", ContentType: "text/plain", Content: strings.NewReader("a")}); err != nil {
		t.Fatal(err)
	}
	svc.Close()
	st.Close()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	wantUsers, wantMsgs := storeContents(t, src)

	archive := filepath.Join(dir, "backup.tar.gz")
	if err := (&backupCmd{Store: src, Out: archive}).Run(logger); err != nil {
		t.Fatalf("backup: %v", err)
	}
	restored := "sqlite:" + filepath.Join(dir, "restored.db")
	if err := (&importCmd{Store: restored, File: archive}).Run(logger); err != nil {
		t.Fatalf("import of the backup: %v", err)
	}
	export := filepath.Join(dir, "export.tar.gz")
	if err := (&exportCmd{Store: src, Out: export, Type: "full"}).Run(logger); err != nil {
		t.Fatalf("export: %v", err)
	}
	imported := "sqlite:" + filepath.Join(dir, "imported.db")
	if err := (&importCmd{Store: imported, File: export}).Run(logger); err != nil {
		t.Fatalf("import of the export: %v", err)
	}
	for _, dsn := range []string{restored, imported} {
		gotUsers, gotMsgs := storeContents(t, dsn)
		if gotUsers != wantUsers {
			t.Errorf("%s: %d users, want %d", dsn, gotUsers, wantUsers)
		}
		if diff := cmp.Diff(wantMsgs, gotMsgs, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: messages (-source +copy):\n%s", dsn, diff)
		}
	}
	t.Run("backup into PostgreSQL", func(t *testing.T) {
		base := os.Getenv("CHAT_TEST_POSTGRES_URL")
		if base == "" {
			t.Skip("CHAT_TEST_POSTGRES_URL is not set: PostgreSQL restore skipped")
		}
		pg := freshPostgresSchema(t, base)
		if err := (&importCmd{Store: pg, Uploads: filepath.Join(t.TempDir(), "uploads"), File: archive}).Run(logger); err != nil {
			t.Fatalf("restore into PostgreSQL: %v", err)
		}
		gotUsers, gotMsgs := storeContents(t, pg)
		if gotUsers != wantUsers {
			t.Errorf("%d users, want %d", gotUsers, wantUsers)
		}
		if diff := cmp.Diff(wantMsgs, gotMsgs, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("messages (-source +PostgreSQL):\n%s", diff)
		}
	})
	if err := (&importCmd{Store: src, File: export}).Run(logger); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("import into the source: got %v, want a refusal", err)
	}
	if err := (&importCmd{Store: restored, File: archive}).Run(logger); err == nil {
		t.Error("restore over the restored store: want a refusal")
	}
}

// TestImportOtherServers runs chatserver import on another server's export: Slack's workspace
// zip (Zulip's importer fixture, zipped here) and a Mattermost bulk export's team (Zulip's
// fixture), each detected by its form and converted before the import; the stores then hold
// the export's users and messages.
func TestImportOtherServers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	slackZip := filepath.Join(dir, "slack.zip")
	zipDir(t, "../../transfer/slackimport/testdata/workspace", slackZip)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, tc := range []struct {
		name string
		cmd  importCmd
	}{
		{"slack", importCmd{File: slackZip, Name: "slack"}},
		{"mattermost", importCmd{File: "../../transfer/mattermostimport/testdata/teams/export.json", Team: "gryffindor"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := "sqlite:" + filepath.Join(dir, tc.name+".db")
			tc.cmd.Store = store
			tc.cmd.Uploads = filepath.Join(dir, tc.name+"-uploads")
			if got := tc.cmd.otherServer(); got != tc.name {
				t.Fatalf("detected %q, want %q", got, tc.name)
			}
			if err := tc.cmd.Run(logger); err != nil {
				t.Fatalf("import: %v", err)
			}
			users, msgs := storeContents(t, store)
			if users < 2 || len(msgs) == 0 {
				t.Fatalf("imported %d users and %d messages", users, len(msgs))
			}
		})
	}
}

// zipDir writes the files below dir into a zip archive at out, with paths relative to dir.
func zipDir(t *testing.T, dir, out string) {
	t.Helper()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}
