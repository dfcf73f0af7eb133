package memory_test

import (
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/storagetest"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	storagetest.Run(t, func(t *testing.T) storage.Storage {
		s := memory.New()
		t.Cleanup(func() { s.Close() })
		return s
	})
}
