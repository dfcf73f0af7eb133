package transfer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/transfer"
	"github.com/teamchat/chat/users"
)

// TestImportRefusesDamagedExports damages an export in several ways: each import fails with
// ErrCorrupt and leaves the store without an organization and the blob store empty.
func TestImportRefusesDamagedExports(t *testing.T) {
	t.Parallel()
	src, srcBlobs := sourceOrg(t)
	good := t.TempDir()
	if _, err := transfer.ExportDir(t.Context(), src.Store, srcBlobs, good, transfer.ExportOptions{Batch: 3}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"realm.json truncated", func(t *testing.T, dir string) { truncate(t, filepath.Join(dir, "realm.json")) }},
		{"a message file truncated", func(t *testing.T, dir string) { truncate(t, filepath.Join(dir, "messages-000002.json")) }},
		{"realm.json missing", func(t *testing.T, dir string) { must(t, os.Remove(filepath.Join(dir, "realm.json"))) }},
		{"a message from an unknown user", func(t *testing.T, dir string) {
			replace(t, filepath.Join(dir, "messages-000002.json"), `"sender": `, `"sender": 9999`)
		}},
		{"an uploaded file missing", func(t *testing.T, dir string) {
			entries, err := os.ReadDir(filepath.Join(dir, "uploads"))
			must(t, err)
			for _, e := range entries {
				if e.Name() != "records.json" {
					must(t, os.RemoveAll(filepath.Join(dir, "uploads", e.Name())))
				}
			}
		}},
		{"a file path leaving the directory", func(t *testing.T, dir string) {
			replace(t, filepath.Join(dir, "emoji", "records.json"), `"path": "`, `"path": "../../`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			must(t, os.CopyFS(dir, os.DirFS(good)))
			tc.damage(t, dir)
			st, bl := memory.New(), blobmemory.New()
			_, err := transfer.ImportDir(t.Context(), st, bl, dir, transfer.ImportOptions{})
			if !errors.Is(err, transfer.ErrCorrupt) {
				t.Fatalf("ImportDir: got %v, want ErrCorrupt", err)
			}
			if empty, err := transfer.Empty(t.Context(), st); err != nil || !empty {
				t.Errorf("after the refused import: empty %v, err %v", empty, err)
			}
			if keys := blobKeys(t, bl); len(keys) != 0 {
				t.Errorf("files left behind: %v", keys)
			}
		})
	}
}

// TestImportIntoNonEmptyStore is refused.
func TestImportIntoNonEmptyStore(t *testing.T) {
	t.Parallel()
	src, srcBlobs := sourceOrg(t)
	dir := t.TempDir()
	if _, err := transfer.ExportDir(t.Context(), src.Store, srcBlobs, dir, transfer.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := transfer.ImportDir(t.Context(), src.Store, nil, dir, transfer.ImportOptions{}); !errors.Is(err, transfer.ErrNotEmpty) {
		t.Fatalf("ImportDir into the source: got %v, want ErrNotEmpty", err)
	}
}

// TestTarballRoundTrip writes the export as a tarball and imports it through ImportPath,
// which DetectFormat tells from a backup.
func TestTarballRoundTrip(t *testing.T) {
	t.Parallel()
	src, srcBlobs := sourceOrg(t)
	path := filepath.Join(t.TempDir(), "export.tar.gz")
	f, err := os.Create(path)
	must(t, err)
	res, err := transfer.Export(t.Context(), src.Store, srcBlobs, f, transfer.ExportOptions{})
	must(t, err)
	must(t, f.Close())
	if format, err := transfer.DetectFormat(path); err != nil || format != transfer.FormatZulipTarball {
		t.Fatalf("DetectFormat: %v, %v", format, err)
	}
	st, bl := memory.New(), blobmemory.New()
	got, err := transfer.ImportPath(t.Context(), st, bl, path, transfer.ImportOptions{})
	must(t, err)
	if got.Messages != res.Messages || got.Users != res.Users || got.Files != res.Files {
		t.Errorf("imported %+v, exported %+v", got, res)
	}
	cut := filepath.Join(t.TempDir(), "cut.tar.gz")
	body, err := os.ReadFile(path)
	must(t, err)
	must(t, os.WriteFile(cut, body[:len(body)*2/3], 0o600))
	if _, err := transfer.ImportPath(t.Context(), memory.New(), blobmemory.New(), cut, transfer.ImportOptions{}); !errors.Is(err, transfer.ErrCorrupt) {
		t.Errorf("ImportPath of a cut tarball: got %v, want ErrCorrupt", err)
	}
}

// TestExportTypes checks what each export type holds: public leaves out direct messages and
// private channels, full-with-consent adds those of consenting users, full holds all.
func TestExportTypes(t *testing.T) {
	t.Parallel()
	src, srcBlobs := sourceOrg(t)
	var total int
	must(t, src.Store.View(t.Context(), func(tx storage.ReadTx) error {
		list, err := tx.Messages().Scan(0, 1<<20)
		total = len(list)
		return err
	}))
	count := func(typ transfer.ExportType) int64 {
		res, err := transfer.ExportDir(t.Context(), src.Store, srcBlobs, t.TempDir(), transfer.ExportOptions{Type: typ})
		must(t, err)
		return res.Messages
	}
	public, consent, full := count(transfer.ExportPublic), count(transfer.ExportFullWithConsent), count(transfer.ExportFull)
	if full != int64(total) {
		t.Errorf("full export: %d messages, the store holds %d", full, total)
	}
	if public >= full || consent < public || consent > full {
		t.Errorf("messages: public %d, full-with-consent %d, full %d", public, consent, full)
	}
}

// TestNotificationBotID keeps the export's ids of the system bots the engine's.
func TestNotificationBotID(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ got, want users.ID }{
		{transfer.NotificationBotID, world.NotificationBotID},
		{transfer.WelcomeBotID, world.WelcomeBotID},
		{transfer.EmailGatewayBotID, world.EmailGatewayBotID},
	} {
		if c.got != c.want {
			t.Errorf("transfer's system bot id %d, the engine's %d", c.got, c.want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func truncate(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	must(t, os.WriteFile(path, b[:len(b)/2], 0o600))
}

func replace(t *testing.T, path, old, repl string) {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s holds no %q", path, old)
	}
	must(t, os.WriteFile(path, []byte(strings.Replace(string(b), old, repl, 1)), 0o600))
}

// countingStore counts the store's write transactions and fails the one numbered failAt
// (from 1; 0: none).
type countingStore struct {
	storage.Storage
	updates, failAt int
}

var errInjected = errors.New("injected failure")

func (s *countingStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	s.updates++
	if s.updates == s.failAt {
		return errInjected
	}
	return s.Storage.Update(ctx, fn)
}

// TestImportWritesMessagesInBatches: the import writes the organization in one transaction,
// each message file in one of its own and the scheduled messages in a last one; a failure
// after the first is ErrIncomplete (wrapping the store's error), and removes the files put.
func TestImportWritesMessagesInBatches(t *testing.T) {
	t.Parallel()
	src, srcBlobs := sourceOrg(t)
	dir := t.TempDir()
	res, err := transfer.ExportDir(t.Context(), src.Store, srcBlobs, dir, transfer.ExportOptions{Batch: 2})
	must(t, err)
	files := int((res.Messages + 1) / 2)
	st := &countingStore{Storage: memory.New()}
	got, err := transfer.ImportDir(t.Context(), st, blobmemory.New(), dir, transfer.ImportOptions{})
	must(t, err)
	if got.Messages != res.Messages {
		t.Errorf("imported %d messages, exported %d", got.Messages, res.Messages)
	}
	if want := 1 + files + 1; st.updates != want {
		t.Errorf("%d write transactions for %d message files, want %d", st.updates, files, want)
	}
	for _, failAt := range []int{2, files + 2} {
		st := &countingStore{Storage: memory.New(), failAt: failAt}
		bl := blobmemory.New()
		_, err := transfer.ImportDir(t.Context(), st, bl, dir, transfer.ImportOptions{})
		if !errors.Is(err, transfer.ErrIncomplete) || !errors.Is(err, errInjected) {
			t.Errorf("transaction %d failing: got %v, want ErrIncomplete wrapping the failure", failAt, err)
		}
		if keys := blobKeys(t, bl); len(keys) != 0 {
			t.Errorf("transaction %d failing: files left behind: %v", failAt, keys)
		}
	}
}
