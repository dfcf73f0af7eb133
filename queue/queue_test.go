package queue_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/queue"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newManager(t *testing.T, opts queue.Options) (*queue.Manager, *clock) {
	t.Helper()
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	opts.Now = c.Now
	m := queue.New(opts)
	t.Cleanup(m.Close)
	return m, c
}

func mustRegister(t *testing.T, m *queue.Manager, s queue.Spec) queue.Info {
	t.Helper()
	info, err := m.Register(s)
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	return info
}

func types(evs []queue.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func TestPublishAndAcknowledge(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{})
	q := mustRegister(t, m, queue.Spec{Owner: 1})
	other := mustRegister(t, m, queue.Spec{Owner: 2})
	m.Publish([]int64{1}, "a", "A")
	m.Publish([]int64{1, 2}, "b", "B")
	ctx := t.Context()
	got, err := m.Get(ctx, queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: -1, DontBlock: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []queue.Event{{ID: 0, Type: "a", Payload: "A"}, {ID: 1, Type: "b", Payload: "B"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	got, err = m.Get(ctx, queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: 0, DontBlock: true})
	if err != nil || len(got) != 1 || got[0].ID != 1 {
		t.Fatalf("after ack 0: %v, %v; want event 1 only", got, err)
	}
	got, err = m.Get(ctx, queue.GetParams{QueueID: other.ID, Owner: 2, LastEventID: -1, DontBlock: true})
	if err != nil || len(got) != 1 || got[0].Type != "b" {
		t.Fatalf("other queue: %v, %v; want event b", got, err)
	}
}

func TestGetErrors(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{})
	q := mustRegister(t, m, queue.Spec{Owner: 1})
	m.Publish([]int64{1}, "a", nil)
	m.Publish([]int64{1}, "a", nil)
	ctx := t.Context()
	if _, err := m.Get(ctx, queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: 1, DontBlock: true}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    queue.GetParams
		want func(error) bool
	}{
		{"unknown queue", queue.GetParams{QueueID: "nope", Owner: 1, LastEventID: -1}, func(err error) bool { return errors.Is(err, queue.ErrBadQueueID) }},
		{"another owner's queue", queue.GetParams{QueueID: q.ID, Owner: 2, LastEventID: -1}, func(err error) bool { return errors.Is(err, queue.ErrBadQueueID) }},
		{"already pruned", queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: 0, DontBlock: true}, func(err error) bool {
			var p *queue.PrunedError
			return errors.As(err, &p) && p.NewestPruned == 1
		}},
		{"never in queue", queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: 7, DontBlock: true}, func(err error) bool {
			var n *queue.NotInQueueError
			return errors.As(err, &n) && n.LastEventID == 7
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := m.Get(ctx, tt.p)
			if !tt.want(err) {
				t.Fatalf("Get(%+v) error = %v", tt.p, err)
			}
		})
	}
}

func TestLongPollWakesOnPublish(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{HeartbeatWait: time.Hour})
	q := mustRegister(t, m, queue.Spec{Owner: 1})
	done := make(chan []queue.Event)
	go func() {
		got, err := m.Get(t.Context(), queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: -1})
		if err != nil {
			t.Error(err)
		}
		done <- got
	}()
	// Publish until the waiter has returned; the first publish may happen before it waits.
	m.Publish([]int64{1}, "wake", nil)
	got := <-done
	if diff := cmp.Diff([]string{"wake"}, types(got)); diff != "" {
		t.Fatalf("woken with (-want +got):\n%s", diff)
	}
}

func TestHeartbeatWhenWaitEnds(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{HeartbeatWait: 10 * time.Millisecond})
	q := mustRegister(t, m, queue.Spec{Owner: 1})
	got, err := m.Get(t.Context(), queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: -1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]queue.Event{{ID: 0, Type: queue.HeartbeatType}}, got); diff != "" {
		t.Fatalf("heartbeat (-want +got):\n%s", diff)
	}
}

func TestEventTypesAndFilter(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{Filter: func(_ string, data any, typ string, payload any, _ *queue.Forms) (any, bool) {
		if data == "upper" {
			return payload.(string) + "!", true
		}
		return payload, typ != "hidden"
	}})
	only := mustRegister(t, m, queue.Spec{Owner: 1, EventTypes: []string{"b"}})
	loud := mustRegister(t, m, queue.Spec{Owner: 1, Data: "upper"})
	plain := mustRegister(t, m, queue.Spec{Owner: 1})
	m.Publish([]int64{1}, "a", "x")
	m.Publish([]int64{1}, "b", "y")
	m.Publish([]int64{1}, "hidden", "z")
	for _, tt := range []struct {
		q    queue.Info
		want []queue.Event
	}{
		{only, []queue.Event{{ID: 0, Type: "b", Payload: "y"}}},
		{loud, []queue.Event{{ID: 0, Type: "a", Payload: "x!"}, {ID: 1, Type: "b", Payload: "y!"}, {ID: 2, Type: "hidden", Payload: "z!"}}},
		{plain, []queue.Event{{ID: 0, Type: "a", Payload: "x"}, {ID: 1, Type: "b", Payload: "y"}}},
	} {
		got, err := m.Get(t.Context(), queue.GetParams{QueueID: tt.q.ID, Owner: 1, LastEventID: -1, DontBlock: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("queue %v (-want +got):\n%s", tt.q, diff)
		}
	}
}

func TestBounds(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{MaxEventsPerQueue: 3, MaxQueuesPerOwner: 2})
	q := mustRegister(t, m, queue.Spec{Owner: 1})
	mustRegister(t, m, queue.Spec{Owner: 1})
	if _, err := m.Register(queue.Spec{Owner: 1}); !errors.Is(err, queue.ErrTooManyQueues) {
		t.Fatalf("third queue: error = %v, want ErrTooManyQueues", err)
	}
	for range 4 {
		m.Publish([]int64{1}, "x", nil)
	}
	_, err := m.Get(t.Context(), queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: -1, DontBlock: true})
	if !errors.Is(err, queue.ErrBadQueueID) {
		t.Fatalf("overflowed queue: error = %v, want ErrBadQueueID", err)
	}
	if _, err := m.Register(queue.Spec{Owner: 1}); err != nil {
		t.Fatalf("after overflow the owner may register again: %v", err)
	}
}

func TestIdleExpiry(t *testing.T) {
	t.Parallel()
	m, c := newManager(t, queue.Options{GCInterval: time.Millisecond})
	q := mustRegister(t, m, queue.Spec{Owner: 1, IdleTimeout: time.Minute})
	keep := mustRegister(t, m, queue.Spec{Owner: 1, IdleTimeout: time.Hour})
	c.Advance(2 * time.Minute)
	for m.Len() != 1 {
		time.Sleep(time.Millisecond)
	}
	ctx := t.Context()
	if _, err := m.Get(ctx, queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: -1, DontBlock: true}); !errors.Is(err, queue.ErrBadQueueID) {
		t.Fatalf("expired queue: error = %v, want ErrBadQueueID", err)
	}
	if _, err := m.Get(ctx, queue.GetParams{QueueID: keep.ID, Owner: 1, LastEventID: -1, DontBlock: true}); err != nil {
		t.Fatalf("live queue: %v", err)
	}
}

func TestCloseWakesWaiters(t *testing.T) {
	t.Parallel()
	m := queue.New(queue.Options{HeartbeatWait: time.Hour})
	q, err := m.Register(queue.Spec{Owner: 1})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error)
	go func() {
		_, err := m.Get(t.Context(), queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: -1})
		errc <- err
	}()
	time.Sleep(5 * time.Millisecond)
	m.Close()
	if err := <-errc; !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("waiter after Close: %v, want ErrClosed", err)
	}
}

func TestDelete(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{})
	q := mustRegister(t, m, queue.Spec{Owner: 1})
	if err := m.Delete(q.ID, 2); !errors.Is(err, queue.ErrBadQueueID) {
		t.Fatalf("Delete by another owner: %v", err)
	}
	if err := m.Delete(q.ID, 1); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(q.ID, 1); !errors.Is(err, queue.ErrBadQueueID) {
		t.Fatalf("second Delete: %v", err)
	}
}

func TestSnapshotRestore(t *testing.T) {
	t.Parallel()
	m, c := newManager(t, queue.Options{})
	q := mustRegister(t, m, queue.Spec{Owner: 1, EventTypes: []string{"a", "restart"}, IdleTimeout: time.Hour, Data: "opts"})
	m.Publish([]int64{1}, "a", "one")
	m.Publish([]int64{1}, "a", "two")
	ctx := t.Context()
	if _, err := m.Get(ctx, queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: 0, DontBlock: true}); err != nil {
		t.Fatal(err)
	}
	saved := m.Snapshot()
	want := []queue.Saved{{
		ID: q.ID, Owner: 1, EventTypes: []string{"a", "restart"}, IdleTimeout: time.Hour, Data: "opts",
		Events: []queue.Event{{ID: 1, Type: "a", Payload: "two"}}, NextID: 2, NewestPruned: 0, LastActive: c.Now(),
	}}
	if diff := cmp.Diff(want, saved); diff != "" {
		t.Fatalf("Snapshot (-want +got):\n%s", diff)
	}

	m2, _ := newManager(t, queue.Options{})
	m2.Restore(saved, "restart", "hello")
	got, err := m2.Get(ctx, queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: 0, DontBlock: true})
	if err != nil {
		t.Fatal(err)
	}
	wantEvents := []queue.Event{{ID: 1, Type: "a", Payload: "two"}, {ID: 2, Type: "restart", Payload: "hello"}}
	if diff := cmp.Diff(wantEvents, got); diff != "" {
		t.Fatalf("events after restore (-want +got):\n%s", diff)
	}
	if _, err := m2.Get(ctx, queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: -1, DontBlock: true}); err == nil {
		t.Fatal("acknowledging before the pruned id was accepted after restore")
	}
	m2.Publish([]int64{1}, "a", "three")
	got, err = m2.Get(ctx, queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: 2, DontBlock: true})
	if err != nil || len(got) != 1 || got[0].ID != 3 {
		t.Fatalf("after restore, new events continue the ids: %v, %v", got, err)
	}
}

func TestDeleteOwner(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{})
	a := mustRegister(t, m, queue.Spec{Owner: 1})
	b := mustRegister(t, m, queue.Spec{Owner: 1})
	other := mustRegister(t, m, queue.Spec{Owner: 2})
	m.DeleteOwner(1)
	for _, q := range []queue.Info{a, b} {
		if err := m.Delete(q.ID, 1); !errors.Is(err, queue.ErrBadQueueID) {
			t.Errorf("queue %s of the deleted owner: %v", q.ID, err)
		}
	}
	if err := m.Delete(other.ID, 2); err != nil {
		t.Errorf("another owner's queue: %v", err)
	}
}

// TestNewLongPollSupersedesOld checks that a queue holds one waiting long-poll: whichever of two
// blocking Gets attaches second makes the other answer at once with nothing, as Zulip does, and
// the event then reaches the one still waiting.
func TestNewLongPollSupersedesOld(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{HeartbeatWait: time.Hour})
	q := mustRegister(t, m, queue.Spec{Owner: 1})
	results := make(chan []queue.Event, 2)
	for range 2 {
		go func() {
			got, err := m.Get(t.Context(), queue.GetParams{QueueID: q.ID, Owner: 1, LastEventID: -1})
			if err != nil {
				t.Error(err)
			}
			results <- got
		}()
	}
	if got := <-results; len(got) != 0 {
		t.Fatalf("superseded long-poll returned %v, want nothing", got)
	}
	m.Publish([]int64{1}, "x", nil)
	if got := <-results; len(got) != 1 || got[0].Type != "x" {
		t.Fatalf("current long-poll got %v, want the event", got)
	}
}

func TestIDPrefixAndDeleteAll(t *testing.T) {
	t.Parallel()
	m := queue.New(queue.Options{IDPrefix: "n1:"})
	defer m.Close()
	a, err := m.Register(queue.Spec{Owner: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Register(queue.Spec{Owner: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range []queue.Info{a, b} {
		if !strings.HasPrefix(info.ID, "n1:") || len(info.ID) != len("n1:")+36 {
			t.Errorf("queue id %q: want n1: and a UUID", info.ID)
		}
	}
	m.DeleteAll()
	if n := m.Len(); n != 0 {
		t.Fatalf("%d queues after DeleteAll, want 0", n)
	}
	if _, err := m.Get(t.Context(), queue.GetParams{QueueID: a.ID, Owner: 1, LastEventID: -1, DontBlock: true}); !errors.Is(err, queue.ErrBadQueueID) {
		t.Fatalf("Get after DeleteAll: %v, want queue.ErrBadQueueID", err)
	}
}

// TestWaitedShortensHeartbeat: a Get that already waited HeartbeatWait elsewhere (Waited)
// answers with a heartbeat at once.
func TestWaitedShortensHeartbeat(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{HeartbeatWait: time.Hour})
	info := mustRegister(t, m, queue.Spec{Owner: 1})
	got, err := m.Get(t.Context(), queue.GetParams{QueueID: info.ID, Owner: 1, LastEventID: -1, Waited: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]queue.Event{{ID: 0, Type: queue.HeartbeatType}}, got); diff != "" {
		t.Fatalf("heartbeat (-want +got):\n%s", diff)
	}
}

// TestPublishToManyRecipients holds the two ways publish finds the queues of an event's
// recipients to the same answer: the recipients' queues (a short list, or one out of order),
// or the queues whose owners are among many sorted recipients.
func TestPublishToManyRecipients(t *testing.T) {
	t.Parallel()
	many := make([]int64, 0, 1000)
	for i := range int64(1000) {
		many = append(many, 2*i) // even owners only
	}
	unsorted := append([]int64{998}, many[:500]...)
	for _, tc := range []struct {
		name    string
		owners  []int64
		reached []int64
	}{
		{"few recipients", []int64{2, 5}, []int64{2}},
		{"many sorted recipients", many, []int64{2, 4, 1998}},
		{"many recipients out of order", unsorted, []int64{2, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, _ := newManager(t, queue.Options{})
			queues := map[int64]queue.Info{}
			for _, owner := range []int64{2, 3, 4, 1998, 2001} {
				queues[owner] = mustRegister(t, m, queue.Spec{Owner: owner})
			}
			m.Publish(tc.owners, "x", nil)
			for owner, q := range queues {
				got, err := m.Get(t.Context(), queue.GetParams{QueueID: q.ID, Owner: owner, LastEventID: -1, DontBlock: true})
				if err != nil {
					t.Fatal(err)
				}
				want := 0
				for _, r := range tc.reached {
					if r == owner {
						want = 1
					}
				}
				if len(got) != want {
					t.Errorf("queue of %d holds %d events, want %d", owner, len(got), want)
				}
			}
		})
	}
}
