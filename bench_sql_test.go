package chat_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// sqlBenchBackends adds SQLite (synchronous=FULL, in the benchmark's temporary directory).
// PostgreSQL is not benchmarked yet.
func sqlBenchBackends() []benchBackend {
	return []benchBackend{{"sqlite", func(b *testing.B) storage.Storage {
		s, err := sqlstore.Open(context.Background(), "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}}}
}
