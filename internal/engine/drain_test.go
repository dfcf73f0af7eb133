package engine_test

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/teamchat/chat/internal/engine"
)

// TestDrain: Drain refuses the mutations that start after it (503 SERVER_SHUTTING_DOWN, nothing
// published) and waits for those in flight, which commit and publish; past its timeout it
// returns how many are still in flight, which still finish once they get their turn.
func TestDrain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		timeout    time.Duration
		releaseIn  time.Duration // when the held writes are let go, after Drain began
		unfinished int
	}{
		{"in flight finish within the timeout", 10 * time.Second, 50 * time.Millisecond, 0},
		{"in flight outlast the timeout", 50 * time.Millisecond, -1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			eng, actor, published := newEngine(t)
			mutate := func(typ string) error {
				return eng.Mutate(t.Context(), actor, engine.SignedIn, func(o *engine.WriteOp) error {
					o.Ev.Add(typ, nil, []int64{int64(o.Me.ID)})
					return nil
				})
			}
			release := eng.HoldWrites()
			var wg sync.WaitGroup
			errs := make([]error, 3)
			for i := range errs {
				wg.Go(func() { errs[i] = mutate("in flight") })
			}
			for eng.InFlight() < len(errs) {
				time.Sleep(time.Millisecond)
			}
			if tt.releaseIn > 0 {
				time.AfterFunc(tt.releaseIn, release)
			}
			if got := eng.Drain(tt.timeout); got != tt.unfinished {
				t.Errorf("Drain returned %d unfinished, want %d", got, tt.unfinished)
			}
			err := mutate("after the drain began")
			var e *engine.Error
			if !errors.As(err, &e) || e.Code != engine.CodeServerShuttingDown || e.HTTPStatus() != 503 {
				t.Errorf("a mutation after Drain: %v, want 503 SERVER_SHUTTING_DOWN", err)
			}
			if tt.releaseIn < 0 {
				release()
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Errorf("mutation in flight %d: %v", i, err)
				}
			}
			if want := []string{"in flight", "in flight", "in flight"}; !slices.Equal(*published, want) {
				t.Errorf("published %v, want %v", *published, want)
			}
			if n := eng.InFlight(); n != 0 {
				t.Errorf("%d mutations still in flight at the end", n)
			}
		})
	}
}

// TestCloseRefusesWaitingMutations: a mutation that waits for the write lock when Close begins
// is refused with 503 SERVER_SHUTTING_DOWN, unless it got in first; either way nothing is
// published after Close's work (saving the queues) ran.
func TestCloseRefusesWaitingMutations(t *testing.T) {
	t.Parallel()
	eng, actor, published := newEngine(t)
	release := eng.HoldWrites()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() {
			errs[i] = eng.Mutate(t.Context(), actor, engine.SignedIn, func(o *engine.WriteOp) error {
				o.Ev.Add("waiting", nil, []int64{int64(o.Me.ID)})
				return nil
			})
		})
	}
	for eng.InFlight() < len(errs) {
		time.Sleep(time.Millisecond)
	}
	atClose := -1
	closed := make(chan error, 1)
	go func() { closed <- eng.Close(func() error { atClose = len(*published); return nil }) }()
	time.Sleep(20 * time.Millisecond) // Close begins and waits for the write lock
	release()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	succeeded := 0
	for i, err := range errs {
		var e *engine.Error
		switch {
		case err == nil:
			succeeded++
		case !errors.As(err, &e) || e.Code != engine.CodeServerShuttingDown:
			t.Errorf("mutation %d: %v, want success or SERVER_SHUTTING_DOWN", i, err)
		}
	}
	if len(*published) != succeeded || atClose != succeeded {
		t.Errorf("%d succeeded, %d published, %d published when Close saved the queues; want all equal",
			succeeded, len(*published), atClose)
	}
}
