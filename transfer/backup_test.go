package transfer_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/blobs/disk"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/transfer"
	"github.com/teamchat/chat/users"
)

// liveOrg is a development organization on a SQLite store with uploads on disk.
type liveOrg struct {
	store *sqlstore.Store
	blobs *disk.Store
	svc   *chat.Service
	actor chat.Actor
}

func newLiveOrg(t *testing.T, dir string) *liveOrg {
	t.Helper()
	st, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(dir, "chat.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	bl, err := disk.Open(filepath.Join(dir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := chat.New(chat.Options{Store: st, Blobs: bl})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	if _, err := seeds.Dev("pw").Apply(t.Context(), svc, "http://chat.test"); err != nil {
		t.Fatal(err)
	}
	actor, err := svc.AuthenticateAPIKey(t.Context(), "iago@zulip.com", seeds.DevAPIKey("iago@zulip.com", "pw"))
	if err != nil {
		t.Fatal(err)
	}
	return &liveOrg{store: st, blobs: bl, svc: svc, actor: actor}
}

func (o *liveOrg) send(ctx context.Context, content string) error {
	topic := "backup"
	_, err := o.svc.SendMessage(ctx, o.actor, chat.SendMessageParams{Type: "stream", ChannelName: "Denmark", Topic: &topic, Content: content})
	return err
}

// allMessages reads every message of the store, with every user's rows and the reactions.
func allMessages(t *testing.T, st storage.Storage) ([]messages.Message, []messages.UserMessage) {
	t.Helper()
	var list []messages.Message
	var rows []messages.UserMessage
	err := st.View(t.Context(), func(tx storage.ReadTx) error {
		var after messages.ID
		for {
			batch, err := tx.Messages().Scan(after, 500)
			if err != nil || len(batch) == 0 {
				return err
			}
			ids := make([]messages.ID, len(batch))
			for i, m := range batch {
				ids[i] = m.ID
			}
			r, err := tx.Messages().Rows(ids)
			if err != nil {
				return err
			}
			list, rows = append(list, batch...), append(rows, r...)
			after = batch[len(batch)-1].ID
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return list, rows
}

// TestBackupOfLiveStore backs a SQLite store up while senders write to it, restores the
// archive into a new file and checks that the restored store holds exactly the messages up to
// some point of the stream (a prefix: consistent), each equal to the live store's, and the
// same uploads.
func TestBackupOfLiveStore(t *testing.T) {
	t.Parallel()
	org := newLiveOrg(t, t.TempDir())
	up, err := org.svc.UploadFile(t.Context(), org.actor, chat.UploadFileParams{Filename: "notes.txt", ContentType: "text/plain", Content: strings.NewReader("the notes")})
	if err != nil {
		t.Fatal(err)
	}
	if err := org.send(t.Context(), "see [notes]("+up.URL+")"); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for w := range 3 {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				if err := org.send(ctx, fmt.Sprintf("writer %d message %d", w, i)); err != nil && ctx.Err() == nil {
					errs <- err
					return
				}
			}
		})
	}
	before, _ := allMessages(t, org.store)
	var archive bytes.Buffer
	m, err := transfer.WriteBackup(t.Context(), &archive, org.store, org.blobs, t.TempDir(), nil)
	stop()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("sender: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if m.Blobs == 0 {
		t.Fatalf("manifest %+v: no uploads", m)
	}

	dir := t.TempDir()
	restoredBlobs, err := disk.Open(filepath.Join(dir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "restored.db")
	if _, err := transfer.RestoreBackup(t.Context(), bytes.NewReader(archive.Bytes()), dbPath, restoredBlobs, nil); err != nil {
		t.Fatal(err)
	}
	restored, err := sqlstore.Open(t.Context(), "sqlite:"+dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer restored.Close()

	live, liveRows := allMessages(t, org.store)
	got, gotRows := allMessages(t, restored)
	if len(got) < len(before) || len(got) > len(live) {
		t.Fatalf("restored %d messages; %d existed before the backup began and %d after it", len(got), len(before), len(live))
	}
	if diff := cmp.Diff(live[:len(got)], got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("restored messages differ from the live store's first %d (-live +restored):\n%s", len(got), diff)
	}
	var wantRows []messages.UserMessage
	for _, r := range liveRows {
		if len(got) > 0 && r.MessageID <= got[len(got)-1].ID {
			wantRows = append(wantRows, r)
		}
	}
	if diff := cmp.Diff(wantRows, gotRows, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("restored rows differ (-live +restored):\n%s", diff)
	}
	if diff := cmp.Diff(blobKeys(t, org.blobs), blobKeys(t, restoredBlobs)); diff != "" {
		t.Errorf("restored uploads differ (-live +restored):\n%s", diff)
	}
	if diff := cmp.Diff(listUsers(t, org.store), listUsers(t, restored), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("restored users differ (-live +restored):\n%s", diff)
	}
}

func blobKeys(t *testing.T, bl blobs.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := bl.List(t.Context(), "", func(info blobs.Info) error {
		obj, err := bl.Open(t.Context(), info.Key)
		if err != nil {
			return err
		}
		defer obj.Close()
		b, err := io.ReadAll(obj)
		out[info.Key] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRestoreRefusesDamagedArchives cuts and corrupts a backup archive: each is refused with
// ErrCorrupt and leaves neither a database file nor uploads.
func TestRestoreRefusesDamagedArchives(t *testing.T) {
	t.Parallel()
	org := newLiveOrg(t, t.TempDir())
	if _, err := org.svc.UploadFile(t.Context(), org.actor, chat.UploadFileParams{Filename: "a.txt", ContentType: "text/plain", Content: strings.NewReader("a")}); err != nil {
		t.Fatal(err)
	}
	var archive bytes.Buffer
	if _, err := transfer.WriteBackup(t.Context(), &archive, org.store, org.blobs, t.TempDir(), nil); err != nil {
		t.Fatal(err)
	}
	full := archive.Bytes()
	flipped := bytes.Clone(full)
	flipped[len(flipped)/2] ^= 0xff
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"cut after the header", full[:20]},
		{"cut in the middle", full[:len(full)/2]},
		{"cut before the gzip trailer", full[:len(full)-4]},
		{"a byte flipped", flipped},
		{"not gzip", []byte("hello, this is not an archive")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			bl, err := disk.Open(filepath.Join(dir, "uploads"))
			if err != nil {
				t.Fatal(err)
			}
			dbPath := filepath.Join(dir, "restored.db")
			_, err = transfer.RestoreBackup(t.Context(), bytes.NewReader(tc.data), dbPath, bl, nil)
			if !errors.Is(err, transfer.ErrCorrupt) {
				t.Fatalf("RestoreBackup: got %v, want ErrCorrupt", err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("left behind in the target directory: %v", entries)
			}
			if keys := blobKeys(t, bl); len(keys) != 0 {
				t.Errorf("left behind in the uploads: %v", keys)
			}
		})
	}
}

func listUsers(t *testing.T, st storage.Storage) []users.User {
	t.Helper()
	var list []users.User
	err := st.View(t.Context(), func(tx storage.ReadTx) error {
		var err error
		list, err = tx.Users().List()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return list
}
