package memory_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/storagetest"
	"github.com/teamchat/chat/users"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	storagetest.Run(t, func(t *testing.T) storage.Storage {
		s := memory.New()
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// TestConformanceOfClones runs the conformance suite on clones of empty stores: a clone is a
// complete store.
func TestConformanceOfClones(t *testing.T) {
	t.Parallel()
	storagetest.Run(t, func(t *testing.T) storage.Storage {
		s, err := memory.New().Clone()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// TestCloneIsIndependent writes to a store and to its clone after cloning: each sees its own
// writes only, and ids continue from the same sequences.
func TestCloneIsIndependent(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	orig := memory.New()
	create := func(s storage.Storage, email string) users.ID {
		t.Helper()
		var id users.ID
		err := s.Update(ctx, func(tx storage.Tx) (err error) {
			id, err = tx.Users().Create(users.User{Email: email, FullName: email, IsActive: true, APIKey: email + "-key"})
			return err
		})
		if err != nil {
			t.Fatalf("create %s: %v", email, err)
		}
		return id
	}
	emails := func(s storage.Storage) []string {
		t.Helper()
		var out []string
		err := s.View(ctx, func(tx storage.ReadTx) error {
			list, err := tx.Users().List()
			for _, u := range list {
				out = append(out, u.Email)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	create(orig, "ada@example.com")
	clone, err := orig.Clone()
	if err != nil {
		t.Fatal(err)
	}
	idOrig := create(orig, "bob@example.com")
	idClone := create(clone, "cy@example.com")
	if idOrig != idClone {
		t.Errorf("next ids: original %d, clone %d; want the same sequence", idOrig, idClone)
	}
	if diff := cmp.Diff([]string{"ada@example.com", "bob@example.com"}, emails(orig)); diff != "" {
		t.Errorf("original (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ada@example.com", "cy@example.com"}, emails(clone)); diff != "" {
		t.Errorf("clone (-want +got):\n%s", diff)
	}
	orig.Close()
	if _, err := orig.Clone(); err == nil {
		t.Error("Clone of a closed store succeeded")
	}
}
