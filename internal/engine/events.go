package engine

import (
	"slices"
	"unsafe"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Pending is one event collected during a transaction, published after commit to the queues
// of Recipients (user ids).
type Pending struct {
	Recipients []int64
	Type       string
	Payload    any
}

// CredentialChanges is what a transaction invalidates of the credential caches, carried to the
// other processes in its bus message.
type CredentialChanges struct {
	// Users lists the users whose cached credentials (API keys and sessions) are dropped.
	Users []int64 `json:"c,omitempty"`
	// Swept, when not zero, drops the cached sessions that end at or before it (Unix seconds):
	// the transaction deleted the sessions expired by its clock.
	Swept int64 `json:"sw,omitempty"`
}

// Empty reports whether c invalidates nothing.
func (c CredentialChanges) Empty() bool { return len(c.Users) == 0 && c.Swept == 0 }

// Events collects the events of one mutation, and the work that must follow its commit.
type Events struct {
	// Overlapping is set for a send that overlaps others (overlap.go): a decision it may not
	// take beside them returns ErrDecideAlone.
	Overlapping bool
	List        []Pending
	// End lists the users whose queues end once the transaction commits, after its events.
	End []int64
	// Creds is what the transaction invalidates of the credential caches.
	Creds CredentialChanges
	// After is the work that runs once the transaction has committed and its events are
	// published (AfterCommit).
	After []func()
}

// Event is an event's payload that names its kind: Zulip's event type ("realm_user",
// "subscription", ...). Each area's event types implement it (their event_types.go).
type Event interface {
	EventType() string
}

// Emit records the event ev for the given users (none: nothing is recorded), under the type
// it names.
func (e *Events) Emit(ev Event, recipients []int64) {
	e.Add(ev.EventType(), ev, recipients)
}

// Add records an event of type typ for the given users (none: nothing is recorded). Areas
// call Emit; Add is for payloads whose type is not theirs to name (a queue's heartbeat, the
// engine's own).
func (e *Events) Add(typ string, payload any, recipients []int64) {
	if len(recipients) == 0 {
		return
	}
	e.List = append(e.List, Pending{Recipients: recipients, Type: typ, Payload: payload})
}

// AfterCommit runs fn once the transaction has committed and its events are published.
func (e *Events) AfterCommit(fn func()) { e.After = append(e.After, fn) }

// EndQueuesOf deletes the event queues of users once the transaction commits (deactivated
// users: their long-polls end and their queues are gone).
func (e *Events) EndQueuesOf(ids ...users.ID) {
	for _, id := range ids {
		e.End = append(e.End, int64(id))
	}
}

// SharedRecipients is ids as the recipients of an event without a copy: the same memory seen
// as []int64 (a users.ID is an int64), so that an event to a channel's ten thousand
// subscribers costs no list of its own. Nothing may write ids afterwards: the lists it is
// given (a world's subscriber lists) are replaced when they change, never written.
func SharedRecipients(ids []users.ID) []int64 {
	if len(ids) == 0 {
		return nil
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(ids))), len(ids))
}

// Recipients is ids as the recipients of an event: sorted, without repeats.
func Recipients(ids []users.ID) []int64 {
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = int64(id)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ActiveUserIDs lists the active users (bots included), the recipients of organization-wide
// events.
func ActiveUserIDs(r storage.UserReader) ([]int64, error) {
	all, err := r.List()
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(all))
	for _, u := range all {
		if u.IsActive {
			ids = append(ids, int64(u.ID))
		}
	}
	return ids, nil
}
