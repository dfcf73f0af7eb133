package chat

import (
	"context"

	"github.com/teamchat/chat/queue"
)

// EventsWait is a long-poll that GetEventsAsync left waiting on its queue; the zero
// EventsWait is none.
type EventsWait struct{ w queue.Wait }

// Waiting reports whether the long-poll waits (GetEventsAsync did not answer it at once).
func (w EventsWait) Waiting() bool { return w.w.Waiting() }

// GetEventsAsync is GetEvents for a caller that does not block a goroutine on the wait (a
// parked HTTP connection, whose responses a publication then writes in one batch). When
// GetEvents would answer at once, it returns that answer and a zero EventsWait. When it would
// wait, the long-poll is attached to its queue as GetEvents attaches it, and ready is called
// once the wait ends (events, the heartbeat, a newer long-poll, the queue deleted, the
// Service closing): it runs under the queues' lock, so it must not block or call the
// Service. EventsResult then returns GetEvents' answer. ctx governs only an answer given at
// once: a wait, once attached, ends by the causes above, not with ctx.
func (s *Service) GetEventsAsync(ctx context.Context, actor Actor, p GetEventsParams, ready func()) (GetEventsResult, EventsWait, error) {
	if actor.Anonymous() || p.QueueID == "" || p.LastEventID == nil || p.DontBlock {
		res, err := s.GetEvents(ctx, actor, p) // does not wait
		return res, EventsWait{}, err
	}
	got, w, err := s.queues.GetAsync(queue.GetParams{
		QueueID: p.QueueID, Owner: int64(actor.UserID), LastEventID: *p.LastEventID, Waited: p.Waited,
	}, ready)
	if w.Waiting() {
		return GetEventsResult{}, EventsWait{w}, nil
	}
	res, err := s.eventsResult(got, err, p.QueueID)
	return res, EventsWait{}, err
}

// EventsResult returns GetEvents' answer to a long-poll whose wait ended (GetEventsAsync's
// ready was called); queueID is its GetEventsParams.QueueID. Call it once per EventsWait.
func (s *Service) EventsResult(w EventsWait, queueID string) (GetEventsResult, error) {
	got, err := s.queues.Result(w.w)
	return s.eventsResult(got, err, queueID)
}
