package memory

import (
	"slices"

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

func (a queueTx) List() ([]storage.SavedQueue, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.queues, cloneSavedQueue), nil
}

func (a queueTx) ReplaceAll(qs []storage.SavedQueue) error {
	if err := a.t.live(); err != nil {
		return err
	}
	seen := make(map[string]bool, len(qs))
	for _, q := range qs {
		if seen[q.ID] {
			return conflict("queue id " + q.ID)
		}
		seen[q.ID] = true
	}
	for id := range a.t.d.queues {
		deleteKey(a.j, a.t.d.queues, id)
	}
	for _, q := range qs {
		setKey(a.j, a.t.d.queues, q.ID, cloneSavedQueue(q))
	}
	return nil
}
