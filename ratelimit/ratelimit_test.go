package ratelimit

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestLimiter(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	l := New(Rule{Window: time.Minute, Max: 3}, clock.now)
	for i := range 3 {
		d := l.Allow("a")
		if !d.Allowed || d.Remaining != 2-i || d.Limit != 3 {
			t.Fatalf("attempt %d: got %+v, want allowed with %d remaining", i, d, 2-i)
		}
		clock.advance(10 * time.Second)
	}
	d := l.Allow("a")
	if d.Allowed {
		t.Fatalf("fourth attempt allowed: %+v", d)
	}
	if d.RetryAfter != 30*time.Second {
		t.Errorf("RetryAfter = %v, want 30s", d.RetryAfter)
	}
	if !l.Allow("b").Allowed {
		t.Errorf("another key was limited")
	}
	clock.advance(31 * time.Second)
	if d := l.Allow("a"); !d.Allowed || d.Remaining != 0 {
		t.Errorf("after the oldest left the window: got %+v, want allowed with 0 remaining", d)
	}
	l.Reset("a")
	if d := l.Allow("a"); !d.Allowed || d.Remaining != 2 {
		t.Errorf("after Reset: got %+v, want allowed with 2 remaining", d)
	}
}

func TestLimiterDisabled(t *testing.T) {
	t.Parallel()
	l := New(Rule{}, nil)
	for range 100 {
		if !l.Allow("x").Allowed {
			t.Fatal("a zero rule refused")
		}
	}
}

func TestLimiterConcurrent(t *testing.T) {
	t.Parallel()
	l := New(Rule{Window: time.Hour, Max: 50}, nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if l.Allow("k").Allowed {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
				l.Allow(fmt.Sprint(g))
			}
		}()
	}
	wg.Wait()
	if allowed != 50 {
		t.Errorf("allowed %d of 160 concurrent attempts, want exactly 50", allowed)
	}
}

func TestLimiterSweepBoundsKeys(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := New(Rule{Window: time.Second, Max: 1}, clock.now)
	l.maxKeys = 10
	for i := range 10 {
		l.Allow(fmt.Sprint(i))
	}
	clock.advance(2 * time.Second)
	l.Allow("new")
	if len(l.history) != 1 {
		t.Errorf("%d keys kept after sweep, want 1", len(l.history))
	}
}

func TestLimiterPeek(t *testing.T) {
	t.Parallel()
	clock := &fakeClock{t: time.Unix(1_000_000, 0)}
	l := New(Rule{Window: time.Minute, Max: 2}, clock.now)
	tests := []struct {
		name       string
		allow      int // Allow calls before the Peek
		wantOK     bool
		wantRemain int
	}{
		{"nothing counted", 0, true, 2},
		{"one counted", 1, true, 1},
		{"window full", 1, false, 0},
	}
	for _, tc := range tests {
		for range tc.allow {
			l.Allow("k")
		}
		for range 3 { // Peek counts nothing: asking again answers the same
			if d := l.Peek("k"); d.Allowed != tc.wantOK || d.Remaining != tc.wantRemain {
				t.Fatalf("%s: Peek = %+v, want allowed %v with %d remaining", tc.name, d, tc.wantOK, tc.wantRemain)
			}
		}
	}
	if d := l.Peek("k"); d.RetryAfter != time.Minute {
		t.Errorf("RetryAfter = %v, want 1m", d.RetryAfter)
	}
	clock.advance(time.Minute + time.Second)
	if d := l.Peek("k"); !d.Allowed || d.Remaining != 2 {
		t.Errorf("after the window: Peek = %+v, want allowed with 2 remaining", d)
	}
	if !New(Rule{}, nil).Peek("k").Allowed {
		t.Error("a zero rule refused")
	}
}
