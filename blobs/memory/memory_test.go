package memory_test

import (
	"testing"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/blobs/blobstest"
	"github.com/teamchat/chat/blobs/memory"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	blobstest.Run(t, func(t *testing.T) blobs.Store { return memory.New() })
}
