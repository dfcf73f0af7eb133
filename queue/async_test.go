package queue_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/queue"
)

// TestGetAsync: a wait registered by GetAsync ends as Get's would, with its ready called
// once (under the Manager's lock) and Result giving Get's answer: the event published, the
// heartbeat, what the queue holds when a newer long-poll supersedes it, ErrBadQueueID when
// the queue is deleted, ErrClosed when the Manager closes. With events pending it answers at
// once.
func TestGetAsync(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		heartbeat time.Duration
		end       func(m *queue.Manager, q queue.Info)
		want      []string
		wantErr   error
	}{
		{name: "event", end: func(m *queue.Manager, q queue.Info) { m.Publish([]int64{q.Owner}, "a", "A") }, want: []string{"a"}},
		{name: "heartbeat", heartbeat: 20 * time.Millisecond, end: func(*queue.Manager, queue.Info) {}, want: []string{queue.HeartbeatType}},
		{name: "superseded", end: func(m *queue.Manager, q queue.Info) {
			_, w, err := m.GetAsync(queue.GetParams{QueueID: q.ID, Owner: q.Owner, LastEventID: -1}, func() {})
			if err != nil || !w.Waiting() {
				t.Errorf("superseding GetAsync: %v, waiting %v", err, w.Waiting())
			}
		}, want: nil},
		{name: "deleted", end: func(m *queue.Manager, q queue.Info) { _ = m.Delete(q.ID, q.Owner) }, wantErr: queue.ErrBadQueueID},
		{name: "closed", end: func(m *queue.Manager, _ queue.Info) { m.Close() }, wantErr: queue.ErrClosed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			hb := tt.heartbeat
			if hb == 0 {
				hb = time.Hour
			}
			m, _ := newManager(t, queue.Options{HeartbeatWait: hb})
			q := mustRegister(t, m, queue.Spec{Owner: 7})
			ready := make(chan struct{}, 2)
			got, w, err := m.GetAsync(queue.GetParams{QueueID: q.ID, Owner: 7, LastEventID: -1}, func() { ready <- struct{}{} })
			if err != nil || got != nil || !w.Waiting() {
				t.Fatalf("GetAsync on an empty queue: %v, %v, waiting %v", got, err, w.Waiting())
			}
			if st := m.Stats(); st.Waiting != 1 {
				t.Fatalf("Stats while waiting: %+v", st)
			}
			tt.end(m, q)
			<-ready
			evs, err := m.Result(w)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Result: %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, types(evs)); diff != "" {
				t.Errorf("Result events (-want +got):\n%s", diff)
			}
			if len(ready) != 0 {
				t.Errorf("ready called more than once")
			}
		})
	}
	t.Run("pending", func(t *testing.T) {
		t.Parallel()
		m, _ := newManager(t, queue.Options{})
		q := mustRegister(t, m, queue.Spec{Owner: 7})
		m.Publish([]int64{7}, "a", "A")
		got, w, err := m.GetAsync(queue.GetParams{QueueID: q.ID, Owner: 7, LastEventID: -1}, func() { t.Error("ready called") })
		if err != nil || w.Waiting() || len(got) != 1 {
			t.Fatalf("GetAsync with an event pending: %v, %v, waiting %v", got, err, w.Waiting())
		}
		if _, _, err := m.GetAsync(queue.GetParams{QueueID: "nope", Owner: 7, LastEventID: -1}, func() {}); !errors.Is(err, queue.ErrBadQueueID) {
			t.Fatalf("GetAsync of an unknown queue: %v", err)
		}
		if _, err := m.Get(t.Context(), queue.GetParams{QueueID: q.ID, Owner: 7, LastEventID: 0, DontBlock: true}); err != nil {
			t.Fatal(err)
		}
	})
}
