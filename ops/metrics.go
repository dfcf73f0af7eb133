package ops

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
)

// Metrics are the Prometheus metrics of one server. Its methods are safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	rateLimited *prometheus.CounterVec
	published   prometheus.Counter
	delivered   prometheus.Counter
	fanout      prometheus.Histogram
	txs         *prometheus.CounterVec
	txLatency   *prometheus.HistogramVec
	scheduled   *prometheus.CounterVec
	emails      *prometheus.CounterVec
	uploads     prometheus.Counter
	uploadBytes prometheus.Counter
	retained    *prometheus.CounterVec
}

// Compile-time conformance to the hooks Metrics serves.
var (
	_ chat.Monitor      = (*Metrics)(nil)
	_ chat.EmailMonitor = (*Metrics)(nil)
)

// NewMetrics returns the metrics of a server, registered with the Go runtime's and the
// process's own collectors on a new registry.
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: counterVec("chat_http_requests_total",
			"API requests answered, by method, route (the endpoint's pattern) and HTTP status.", "method", "route", "status"),
		latency: histogramVec("chat_http_request_duration_seconds",
			"Time to answer an API request, by method and route (GET /events includes its long-poll).",
			[]float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}, "method", "route"),
		rateLimited: counterVec("chat_rate_limited_total", "Requests refused by a rate limit (HTTP 429), by route.", "route"),
		published:   counter("chat_events_published_total", "Committed events handed to this process's event queues."),
		delivered: counter("chat_events_delivered_total",
			"Events appended to event queues (an event counts once per queue that took it)."),
		fanout: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "chat_event_fanout_seconds",
			Help:    "Time to hand one committed event to every event queue that takes it (waking their long-polls).",
			Buckets: prometheus.ExponentialBuckets(0.00001, 4, 10), // 10µs .. 2.6s
		}),
		txs: counterVec("chat_store_transactions_total",
			"Store transactions, by kind (view: read-only, update: read-write) and outcome (ok, refused: the operation said no, conflict, not_found, error).",
			"kind", "outcome"),
		txLatency: histogramVec("chat_store_transaction_duration_seconds", "Duration of store transactions (retries included), by kind.",
			prometheus.ExponentialBuckets(0.0001, 3, 12), "kind"), // 100µs .. 17.7s
		retained: counterVec("chat_retention_messages_total",
			"Messages the retention pass archived (past their retention period) and purged (archived longer than the grace period), by what.", "what"),
		scheduled: counterVec("chat_scheduled_messages_total",
			"Scheduled messages and reminders the scheduler handled, by outcome (sent, failed: could no longer be sent).", "outcome"),
		emails: counterVec("chat_emails_total",
			"Emails the server handled, by kind (missed_message, digest, login, test) and outcome (sent; failed: given up; deferred: to be tried again).",
			"kind", "outcome"),
		uploads:     counter("chat_uploads_total", "Files uploaded (POST /user_uploads) and stored."),
		uploadBytes: counter("chat_upload_bytes_total", "Bytes of the files uploaded and stored."),
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency, m.rateLimited, m.published, m.delivered, m.fanout, m.txs, m.txLatency,
		m.scheduled, m.emails, m.uploads, m.uploadBytes, m.retained,
	)
	return m
}

// counter, counterVec and histogramVec make a metric of the name and help (and labels).
func counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}

func counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
}

func histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is where the metrics are registered; an embedder may add its own.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// ObserveRequest counts an answered API request (httpapi.RequestObserver).
func (m *Metrics) ObserveRequest(method, route string, status int, elapsed time.Duration) {
	m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(method, route).Observe(elapsed.Seconds())
	if status == http.StatusTooManyRequests {
		m.rateLimited.WithLabelValues(route).Inc()
	}
}

// EventPublished counts one event fanned out to delivered queues (chat.Monitor).
func (m *Metrics) EventPublished(delivered int, elapsed time.Duration) {
	m.published.Inc()
	m.delivered.Add(float64(delivered))
	m.fanout.Observe(elapsed.Seconds())
}

// ScheduledMessagesDelivered counts a scheduler pass (chat.Monitor).
func (m *Metrics) ScheduledMessagesDelivered(sent, failed int) {
	m.scheduled.WithLabelValues("sent").Add(float64(sent))
	m.scheduled.WithLabelValues("failed").Add(float64(failed))
}

// EmailsDelivered counts the emails of one pass of kind (chat.EmailMonitor).
func (m *Metrics) EmailsDelivered(kind string, sent, failed, deferred int) {
	m.emails.WithLabelValues(kind, "sent").Add(float64(sent))
	m.emails.WithLabelValues(kind, "failed").Add(float64(failed))
	m.emails.WithLabelValues(kind, "deferred").Add(float64(deferred))
}

// MessagesRetained counts a retention pass (chat.Monitor).
func (m *Metrics) MessagesRetained(archived, purged int) {
	m.retained.WithLabelValues("archived").Add(float64(archived))
	m.retained.WithLabelValues("purged").Add(float64(purged))
}

// FileUploaded counts a stored upload (chat.Monitor).
func (m *Metrics) FileUploaded(bytes int64) {
	m.uploads.Inc()
	m.uploadBytes.Add(float64(bytes))
}

// WatchQueues reports the event queues alive and the long-polls they hold, read from stats
// (a Service's QueueStats) at each scrape.
func (m *Metrics) WatchQueues(stats func() chat.QueueStats) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "chat_event_queues",
			Help: "Event queues alive in this process.",
		}, func() float64 { return float64(stats().Queues) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "chat_long_polls",
			Help: "GET /events long-polls waiting in this process.",
		}, func() float64 { return float64(stats().LongPolls) }),
	)
}

// WatchAuthentication reports the API-key authentication failures (wrong or malformed keys)
// and the attempts the failure limits refused, read from stats (a Service's
// AuthenticationStats) at each scrape.
func (m *Metrics) WatchAuthentication(stats func() chat.AuthenticationStats) {
	m.reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "chat_authentication_failures_total",
			Help: "API-key authentications refused because the key was wrong or malformed (401).",
		}, func() float64 { return float64(stats().Failed) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "chat_authentication_rate_limited_total",
			Help: "API-key authentications refused unchecked: their account or address spent its failure budget (429).",
		}, func() float64 { return float64(stats().RateLimited) }),
	)
}

// WatchRetries reports a store's transaction retries (lost races run again), read from
// retries at each scrape.
func (m *Metrics) WatchRetries(retries func() uint64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "chat_store_transaction_retries_total",
		Help: "Store transactions run again after losing a race (SQLite busy, PostgreSQL serialization failure).",
	}, func() float64 { return float64(retries()) }))
}

// WatchContention reports a store's transactions given up after losing races until their
// retry budget ran out (storage.ErrContention, answered 503 WRITE_CONFLICT), read from
// contended at each scrape.
func (m *Metrics) WatchContention(contended func() uint64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "chat_store_transaction_contention_total",
		Help: "Store transactions given up after losing races until their retry budget ran out (answered 503 WRITE_CONFLICT).",
	}, func() float64 { return float64(contended()) }))
}

// Store returns s with every transaction counted and timed.
func (m *Metrics) Store(s storage.Storage) storage.Storage { return &measuredStore{Storage: s, m: m} }

// measuredStore times and counts the transactions of the store it wraps.
type measuredStore struct {
	storage.Storage
	m *Metrics
}

func (s *measuredStore) View(ctx context.Context, fn func(storage.ReadTx) error) error {
	return s.m.transaction("view", func() error { return s.Storage.View(ctx, fn) })
}

func (s *measuredStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	return s.m.transaction("update", func() error { return s.Storage.Update(ctx, fn) })
}

// UpdateReadCommitted passes the store's storage.ReadCommittedUpdater capability on, timed like
// Update.
func (s *measuredStore) UpdateReadCommitted(ctx context.Context, fn func(storage.Tx) error) error {
	return s.m.transaction("update", func() error { return storage.UpdateReadCommitted(ctx, s.Storage, fn) })
}

// transaction runs one transaction of kind and records its duration and outcome.
func (m *Metrics) transaction(kind string, run func() error) error {
	start := time.Now()
	err := run()
	m.txLatency.WithLabelValues(kind).Observe(time.Since(start).Seconds())
	m.txs.WithLabelValues(kind, outcome(err)).Inc()
	return err
}

// outcome names how a transaction ended. A refusal decided inside the transaction (a
// *chat.Error) rolled it back like any error, but is counted apart from store failures.
func outcome(err error) string {
	var refused *chat.Error
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, storage.ErrConflict):
		return "conflict"
	case errors.Is(err, storage.ErrContention):
		return "contention"
	case errors.Is(err, storage.ErrNotFound):
		return "not_found"
	case errors.As(err, &refused):
		return "refused"
	}
	return "error"
}
