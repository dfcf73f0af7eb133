package memory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/teamchat/chat/storage"
)

// queueTx is the saved-queues accessor; j is nil in a read-only transaction.
type queueTx struct {
	t *readTx
	j *journal
}

func cloneSavedQueue(q storage.SavedQueue) storage.SavedQueue {
	q.State = slices.Clone(q.State)
	return q
}

func (a queueTx) List(prefix string) ([]storage.SavedQueue, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	all := sortedValues(a.t.d.queues, cloneSavedQueue)
	return slices.DeleteFunc(all, func(q storage.SavedQueue) bool { return !strings.HasPrefix(q.ID, prefix) }), nil
}

func (a queueTx) ReplaceAll(prefix string, qs []storage.SavedQueue) error {
	if err := a.t.live(); err != nil {
		return err
	}
	seen := make(map[string]bool, len(qs))
	for _, q := range qs {
		if seen[q.ID] {
			return conflict("queue id " + q.ID)
		}
		if !strings.HasPrefix(q.ID, prefix) {
			return fmt.Errorf("memory: queue id %s lacks the prefix %q: %w", q.ID, prefix, storage.ErrConflict)
		}
		seen[q.ID] = true
	}
	for id := range a.t.d.queues {
		if strings.HasPrefix(id, prefix) {
			deleteKey(a.j, a.t.d.queues, id)
		}
	}
	for _, q := range qs {
		setKey(a.j, a.t.d.queues, q.ID, cloneSavedQueue(q))
	}
	return nil
}
