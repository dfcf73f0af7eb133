package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/teamchat/chat/storage"
)

// checkTimeout bounds each readiness check.
const checkTimeout = 2 * time.Second

// Check is one condition of readiness: Run returns nil when it holds. Name says what failed
// in the answer ("store", say).
type Check struct {
	Name string
	Run  func(context.Context) error
}

// StoreCheck holds while store answers a read of the organization.
func StoreCheck(store storage.Storage) Check {
	return Check{Name: "store", Run: func(ctx context.Context) error {
		return store.View(ctx, func(tx storage.ReadTx) error {
			_, err := tx.Realm().Get()
			return err
		})
	}}
}

// Health answers liveness and readiness probes. A new Health is not ready until Started: a
// server is starting (migrating its store, restoring its event queues, seeding) until then.
type Health struct {
	checks   atomic.Pointer[[]Check] // nil until Started
	stopping atomic.Bool             // Stopping was called
}

// NewHealth returns the probes of a server that is starting.
func NewHealth() *Health { return &Health{} }

// Started marks the start-up done: from now on the server is ready while every check holds.
func (h *Health) Started(checks ...Check) { h.checks.Store(&checks) }

// Stopping marks the server as stopping (draining its requests before it exits): from now on
// it is not ready, so that load balancers send new requests elsewhere.
func (h *Health) Stopping() { h.stopping.Store(true) }

// Ready reports whether the server is ready to serve: started, not stopping, and every check
// holding. The error names the first failure.
func (h *Health) Ready(ctx context.Context) error {
	if h.stopping.Load() {
		return fmt.Errorf("shutting down")
	}
	checks := h.checks.Load()
	if checks == nil {
		return fmt.Errorf("starting")
	}
	for _, c := range *checks {
		ctx, cancel := context.WithTimeout(ctx, checkTimeout)
		err := c.Run(ctx)
		cancel()
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
	}
	return nil
}

// LiveHandler answers 200 while the process serves HTTP at all (liveness: restart it when this
// fails).
func (h *Health) LiveHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "live"})
	})
}

// ReadyHandler answers 200 when Ready holds and 503 with the reason otherwise (readiness:
// send no traffic here while it fails).
func (h *Health) ReadyHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.Ready(r.Context()); err != nil {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unready", "reason": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	})
}

// ZulipHandler is Zulip's GET /health: {"result": "success", "msg": ""} when ready, and
// otherwise Zulip's SERVER_NOT_READY error with status 500.
func (h *Health) ZulipHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h.Ready(r.Context()); err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{
				"result": "error", "code": "SERVER_NOT_READY", "msg": "Server not ready: " + err.Error(),
			})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"result": "success", "msg": ""})
	})
}

// writeJSON answers with v as JSON, never cached.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
