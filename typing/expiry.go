package typing

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
)

// typists holds the typing notifications started and not yet stopped, to stop them when their
// client does not renew them within TypingExpiry.
type typists struct {
	mu      sync.Mutex
	started map[string]startedTyping
}

// startedTyping is the event of a start and when it expires.
type startedTyping struct {
	event   engine.Pending
	expires time.Time
}

// note records a start (or forgets the conversation on a stop), after its commit.
func (t *typists) note(key, op string, n engine.Pending, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if op == "stop" {
		delete(t.started, key)
		return
	}
	if t.started == nil {
		t.started = map[string]startedTyping{}
	}
	t.started[key] = startedTyping{event: n, expires: now.Add(TypingExpiry)}
}

// due removes and returns the starts that expired at now, as their stop events.
func (t *typists) due(now time.Time) []engine.Pending {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []engine.Pending
	for key, st := range t.started {
		if now.Before(st.expires) {
			continue
		}
		delete(t.started, key)
		out = append(out, stopOf(st.event))
	}
	slices.SortFunc(out, func(a, b engine.Pending) int { return slices.Compare(a.Recipients, b.Recipients) })
	return out
}

// stopOf is the stop event that ends a start.
func stopOf(n engine.Pending) engine.Pending {
	switch e := n.Payload.(type) {
	case clients.Gated:
		e.Payload = stopOf(engine.Pending{Payload: e.Payload}).Payload
		n.Payload = e
	case TypingEvent:
		e.Op = "stop"
		n.Payload = e
	case TypingEditMessageEvent:
		e.Op = "stop"
		n.Payload = e
	}
	return n
}

// expire sends the stops of the typing notifications whose start expired.
func (s *Service) expire(ctx context.Context) error {
	stops := s.typing.due(s.now())
	if len(stops) == 0 {
		return nil
	}
	return s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		o.Ev.List = append(o.Ev.List[:0], stops...)
		return nil
	})
}

// janitor sends expired typing notifications' stops every interval until stop closes.
func (s *Service) janitor(interval time.Duration, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			if err := s.expire(context.Background()); err != nil {
				s.log.Warn("typing expiry", "err", err)
			}
		}
	}
}
