// Package ops holds what an operator of a chat server scrapes and probes: Prometheus metrics
// (HTTP requests by route and status with latency histograms, event queues and long-polls,
// events published and fanned out, store transactions with their durations, outcomes and
// retries, rate-limit refusals) and liveness and readiness checks for load balancers and
// orchestrators.
//
// Metrics collects through hooks the other packages define on their side: it satisfies
// chat.Monitor and httpapi.RequestObserver structurally, decorates a storage.Storage, and
// reads gauges (queues, long-polls, store retries) when scraped. Everything is registered on a
// registry of its own, so several servers in one process (tests) never collide.
//
// Imports: chat and storage of this module; never httpapi or a storage backend.
package ops
