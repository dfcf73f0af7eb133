package queue

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Errors of the Manager.
var (
	// ErrBadQueueID: the queue does not exist (never did, expired, was deleted or overflowed)
	// or belongs to another owner.
	ErrBadQueueID = errors.New("queue: bad event queue id")
	// ErrTooManyQueues: the owner already holds Options.MaxQueuesPerOwner queues.
	ErrTooManyQueues = errors.New("queue: too many queues for this owner")
	// ErrClosed: the Manager is closed.
	ErrClosed = errors.New("queue: manager closed")
)

// PrunedError reports a last_event_id older than events already acknowledged.
type PrunedError struct{ NewestPruned int64 }

func (e *PrunedError) Error() string {
	return fmt.Sprintf("queue: an event newer than %d has already been pruned", e.NewestPruned)
}

// NotInQueueError reports a last_event_id that was never in the queue.
type NotInQueueError struct{ LastEventID int64 }

func (e *NotInQueueError) Error() string {
	return fmt.Sprintf("queue: event %d was not in this queue", e.LastEventID)
}

// HeartbeatType is the type of the event appended when a blocking fetch times out.
const HeartbeatType = "heartbeat"

// Defaults of Options.
const (
	DefaultIdleTimeout       = 600 * time.Second
	DefaultGCInterval        = 60 * time.Second
	DefaultHeartbeatWait     = 50 * time.Second
	DefaultMaxEventsPerQueue = 10000
	DefaultMaxQueuesPerOwner = 100
)

// Options configure a Manager; zero values take the defaults above.
type Options struct {
	// Now is the clock used for idle expiry; nil means time.Now.
	Now func() time.Time
	// HeartbeatWait is how long a blocking Get waits before appending a heartbeat.
	HeartbeatWait      time.Duration
	DefaultIdleTimeout time.Duration
	GCInterval         time.Duration
	MaxEventsPerQueue  int
	MaxQueuesPerOwner  int
	// Filter, when set, decides per queue whether an event is delivered and in which form
	// (client capabilities). It receives the queue's id and Spec.Data, and forms, which the
	// calls of one Publish share: a filter keeps there the forms it made, so that the queues
	// taking the same form share one value (encoded once). It must not call the Manager.
	Filter func(queueID string, data any, typ string, payload any, forms *Forms) (any, bool)
	// IDPrefix starts every queue id (a node name and ":" when several processes share events,
	// so that a queue id says which process holds the queue).
	IDPrefix string
	// Observe, when set, is told after each Publish how many queues took the event and how
	// long handing it to them took (for monitoring). It must not call the Manager.
	Observe func(delivered int, elapsed time.Duration)
}

// Spec describes a queue to register.
type Spec struct {
	Owner int64
	// EventTypes limits the queue to these types (heartbeats always pass); nil means all.
	EventTypes []string
	// IdleTimeout is the queue's idle lifetime; zero means the default.
	IdleTimeout time.Duration
	// Data is kept with the queue and given to Options.Filter.
	Data any
}

// Info identifies a registered queue.
type Info struct {
	ID          string
	Owner       int64
	IdleTimeout time.Duration
}

// Event is one queued event.
type Event struct {
	ID      int64
	Type    string
	Payload any
}

// GetParams are the arguments of Get.
type GetParams struct {
	QueueID string
	Owner   int64
	// LastEventID acknowledges (and frees) every event up to it; -1 acknowledges nothing.
	LastEventID int64
	DontBlock   bool
	// Waited is how long the request already waited elsewhere: the heartbeat comes
	// HeartbeatWait after its start (at once when that is past).
	Waited time.Duration
}

type eventQueue struct {
	Info
	types        map[string]bool // nil: all
	data         any
	events       []Event
	nextID       int64
	newestPruned int64
	lastActive   time.Time
	waiters      int
	// waiter is the long-poll attached to the queue, if any. As in Zulip, a queue has at most
	// one: a newer blocking Get supersedes it, and the previous one then answers at once with
	// what the queue holds (possibly nothing).
	waiter *waiter
	gone   bool
}

// Manager holds every queue of a process.
type Manager struct {
	opts Options

	mu      sync.Mutex
	queues  map[string]*eventQueue
	byOwner map[int64]map[string]*eventQueue
	closed  bool

	// beats are the waiting long-polls in the order of their heartbeat deadlines, under one
	// timer (heartbeat.go).
	beats heartbeats

	done    chan struct{}
	janitor sync.WaitGroup
}

// New returns a Manager and starts its janitor. Close it to stop the janitor.
func New(opts Options) *Manager {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.HeartbeatWait <= 0 {
		opts.HeartbeatWait = DefaultHeartbeatWait
	}
	if opts.DefaultIdleTimeout <= 0 {
		opts.DefaultIdleTimeout = DefaultIdleTimeout
	}
	if opts.GCInterval <= 0 {
		opts.GCInterval = DefaultGCInterval
	}
	if opts.MaxEventsPerQueue <= 0 {
		opts.MaxEventsPerQueue = DefaultMaxEventsPerQueue
	}
	if opts.MaxQueuesPerOwner <= 0 {
		opts.MaxQueuesPerOwner = DefaultMaxQueuesPerOwner
	}
	m := &Manager{
		opts:    opts,
		queues:  map[string]*eventQueue{},
		byOwner: map[int64]map[string]*eventQueue{},
		done:    make(chan struct{}),
	}
	m.beats.timer = time.AfterFunc(time.Hour, m.heartbeat)
	m.beats.timer.Stop()
	m.janitor.Add(1)
	go m.runJanitor()
	return m
}

// Close wakes every waiting Get (which returns ErrClosed), stops the janitor and waits for it.
// Later calls do nothing.
func (m *Manager) Close() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	close(m.done)
	// Wake every waiting long-poll (they do not select on m.done: 10,000 waiters on one
	// channel would contend for its lock on every wake-up).
	for _, q := range m.queues {
		if w := q.waiter; w != nil {
			q.waiter = nil
			m.beats.remove(w)
			w.fire()
		}
	}
	m.beats.timer.Stop()
	m.mu.Unlock()
	m.janitor.Wait()
}

// Register creates a queue.
func (m *Manager) Register(s Spec) (Info, error) {
	id, err := newQueueID()
	if err != nil {
		return Info{}, err
	}
	id = m.opts.IDPrefix + id
	timeout := s.IdleTimeout
	if timeout <= 0 {
		timeout = m.opts.DefaultIdleTimeout
	}
	q := &eventQueue{
		Info:         Info{ID: id, Owner: s.Owner, IdleTimeout: timeout},
		data:         s.Data,
		newestPruned: -1,
	}
	if s.EventTypes != nil {
		q.types = make(map[string]bool, len(s.EventTypes))
		for _, t := range s.EventTypes {
			q.types[t] = true
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return Info{}, ErrClosed
	}
	if len(m.byOwner[s.Owner]) >= m.opts.MaxQueuesPerOwner {
		return Info{}, ErrTooManyQueues
	}
	q.lastActive = m.opts.Now()
	m.add(q)
	return q.Info, nil
}

func (m *Manager) add(q *eventQueue) {
	m.queues[q.ID] = q
	owned := m.byOwner[q.Owner]
	if owned == nil {
		owned = map[string]*eventQueue{}
		m.byOwner[q.Owner] = owned
	}
	owned[q.ID] = q
}

// discard removes a queue and wakes its waiters. m.mu must be held.
func (m *Manager) discard(q *eventQueue) {
	delete(m.queues, q.ID)
	if owned := m.byOwner[q.Owner]; owned != nil {
		delete(owned, q.ID)
		if len(owned) == 0 {
			delete(m.byOwner, q.Owner)
		}
	}
	q.gone = true
	if w := q.waiter; w != nil {
		q.waiter = nil
		m.beats.remove(w)
		w.fire()
	}
}

// Delete removes one of owner's queues at once.
func (m *Manager) Delete(id string, owner int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	q, ok := m.queues[id]
	if !ok || q.Owner != owner {
		return ErrBadQueueID
	}
	m.discard(q)
	return nil
}

// Publish appends an event to every queue of the given owners that accepts its type. It never
// blocks on a client.
func (m *Manager) Publish(owners []int64, typ string, payload any) {
	start := time.Now()
	delivered := m.publish(owners, typ, payload)
	if m.opts.Observe != nil {
		m.opts.Observe(delivered, time.Since(start))
	}
}

// Forms is what Options.Filter keeps during one Publish: the forms of the event it made, by a
// key of its choice. The zero Forms is empty.
type Forms struct{ m map[any]any }

// Put keeps form under key.
func (f *Forms) Put(key, form any) {
	if f.m == nil {
		f.m = map[any]any{}
	}
	f.m[key] = form
}

// publish appends the event to the queues and reports how many took it.
func (m *Manager) publish(owners []int64, typ string, payload any) (delivered int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var forms Forms
	deliver := func(owner int64) {
		for _, q := range m.byOwner[owner] {
			if q.types != nil && !q.types[typ] {
				continue
			}
			p := payload
			if m.opts.Filter != nil {
				var ok bool
				if p, ok = m.opts.Filter(q.ID, q.data, typ, payload, &forms); !ok {
					continue
				}
			}
			if len(q.events) >= m.opts.MaxEventsPerQueue {
				m.discard(q)
				continue
			}
			m.push(q, typ, p)
			delivered++
		}
	}
	if len(m.byOwner)*sparseOwners < len(owners) && slices.IsSorted(owners) {
		// Far fewer users hold queues than the event has recipients (a channel of ten
		// thousand, a few hundred of them online): visit those who do.
		for owner := range m.byOwner {
			if _, ok := slices.BinarySearch(owners, owner); ok {
				deliver(owner)
			}
		}
		return delivered
	}
	for _, owner := range owners {
		deliver(owner)
	}
	return delivered
}

// sparseOwners is how many times more recipients than owners of queues an event must have
// for publish to visit the owners instead of the recipients.
const sparseOwners = 8

// push appends an event to q and wakes its waiters. m.mu must be held.
func (m *Manager) push(q *eventQueue, typ string, payload any) {
	q.events = append(q.events, Event{ID: q.nextID, Type: typ, Payload: payload})
	q.nextID++
	if w := q.waiter; w != nil {
		// Hand the events to the waiting long-poll, so that it returns without taking m.mu:
		// one event woke 10,000 long-polls that would otherwise queue up for the lock.
		q.waiter = nil
		q.waiters--
		q.lastActive = m.opts.Now()
		m.beats.remove(w)
		w.out = slices.Clone(q.events)
		w.handed = true
		w.fire()
	}
}
