package disk_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/blobs/blobstest"
	"github.com/teamchat/chat/blobs/disk"
)

func open(t *testing.T) *disk.Store {
	t.Helper()
	s, err := disk.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	blobstest.Run(t, func(t *testing.T) blobs.Store { return open(t) })
}

// A process killed during a Put leaves a temporary file and no object; SweepPartial removes
// the temporary files older than its cut-off and keeps newer ones (writes under way).
func TestSweepPartial(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := disk.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "partial", "put-killed")
	recent := filepath.Join(dir, "partial", "put-running")
	for _, p := range []string{old, recent} {
		if err := os.WriteFile(p, []byte("half an upload"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	n, err := s.SweepPartial(t.Context(), time.Now().Add(-time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("SweepPartial = %d, %v; want 1", n, err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("old partial file still there: %v", err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("recent partial file removed: %v", err)
	}
	count := 0
	_ = s.List(t.Context(), "", func(blobs.Info) error { count++; return nil })
	if count != 0 {
		t.Errorf("partial files listed as objects: %d", count)
	}
}
