package queue_test

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/queue"
)

func TestStatsCountQueuesAndWaitingLongPolls(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{HeartbeatWait: time.Minute})
	a := mustRegister(t, m, queue.Spec{Owner: 1})
	mustRegister(t, m, queue.Spec{Owner: 2})
	if got, want := m.Stats(), (queue.Stats{Queues: 2}); got != want {
		t.Fatalf("Stats before any long-poll = %+v, want %+v", got, want)
	}
	done := make(chan error, 1)
	go func() {
		_, err := m.Get(t.Context(), queue.GetParams{QueueID: a.ID, Owner: 1, LastEventID: -1})
		done <- err
	}()
	waitFor(t, func() bool { return m.Stats().Waiting == 1 })
	m.Publish([]int64{1}, "a", "A")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, want := m.Stats(), (queue.Stats{Queues: 2}); got != want {
		t.Fatalf("Stats after the long-poll returned = %+v, want %+v", got, want)
	}
}

func TestObserveReportsQueuesThatTookEachEvent(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []int
	m, _ := newManager(t, queue.Options{Observe: func(delivered int, elapsed time.Duration) {
		if elapsed < 0 {
			t.Errorf("elapsed %v < 0", elapsed)
		}
		mu.Lock()
		got = append(got, delivered)
		mu.Unlock()
	}})
	mustRegister(t, m, queue.Spec{Owner: 1})
	mustRegister(t, m, queue.Spec{Owner: 1, EventTypes: []string{"b"}})
	mustRegister(t, m, queue.Spec{Owner: 2})
	m.Publish([]int64{1, 2}, "a", nil) // the owner-1 queue limited to "b" does not take it
	m.Publish([]int64{1}, "b", nil)
	m.Publish([]int64{3}, "a", nil) // nobody's queue
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]int{2, 2, 0}, got); diff != "" {
		t.Errorf("delivered per Publish (-want +got):\n%s", diff)
	}
}

// waitFor polls cond until it holds (a goroutine reaching a blocking point).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not reached in 10s")
}

func TestOwnersListsOwnersWithQueues(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{})
	if got := m.Owners(); len(got) != 0 {
		t.Fatalf("Owners of an empty manager = %v", got)
	}
	a := mustRegister(t, m, queue.Spec{Owner: 7})
	mustRegister(t, m, queue.Spec{Owner: 7})
	mustRegister(t, m, queue.Spec{Owner: 3})
	b := mustRegister(t, m, queue.Spec{Owner: 5})
	if diff := cmp.Diff([]int64{3, 5, 7}, m.Owners()); diff != "" {
		t.Fatalf("Owners (-want +got):\n%s", diff)
	}
	if err := m.Delete(b.ID, 5); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(a.ID, 7); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{3, 7}, m.Owners()); diff != "" {
		t.Fatalf("Owners after deleting 5's only queue and one of 7's (-want +got):\n%s", diff)
	}
}
