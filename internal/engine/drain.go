package engine

import (
	"sync"
	"time"
)

// DefaultDrainTimeout is how long Drain waits for the mutations in flight when given no
// timeout.
const DefaultDrainTimeout = 10 * time.Second

// drain counts the mutations in flight, so that a closing Service lets them finish (Drain)
// while it refuses new ones.
type drain struct {
	mu       sync.Mutex
	draining bool          // Drain has begun: mutations that arrive now are refused
	inflight int           // mutations between enter and leave
	idle     chan struct{} // while draining: closed once inflight is 0
}

// enter records a mutation that starts; false (the mutation is refused) once Drain has
// begun.
func (e *Engine) enter() bool {
	d := &e.drain
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return false
	}
	d.inflight++
	return true
}

// leave records a mutation that has finished (committed and published, or failed).
func (e *Engine) leave() {
	d := &e.drain
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inflight--
	if d.inflight == 0 && d.idle != nil {
		close(d.idle)
		d.idle = nil
	}
}

// Drain refuses every mutation that starts from now on (ErrShuttingDown: 503 with
// retry-after; nothing written) and waits until the mutations already in flight have finished,
// or until timeout (0: DefaultDrainTimeout; negative: no wait). It returns how many were
// still in flight then: Close refuses those that have not begun their transaction yet, and
// waits for those inside one. Reads are not affected.
func (e *Engine) Drain(timeout time.Duration) (unfinished int) {
	if timeout == 0 {
		timeout = DefaultDrainTimeout
	}
	d := &e.drain
	d.mu.Lock()
	d.draining = true
	if d.inflight == 0 || timeout < 0 {
		n := d.inflight
		d.mu.Unlock()
		return n
	}
	if d.idle == nil {
		d.idle = make(chan struct{})
	}
	idle := d.idle
	d.mu.Unlock()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-idle:
	case <-timer.C:
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.inflight
}

// InFlight reports how many mutations are in flight.
func (e *Engine) InFlight() int {
	d := &e.drain
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.inflight
}
