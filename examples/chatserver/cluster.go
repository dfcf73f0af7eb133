package main

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/teamchat/chat/eventbus/pgbus"
)

// clusterFlags let several serve processes share one PostgreSQL store and its events.
type clusterFlags struct {
	NodeID            string        `help:"Join the processes sharing this PostgreSQL store under this id (letters, digits, -): events travel through PostgreSQL and event-queue requests are forwarded to the process holding the queue. Requires a postgres:// --store and --advertise-url." name:"node-id"`
	AdvertiseURL      string        `help:"Base URL (http://HOST:PORT) at which the other processes reach this one; required with --node-id." name:"advertise-url"`
	NodeTimeout       time.Duration `help:"How long a silent process counts as alive: after it, its clients get BAD_EVENT_QUEUE_ID and register elsewhere." name:"node-timeout" default:"10s"`
	HeartbeatInterval time.Duration `help:"How often this process announces itself." name:"node-heartbeat" default:"2s"`
	RestartGrace      time.Duration `help:"After a graceful stop (SIGTERM), how long the other processes answer requests for this process's event queues with 503 (clients retry) rather than BAD_EVENT_QUEUE_ID (clients register again), expecting it back with the same --node-id to continue the queues it saved. 0: not expected back." name:"restart-grace" default:"1m"`
	BusLogRetention   time.Duration `help:"How long events stay in PostgreSQL's event log: a process stopped longer cannot continue its saved queues." name:"bus-log-retention" default:"10m"`
}

// openBus opens the PostgreSQL event bus when --node-id is given; nil otherwise.
func (c *clusterFlags) openBus(ctx context.Context, store string, logger *slog.Logger) (*pgbus.Bus, error) {
	if c.NodeID == "" {
		return nil, nil
	}
	if !strings.HasPrefix(store, "postgres://") && !strings.HasPrefix(store, "postgresql://") {
		return nil, errors.New("--node-id needs a PostgreSQL --store (postgres://...)")
	}
	if c.AdvertiseURL == "" {
		return nil, errors.New("--node-id needs --advertise-url")
	}
	if c.RestartGrace > c.BusLogRetention {
		return nil, errors.New("--restart-grace must not exceed --bus-log-retention")
	}
	return pgbus.Open(ctx, pgbus.Options{
		URL: store, Node: c.NodeID, AdvertiseURL: c.AdvertiseURL,
		HeartbeatInterval: c.HeartbeatInterval, NodeTimeout: c.NodeTimeout, Logger: logger,
		RestartGrace: c.RestartGrace, LogRetention: c.BusLogRetention,
	})
}
