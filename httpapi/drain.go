package httpapi

import (
	"context"
	"net/http"
	"strings"
	"sync"

	chat "github.com/teamchat/chat"
)

// codeShuttingDown is the engine's SERVER_SHUTTING_DOWN (503, retry-after): the answer to a
// request that arrives while the Handler drains, as the Service gives it to a mutation that
// starts while it closes.
const codeShuttingDown chat.Code = "SERVER_SHUTTING_DOWN"

// requestDrain counts the requests in flight, so that a stopping server lets them finish
// (Handler.Drain) while it refuses new ones.
type requestDrain struct {
	mu       sync.Mutex
	draining bool
	inflight int
	idle     chan struct{} // while draining: closed once inflight is 0
}

// isLongPoll reports whether r is a GET /events, which waits for events: a drain neither
// refuses nor waits for it (Service.Close answers it, as it always has).
func isLongPoll(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/events")
}

// enter records a request that starts; false (answer 503) once the drain has begun.
func (d *requestDrain) enter() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return false
	}
	d.inflight++
	return true
}

// leave records a request that has been answered.
func (d *requestDrain) leave() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.inflight--
	if d.inflight == 0 && d.idle != nil {
		close(d.idle)
		d.idle = nil
	}
}

// Drain makes the Handler answer every request that arrives from now on with 503
// SERVER_SHUTTING_DOWN (Retry-After, Connection: close; nothing is done), and waits until the
// requests in flight have been answered or ctx is done; it returns how many were still in
// flight then. Waiting GET /events requests are neither refused nor waited for: Service.Close
// answers them. A server stopping gracefully drains its Handler, then closes the Service (which
// refuses the mutations still waiting with the same 503), then shuts the HTTP server down.
func (h *Handler) Drain(ctx context.Context) (unfinished int) {
	d := &h.drain
	d.mu.Lock()
	d.draining = true
	if d.inflight == 0 {
		d.mu.Unlock()
		return 0
	}
	if d.idle == nil {
		d.idle = make(chan struct{})
	}
	idle := d.idle
	d.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.inflight
}

// writeShuttingDown answers a request that arrived during the drain.
func (h *Handler) writeShuttingDown(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Connection", "close")
	h.writeError(w, r, &chat.Error{Code: codeShuttingDown, Status: http.StatusServiceUnavailable,
		Msg: "The server is shutting down; try again", Extra: map[string]any{"retry-after": float64(1)}})
}
