package queue_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/teamchat/chat/queue"
)

// TestHeartbeatsOfManyWaits: long-polls that start at different times, some having waited
// elsewhere already (Waited puts them ahead of earlier ones in due order), each get their
// own heartbeat, never before HeartbeatWait less Waited has passed; a long-poll that gets an
// event meanwhile gets the event, not a heartbeat; one that is superseded, cancelled or whose
// queue is deleted leaves no heartbeat behind for the others.
func TestHeartbeatsOfManyWaits(t *testing.T) {
	t.Parallel()
	// Long enough that every long-poll below is waiting before the earliest heartbeat is due
	// (wait/2 after the first start) even on a loaded machine under -race.
	const wait = time.Second
	m, _ := newManager(t, queue.Options{HeartbeatWait: wait})
	type result struct {
		i       int
		evs     []queue.Event
		err     error
		elapsed time.Duration
	}
	const n = 12
	ids := make([]string, n)
	for i := range n {
		ids[i] = mustRegister(t, m, queue.Spec{Owner: int64(i)}).ID
	}
	waited := func(i int) time.Duration { return time.Duration(i%3) * wait / 4 }
	results := make(chan result, n)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	begin := time.Now() // no heartbeat is due before begin + wait/2 (the largest Waited is wait/2)
	for i := range n {
		go func() {
			start := time.Now()
			c := t.Context()
			if i == 5 {
				c = ctx
			}
			evs, err := m.Get(c, queue.GetParams{QueueID: ids[i], Owner: int64(i), LastEventID: -1, Waited: waited(i)})
			results <- result{i, evs, err, time.Since(start)}
		}()
		time.Sleep(time.Millisecond) // staggered starts
	}
	for m.Stats().Waiting < n {
		// Past begin + wait/2 a heartbeat may have ended a wait, and the count would never
		// reach n: fail rather than wait forever.
		if time.Since(begin) > wait/2 {
			t.Fatalf("only %d of %d long-polls waiting after %v", m.Stats().Waiting, n, time.Since(begin))
		}
		time.Sleep(time.Millisecond)
	}
	m.Publish([]int64{3}, "message", "hello")   // 3 gets the event
	cancel()                                    // 5 is cancelled
	if err := m.Delete(ids[7], 7); err != nil { // 7's queue goes
		t.Fatal(err)
	}
	for range n {
		r := <-results
		switch r.i {
		case 3:
			if r.err != nil || len(r.evs) != 1 || r.evs[0].Type != "message" {
				t.Errorf("long-poll 3: %v %v, want the message", r.evs, r.err)
			}
		case 5:
			if !errors.Is(r.err, context.Canceled) {
				t.Errorf("long-poll 5: %v %v, want cancelled", r.evs, r.err)
			}
		case 7:
			if !errors.Is(r.err, queue.ErrBadQueueID) {
				t.Errorf("long-poll 7: %v %v, want ErrBadQueueID", r.evs, r.err)
			}
		default:
			if r.err != nil || len(r.evs) != 1 || r.evs[0].Type != queue.HeartbeatType {
				t.Errorf("long-poll %d: %v %v, want a heartbeat", r.i, r.evs, r.err)
			}
			if min := wait - waited(r.i); r.elapsed < min {
				t.Errorf("long-poll %d: heartbeat after %v, before its %v", r.i, r.elapsed, min)
			}
		}
	}
	if st := m.Stats(); st.Waiting != 0 {
		t.Errorf("%d long-polls still counted as waiting", st.Waiting)
	}
	// The queues still work: a second round of waits gets heartbeats too.
	evs, err := m.Get(t.Context(), queue.GetParams{QueueID: ids[0], Owner: 0, LastEventID: 0})
	if err != nil || len(evs) != 1 || evs[0].Type != queue.HeartbeatType || evs[0].ID != 1 {
		t.Errorf("second wait: %v %v, want heartbeat 1", evs, err)
	}
}

// TestNoLostWakeups: many long-polls wait, are woken by events, superseded and time out
// (heartbeats), concurrently, over many rounds (run with -race): every event published
// reaches its client exactly once, in order, and each Get returns.
func TestNoLostWakeups(t *testing.T) {
	t.Parallel()
	m, _ := newManager(t, queue.Options{HeartbeatWait: 2 * time.Millisecond})
	const clients, events = 20, 200
	ids := make([]string, clients)
	for i := range clients {
		ids[i] = mustRegister(t, m, queue.Spec{Owner: int64(i)}).ID
	}
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			last, seen := int64(-1), 0
			for seen < events {
				evs, err := m.Get(t.Context(), queue.GetParams{QueueID: ids[i], Owner: int64(i), LastEventID: last})
				if err != nil {
					t.Errorf("client %d: %v", i, err)
					return
				}
				for _, e := range evs {
					if e.ID != last+1 {
						t.Errorf("client %d: event %d after %d", i, e.ID, last)
						return
					}
					last = e.ID
					if e.Type == "message" {
						if e.Payload != seen {
							t.Errorf("client %d: message %v, want %d", i, e.Payload, seen)
							return
						}
						seen++
					}
				}
				if i%4 == 0 && seen%7 == 3 {
					// A second long-poll (acknowledging nothing) supersedes this one's wait, or
					// is superseded by its next one, or is cancelled.
					go func() {
						ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
						defer cancel()
						_, _ = m.Get(ctx, queue.GetParams{QueueID: ids[i], Owner: int64(i), LastEventID: -1})
					}()
				}
			}
		})
	}
	owners := make([]int64, clients)
	for i := range owners {
		owners[i] = int64(i)
	}
	for n := range events {
		m.Publish(owners, "message", n)
		if n%10 == 0 {
			time.Sleep(3 * time.Millisecond) // let some waits end in heartbeats
		}
	}
	wg.Wait()
}
