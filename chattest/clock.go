package chattest

import (
	"sync"
	"time"
)

// Epoch is when a fixture's clock starts: 2026-01-01T00:00:00Z.
func Epoch() time.Time { return time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC) }

// Clock is a fixture's clock: it stands still until the test moves it. It is the Service's
// Options.Now, so it decides every time the Service reads (message timestamps, invitation and
// event-queue expiry, edit limits, rate-limit windows); it wakes no sleeping goroutine.
// Safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock standing at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d and returns the new time.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

// Set moves the clock to t (backwards too).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}
