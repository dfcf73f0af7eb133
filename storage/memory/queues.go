package memory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
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

// liveKey is a report of a live event queue: which node, which owner.
type liveKey struct {
	node  string
	owner users.ID
}

func (a queueTx) LiveNodes(owner users.ID, since int64) ([]string, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var nodes []string
	for k, at := range a.t.d.liveOwners {
		if k.owner == owner && at >= since {
			nodes = append(nodes, k.node)
		}
	}
	slices.Sort(nodes)
	return nodes, nil
}

func (a queueTx) ReportLive(node string, owners []users.ID, at int64) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for k := range a.t.d.liveOwners {
		if k.node == node {
			deleteKey(a.j, a.t.d.liveOwners, k)
		}
	}
	for _, o := range owners {
		setKey(a.j, a.t.d.liveOwners, liveKey{node, o}, at)
	}
	return nil
}

func (a queueTx) MarkLive(node string, owner users.ID, at int64) error {
	if err := a.t.live(); err != nil {
		return err
	}
	setKey(a.j, a.t.d.liveOwners, liveKey{node, owner}, at)
	return nil
}
