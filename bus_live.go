package chat

import (
	"context"
	"crypto/rand"
	"sync"
	"time"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Which users have a client connected, across the processes sharing a store through a Bus.
// Zulip sends a missed-message email only to a user who is off Zulip, one without any event
// queue (receiver_is_off_zulip); with several processes a user's queues may live in any of
// them. Each process therefore reports the owners of its queues to the store
// (storage.QueueWriter.ReportLive) every liveReportInterval, and at once when a user with no
// reported queue registers one (MarkLive); a user with a report newer than liveWindow from
// another process counts as online there (notify.Config.LiveNodes). A queue lives as long as
// Zulip's rule says (deleted, or idle past its timeout: 10 minutes by default), so its owner
// counts as online until the first report after its end; a process that dies without a
// word stops counting after liveWindow.
const (
	liveReportInterval = 30 * time.Second
	liveWindow         = 3 * liveReportInterval
)

// liveReports keeps this process's reports of live queue owners.
type liveReports struct {
	node string

	// mu serialises the reports, and guards reported: a report reads the queues' owners and
	// writes them under it, so that it cannot undo a registration's MarkLive that it did not
	// see.
	mu       sync.Mutex
	reported map[users.ID]bool // the owners of the last report, and those marked since
	stop     context.CancelFunc
	done     chan struct{}
}

// newLiveReports returns the reports of a process with a Bus (nil without one) under its
// NodeID, or under a random name when it has none.
func newLiveReports(opts Options) *liveReports {
	if opts.Bus == nil {
		return nil
	}
	node := opts.NodeID
	if node == "" {
		node = "process-" + rand.Text()
	}
	return &liveReports{node: node, reported: map[users.ID]bool{}}
}

// liveNode is the name this process reports its queues under ("" without a Bus).
func (s *Service) liveNode() string {
	if s.live == nil {
		return ""
	}
	return s.live.node
}

// markLive reports at once that u has a live queue here, unless u is reported already. A
// failure is logged: the next periodic report says it again.
func (s *Service) markLive(ctx context.Context, u users.ID) {
	l := s.live
	if l == nil || u <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.reported[u] {
		return
	}
	at := s.now().UnixMilli()
	err := s.store.Update(ctx, func(tx storage.Tx) error { return tx.Queues().MarkLive(l.node, u, at) })
	if err != nil {
		s.log.Warn("reporting a live event queue", "user", u, "err", err)
		return
	}
	l.reported[u] = true
}

// reportLive replaces this process's report with the owners of its queues now, or with none
// when closing.
func (s *Service) reportLive(ctx context.Context, closing bool) error {
	l := s.live
	l.mu.Lock()
	defer l.mu.Unlock()
	var owners []int64
	if !closing {
		owners = s.queues.Owners()
	}
	ids := make([]users.ID, len(owners))
	set := make(map[users.ID]bool, len(owners))
	for i, o := range owners {
		ids[i] = users.ID(o)
		set[ids[i]] = true
	}
	at := s.now().UnixMilli()
	if err := s.store.Update(ctx, func(tx storage.Tx) error { return tx.Queues().ReportLive(l.node, ids, at) }); err != nil {
		return err
	}
	l.reported = set
	return nil
}

// startLiveReports reports every liveReportInterval until stopLiveReports.
func (s *Service) startLiveReports() {
	l := s.live
	if l == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	l.stop, l.done = cancel, make(chan struct{})
	go func() {
		defer close(l.done)
		t := time.NewTicker(liveReportInterval)
		defer t.Stop()
		for {
			if err := s.reportLive(ctx, false); err != nil && ctx.Err() == nil {
				s.log.Warn("reporting live event queues", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// stopLiveReports stops the reports and, the queues being closed, reports none.
func (s *Service) stopLiveReports() {
	l := s.live
	if l == nil || l.stop == nil {
		return
	}
	l.stop()
	<-l.done
	ctx, cancel := context.WithTimeout(context.Background(), queueSaveTimeout)
	defer cancel()
	if err := s.reportLive(ctx, true); err != nil {
		s.log.Warn("reporting no live event queue at close", "err", err)
	}
}
