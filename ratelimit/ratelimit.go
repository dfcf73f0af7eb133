package ratelimit

import (
	"sync"
	"time"
)

// Rule allows at most Max events per Window.
type Rule struct {
	Window time.Duration
	Max    int
}

// Limiter applies one Rule to many keys. The zero Rule (Max 0) disables limiting.
type Limiter struct {
	rule    Rule
	now     func() time.Time
	mu      sync.Mutex
	history map[string][]time.Time
	maxKeys int
}

// New returns a limiter for rule. now is the clock (nil: time.Now).
func New(rule Rule, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{rule: rule, now: now, history: map[string][]time.Time{}, maxKeys: 100_000}
}

// Decision is the outcome of one Allow call, with what the X-RateLimit-* headers report.
type Decision struct {
	Allowed    bool
	Limit      int
	Remaining  int
	Reset      time.Time     // when the oldest counted event leaves the window
	RetryAfter time.Duration // how long to wait when refused
}

// Allow counts one event for key unless the window already holds Max events, in which case it
// refuses and counts nothing.
func (l *Limiter) Allow(key string) Decision {
	if l.rule.Max <= 0 {
		return Decision{Allowed: true}
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.prune(key, now)
	d := Decision{Limit: l.rule.Max}
	if len(h) >= l.rule.Max {
		d.Reset = h[0].Add(l.rule.Window)
		d.RetryAfter = d.Reset.Sub(now)
		return d
	}
	if len(l.history) >= l.maxKeys {
		l.sweep(now)
	}
	h = append(h, now)
	l.history[key] = h
	d.Allowed = true
	d.Remaining = l.rule.Max - len(h)
	d.Reset = h[0].Add(l.rule.Window)
	return d
}

// Reset forgets the history of key (a successful login clears the failures before it).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	delete(l.history, key)
	l.mu.Unlock()
}

// prune drops the events of key that left the window. l.mu is held.
func (l *Limiter) prune(key string, now time.Time) []time.Time {
	h := l.history[key]
	cut := now.Add(-l.rule.Window)
	i := 0
	for i < len(h) && !h[i].After(cut) {
		i++
	}
	if i == len(h) {
		delete(l.history, key)
		return nil
	}
	if i > 0 {
		h = append(h[:0:0], h[i:]...)
		l.history[key] = h
	}
	return h
}

// sweep bounds memory: it drops every key whose events all left the window. l.mu is held.
func (l *Limiter) sweep(now time.Time) {
	for k := range l.history {
		l.prune(k, now)
	}
}

// Peek reports what Allow would decide for key without counting anything: Allowed is false
// when the window already holds Max events. Callers that count only failures (a wrong API
// key) ask Peek before the check and Allow after a failure.
func (l *Limiter) Peek(key string) Decision {
	if l.rule.Max <= 0 {
		return Decision{Allowed: true}
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.prune(key, now)
	d := Decision{Limit: l.rule.Max, Remaining: l.rule.Max - len(h)}
	if len(h) > 0 {
		d.Reset = h[0].Add(l.rule.Window)
	}
	if len(h) >= l.rule.Max {
		d.Remaining = 0
		d.RetryAfter = d.Reset.Sub(now)
		return d
	}
	d.Allowed = true
	return d
}
