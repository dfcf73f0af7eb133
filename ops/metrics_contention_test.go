package ops_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/teamchat/chat/ops"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
)

// TestContentionMetrics: the store's retries and its transactions given up on contention are
// scraped from the store's counters, and a transaction that failed with storage.ErrContention
// is counted under the outcome "contention", apart from other errors.
func TestContentionMetrics(t *testing.T) {
	t.Parallel()
	m := ops.NewMetrics()
	retries, contended := uint64(7), uint64(2)
	m.WatchRetries(func() uint64 { return retries })
	m.WatchContention(func() uint64 { return contended })
	mem := memory.New()
	t.Cleanup(func() { mem.Close() })
	store := m.Store(mem)
	gaveUp := fmt.Errorf("sqlstore: still conflicting: %w", storage.ErrContention)
	for _, fail := range []error{gaveUp, gaveUp, fmt.Errorf("disk on fire")} {
		if err := store.Update(t.Context(), func(storage.Tx) error { return fail }); err == nil {
			t.Fatal("a failing transaction succeeded")
		}
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		"chat_store_transaction_retries_total 7",
		"chat_store_transaction_contention_total 2",
		`chat_store_transactions_total{kind="update",outcome="contention"} 2`,
		`chat_store_transactions_total{kind="update",outcome="error"} 1`,
	} {
		if !strings.Contains(string(body), want+"\n") {
			t.Errorf("metrics lack %q:\n%s", want, body)
		}
	}
}
