package sqlstore

import (
	"sync"

	"github.com/teamchat/chat/users"
)

// activityFloor is what this Store's committed transactions wrote to user_activity: per user,
// a time that user's last_active is known to have reached. The column never moves back
// (SetLastActive's upsert keeps the later time, and no statement deletes its rows), so writing
// a time at or below the floor would change nothing, whichever process wrote since:
// SetLastActive leaves such users out, and a sender's many sends within one second write
// the sender's activity once. The map holds at most one entry per user of the organization.
type activityFloor struct {
	mu sync.Mutex
	at map[users.ID]int64
}

// activityWrite is one user's activity written by a transaction not yet committed.
type activityWrite struct {
	user users.ID
	at   int64
}

// above returns the users of list whose floor is below t, in list's order (list itself when
// that is all of them).
func (f *activityFloor) above(t int64, list []users.ID) []users.ID {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, id := range list {
		if f.at[id] >= t {
			out := append([]users.ID{}, list[:i]...)
			for _, id := range list[i+1:] {
				if f.at[id] < t {
					out = append(out, id)
				}
			}
			return out
		}
	}
	return list
}

// raise records writes of a transaction that has committed.
func (f *activityFloor) raise(writes []activityWrite) {
	if len(writes) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.at == nil {
		f.at = map[users.ID]int64{}
	}
	for _, w := range writes {
		if w.at > f.at[w.user] {
			f.at[w.user] = w.at
		}
	}
}
