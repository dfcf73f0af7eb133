package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/ops"
	"github.com/teamchat/chat/storage"
)

// opsFlags choose where operators scrape metrics and probe health.
type opsFlags struct {
	Metrics     bool   `help:"Serve Prometheus metrics at /metrics on the API listener (see also --admin-listen)."`
	AdminListen string `help:"Also listen on this address for operators only: /metrics, /health, /livez and /readyz (keep it off the public network)." name:"admin-listen"`
}

// opsServer is what a serving process shows operators: metrics (nil when neither --metrics
// nor --admin-listen asks for them) and health probes (/health as Zulip has it, /livez,
// /readyz), and the optional admin listener.
type opsServer struct {
	metrics *ops.Metrics
	health  *ops.Health
	admin   *http.Server
}

// newOps prepares the metrics and probes the flags ask for.
func (f *opsFlags) newOps() *opsServer {
	o := &opsServer{health: ops.NewHealth()}
	if f.Metrics || f.AdminListen != "" {
		o.metrics = ops.NewMetrics()
	}
	return o
}

// measure returns the store the Service should use: store, measured when there are metrics.
func (o *opsServer) measure(store storage.Storage) storage.Storage {
	if o.metrics == nil {
		return store
	}
	if r, ok := store.(interface{ Retries() uint64 }); ok {
		o.metrics.WatchRetries(r.Retries)
	}
	if c, ok := store.(interface{ Contended() uint64 }); ok {
		o.metrics.WatchContention(c.Contended)
	}
	return o.metrics.Store(store)
}

// hook sets the Service's and the API handler's monitoring hooks.
func (o *opsServer) hook(opts *chat.Options, apiOpts *httpapi.Options) {
	if o.metrics != nil {
		opts.Monitor, apiOpts.Observer = o.metrics, o.metrics
	}
}

// started reports the start-up done: svc's queues are watched and readiness follows store.
func (o *opsServer) started(svc *chat.Service, store storage.Storage) {
	if o.metrics != nil {
		o.metrics.WatchQueues(svc.QueueStats)
		o.metrics.WatchAuthentication(svc.AuthenticationStats)
	}
	o.health.Started(ops.StoreCheck(store))
}

// probes adds the health endpoints to mux, and /metrics when withMetrics.
func (o *opsServer) probes(mux *http.ServeMux, withMetrics bool) {
	mux.Handle("GET /health", o.health.ZulipHandler())
	mux.Handle("GET /livez", o.health.LiveHandler())
	mux.Handle("GET /readyz", o.health.ReadyHandler())
	if withMetrics && o.metrics != nil {
		mux.Handle("GET /metrics", o.metrics.Handler())
	}
}

// startAdmin serves the operators' endpoints on addr, if given.
func (o *opsServer) startAdmin(addr string, logger *slog.Logger) error {
	if addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	o.probes(mux, true)
	o.admin = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	go func() {
		if err := o.admin.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			logger.Error("admin listener failed", "err", err)
		}
	}()
	logger.Info("admin listener", "addr", ln.Addr().String())
	return nil
}

// stopAdmin stops the admin listener.
func (o *opsServer) stopAdmin(ctx context.Context) {
	if o.admin != nil {
		_ = o.admin.Shutdown(ctx)
	}
}

// swappable answers every request with SERVER_NOT_READY (503, Retry-After) until its API
// handler is set, so the listener answers probes, and clients retry, while the store
// migrates and the event queues are restored.
type swappable struct{ h atomic.Pointer[http.Handler] }

func (s *swappable) set(h http.Handler) { s.h.Store(&h) }

func (s *swappable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h := s.h.Load(); h != nil {
		(*h).ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "1")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write([]byte(`{"result":"error","code":"SERVER_NOT_READY","msg":"The server is starting"}` + "\n"))
}
