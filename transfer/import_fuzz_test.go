package transfer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/transfer"
)

// FuzzImportDir feeds arbitrary realm.json and messages-000001.json files to the import:
// it never panics, and whatever it refuses leaves the store without an organization.
func FuzzImportDir(f *testing.F) {
	f.Add([]byte(`{"zerver_realm":[{"name":"Acme","date_created":1700000000}],"zerver_userprofile":[{"id":1,"delivery_email":"a@acme.test","full_name":"Ann","role":100,"is_active":true}],"zerver_stream":[{"id":1,"name":"general","recipient":2}],"zerver_recipient":[{"id":1,"type":1,"type_id":1},{"id":2,"type":2,"type_id":1}],"zerver_subscription":[{"id":1,"user_profile":1,"recipient":2,"active":true}]}`),
		[]byte(`{"zerver_message":[{"id":5,"sender":1,"recipient":2,"subject":"hi","content":"**x**","date_sent":1700000001}],"zerver_usermessage":[{"id":1,"user_profile":1,"message":5,"flags_mask":1}],"zerver_reaction":[{"id":1,"user_profile":1,"message":5,"emoji_name":"+1","emoji_code":"1f44d","reaction_type":"unicode_emoji"}]}`))
	f.Add([]byte(`{"zerver_realm":[]}`), []byte(`{}`))
	f.Add([]byte(`{"zerver_realm":[{"name":"A"}],"zerver_userprofile":[{"id":1,"role":7}]}`), []byte(`[`))
	f.Fuzz(func(t *testing.T, realm, msgs []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "realm.json"), realm, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "messages-000001.json"), msgs, 0o600); err != nil {
			t.Fatal(err)
		}
		st := memory.New()
		_, err := transfer.ImportDir(t.Context(), st, blobmemory.New(), dir, transfer.ImportOptions{})
		empty, eerr := transfer.Empty(t.Context(), st)
		if eerr != nil {
			t.Fatal(eerr)
		}
		if err != nil && !empty {
			t.Fatalf("a refused import (%v) left an organization behind", err)
		}
		if err == nil && empty {
			t.Fatal("an accepted import left no organization")
		}
	})
}

// FuzzRestoreBackup feeds arbitrary bytes to the restore of a backup archive: it never
// panics, and whatever it refuses leaves neither the database file nor uploads behind.
func FuzzRestoreBackup(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	f.Add([]byte("teamchat-backup/manifest.json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		bl := blobmemory.New()
		path := filepath.Join(dir, "restored.db")
		if _, err := transfer.RestoreBackup(t.Context(), bytes.NewReader(data), path, bl, nil); err == nil {
			return
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("a refused restore left %v", entries)
		}
		if keys := blobKeys(t, bl); len(keys) != 0 {
			t.Fatalf("a refused restore left uploads %v", keys)
		}
	})
}
