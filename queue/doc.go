// Package queue holds real-time event queues: per-client buffers of events keyed by an
// increasing id, long-polls that wake on a new event, heartbeats when a blocking fetch waits
// too long, and expiry of idle queues.
//
// It imports no package of this project: payloads are opaque values with a type name, and the
// data a client registered with travels as an opaque value too.
//
// Concurrency: a Manager is safe for concurrent use. It holds one mutex (Manager.mu) that guards
// every queue; waiting long-polls do not hold it. A queue has at most one attached long-poll
// (a newer one supersedes it); appending an event hands a copy of the pending events to that
// long-poll and closes its wake channel, so a woken long-poll returns without taking the lock
// (one event may wake 10,000 of them). The heartbeats of the waiting long-polls share one timer
// (heartbeat.go): a list of the waits in due order, also under Manager.mu. One janitor
// goroutine per Manager, started by New and stopped (and waited for) by Close, discards idle
// queues. Close also wakes every waiting long-poll, which then returns ErrClosed.
//
// Bounds: a queue holds at most Options.MaxEventsPerQueue unacknowledged events; a queue that
// would exceed it is discarded (its client gets ErrBadQueueID and registers again), so a slow
// client never blocks a publisher. An owner holds at most Options.MaxQueuesPerOwner queues.
package queue
