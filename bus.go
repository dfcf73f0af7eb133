package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/people"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
)

// Several processes on one store share events through a Bus (Options.Bus). Without one, the
// engine publishes each mutation's events to this process's queues after commit, in commit
// order (the in-process path, unchanged for the memory and SQLite stores).
//
// With a Bus the events take one road for every process, this one included:
//
//  1. Inside the writing transaction, once the mutation has succeeded, the Service encodes the
//     transaction's events (one message per transaction) and hands them to Bus.Publish with the
//     transaction. The bus records them in that transaction (PostgreSQL: a log row and a
//     NOTIFY), so that they exist when, and only if, the transaction commits. Message ids
//     increase in commit order.
//  2. Each process listens (Bus.Listen) and delivers every message to its own queues, in
//     commit order, remembering the id of the last one (busPos). Queue-ending (a deactivated
//     user's queues) travels in the same message.
//  3. Registration stays race-free across processes: the queue is created and the state read
//     while this process delivers nothing (inside the engine's Registration), and the
//     state's transaction reports the id of the last message it includes (Bus.Position); the
//     queue gets only the messages after it, so a commit is either in the state or in the
//     queue, never both or neither.
//  4. Listen delivers every message after a given id: first those already committed (from the
//     bus's log), then the others as they commit. So a lost listening connection costs no
//     event: the Service listens again from busPos (registrations are refused, 503, until it
//     has caught up). Only when the log no longer holds every message after busPos (it keeps
//     them for a retention period) are the local queues ended; their clients get
//     BAD_EVENT_QUEUE_ID and register again.
//  5. A graceful stop (Close) keeps the queues: inside the engine's Close, so that nothing is
//     delivered meanwhile, it saves every queue of this node (ids "NodeID:...") in the store
//     together with the id after which its events are missing: the larger of busPos and the queue's
//     registration position. Messages arriving after that are dropped. A Service started later with
//     the same NodeID restores the queues and listens from the smallest saved id, so the log
//     replays, in commit order, the messages committed while the process was down and those
//     committed before the save but not yet delivered; each queue skips the ids at or below its
//     own. Each message reaches each queue exactly once.
//
// Simpler designs fall short: saving only the queues loses the commits of the downtime; a
// snapshot of transaction ids (pg_current_snapshot) says which commits a state includes but
// not their order, so the restarted process could not replay them in commit order; handing
// the queues to another process needs a second delivery path. The bus's log with ids in
// commit order serves registration, reconnection and restart with one rule: "deliver the
// messages after id N".
//
// Payloads travel as JSON (the encoding of saved queues); a payload that depends on the
// client's register options (clients.Adapter) travels in each distinct form it takes over
// clients.Profile, and a message event with what a queue's narrow is matched against.

// Bus shares committed events between the processes on one store. Message ids are the bus's
// own; they increase in commit order (PostgreSQL: a sequence taken under a lock held until
// commit).
type Bus interface {
	// Publish records msg in the writing transaction tx so that every listener receives it
	// once tx commits, and never if it rolls back.
	Publish(tx storage.Tx, msg []byte) error
	// Position returns the id of the last message that the read transaction tx's snapshot
	// includes (0: none): it includes every message up to that id and none after.
	Position(tx storage.ReadTx) (uint64, error)
	// Listen delivers, in commit order, every message whose id is above after: first those
	// already committed, then each as it commits, until ctx ends or the connection is lost
	// (it then returns an error). Once caught up it calls ready(true, last), last being the id
	// of the last message it delivered (after, if none). When the messages after `after` are
	// no longer all available, it calls ready(false, last) before delivering anything, last
	// being the current position, and delivers the messages after it. ready and deliver are
	// called from the goroutine that called Listen.
	Listen(ctx context.Context, after uint64, ready func(complete bool, last uint64), deliver func(id uint64, msg []byte)) error
}

// busStartTimeout bounds how long New waits for the bus to listen.
const busStartTimeout = 30 * time.Second

// busMessage is the wire form of one transaction's events.
type busMessage struct {
	Events []busEvent `json:"e,omitempty"`
	// End lists users whose queues end (deactivated users), after the events.
	End []int64 `json:"end,omitempty"`
	// CredentialChanges is what the transaction invalidated of the credential caches
	// (credentialsChanged, sessionsSwept); every process drops it on delivery.
	engine.CredentialChanges
}

// busEvent is one event on the wire. Payload is the event for every queue, unless Adapted is
// set (a clients.Adapter payload): then a queue gets Forms[Variants[its options among Reads]], and
// nothing when its profile is missing. Narrow, for message events, carries what a queue's
// narrow is matched against. A presence event depends on one capability only: its Forms are
// the legacy and the simplified form, and ByPresence says a queue picks by
// simplified_presence_events (which the profiles leave out).
type busEvent struct {
	To       []int64           `json:"to"`
	Type     string            `json:"type"`
	Payload  json.RawMessage   `json:"p,omitempty"`
	Forms    []json.RawMessage `json:"f,omitempty"`
	Variants map[string]int    `json:"v,omitempty"`
	Adapted  bool              `json:"a,omitempty"`
	// Reads, for an adapted event, are the options its forms depend on: Variants are keyed by
	// the decimal value of a queue's options among them.
	Reads      clients.Reads `json:"r,omitempty"`
	ByPresence bool          `json:"s,omitempty"`
	Narrow     *busNarrow    `json:"n,omitempty"`
	// Local is the local echo of a message event: the queue that gets local_message_id.
	Local *busLocal `json:"l,omitempty"`
	// Gate, for a gated event, is the capability a queue must have declared (Declared) or
	// not.
	Gate     string `json:"g,omitempty"`
	Declared bool   `json:"d,omitempty"`
	// Public marks a public channel's message event for all_public_streams queues: To then
	// lists the users who must not get it (they got the ordinary event), and each process
	// delivers it to its own such queues.
	Public bool `json:"w,omitempty"`
}

// busLocal is a message event's sender queue and local id (MessageEvent.localID).
type busLocal struct {
	Queue   string `json:"q"`
	LocalID string `json:"i"`
}

// busNarrow is what conversations.MatchesQueueNarrow reads of a message: the message and the recipients'
// flags.
type busNarrow struct {
	Message messages.Message `json:"m"`
	Flags   messages.Flags   `json:"f"`
}

// encodeBusMessage encodes the events of one transaction.
func encodeBusMessage(list []engine.Pending, end []int64, creds engine.CredentialChanges) ([]byte, error) {
	m := busMessage{Events: make([]busEvent, len(list)), End: end, CredentialChanges: creds}
	for i, p := range list {
		e := busEvent{To: p.Recipients, Type: p.Type}
		if pc, ok := p.Payload.(conversations.PublicChannelMessage); ok {
			e.To, e.Public, p.Payload = pc.Except, true, pc.Event
		}
		if g, ok := p.Payload.(clients.Gated); ok {
			e.Gate, e.Declared = g.Capability, g.Declared
			p.Payload = g.Payload
		}
		if pc, ok := p.Payload.(people.PresenceChange); ok {
			legacy, err := json.Marshal(pc.Legacy)
			if err != nil {
				return nil, err
			}
			modern, err := json.Marshal(pc.Modern)
			if err != nil {
				return nil, err
			}
			e.Forms, e.ByPresence = []json.RawMessage{legacy, modern}, true
		} else if a, ok := p.Payload.(clients.Adapter); ok {
			e.Variants, e.Reads = map[string]int{}, clients.ReadsOf(a)
			seen := map[string]int{}
			for _, b := range clients.Subsets(e.Reads) {
				v, ok := a.ForClient(clients.Profile(b))
				if !ok {
					continue
				}
				raw, err := json.Marshal(v)
				if err != nil {
					return nil, fmt.Errorf("chat: encoding %s event: %w", p.Type, err)
				}
				idx, dup := seen[string(raw)]
				if !dup {
					idx = len(e.Forms)
					seen[string(raw)] = idx
					e.Forms = append(e.Forms, raw)
				}
				e.Variants[strconv.Itoa(int(b))] = idx
			}
			e.Adapted = true
		} else if p.Payload != nil {
			raw, err := json.Marshal(p.Payload)
			if err != nil {
				return nil, fmt.Errorf("chat: encoding %s event: %w", p.Type, err)
			}
			e.Payload = raw
		}
		if me, ok := p.Payload.(MessageEvent); ok {
			msg, flags := me.Matched()
			e.Narrow = &busNarrow{Message: msg, Flags: flags}
			if queue, localID := me.SenderEcho(); queue != "" {
				e.Local = &busLocal{Queue: queue, LocalID: localID}
			}
		}
		m.Events[i] = e
	}
	return json.Marshal(m)
}

// busPayload is a received event on its way into the queues; adaptForQueue unwraps it.
type busPayload struct {
	id uint64
	ev *busEvent
}

// forQueue returns the event's form for a queue with options o, or false when the queue must
// not get it (its state already includes the event, or the adapter drops it).
func (b busPayload) forQueue(o queueOptions) (any, bool) {
	if o.cut != nil && b.id <= o.cut.after {
		return nil, false
	}
	if n := b.ev.Narrow; n != nil && !conversations.MatchesQueueNarrow(o.Terms, n.Message, n.Flags) {
		return nil, false
	}
	if b.ev.Gate != "" && o.Capabilities.Has(b.ev.Gate) != b.ev.Declared {
		return nil, false
	}
	if b.ev.Public && !o.watchesPublicChannels() {
		return nil, false
	}
	if b.ev.ByPresence && len(b.ev.Forms) == 2 {
		if o.Capabilities.SimplifiedPresenceEvents {
			return b.ev.Forms[1], true
		}
		return b.ev.Forms[0], true
	}
	if !b.ev.Adapted {
		if len(b.ev.Payload) == 0 {
			return nil, true
		}
		return b.ev.Payload, true
	}
	i, ok := b.ev.Variants[strconv.Itoa(int(o.Reads()&b.ev.Reads))]
	if !ok || i < 0 || i >= len(b.ev.Forms) {
		return nil, false
	}
	if l := b.ev.Local; l != nil && l.Queue == o.QueueID {
		return withLocalMessageID(b.ev.Forms[i], l.LocalID)
	}
	return b.ev.Forms[i], true
}

// withLocalMessageID adds local_message_id to an encoded message event.
func withLocalMessageID(form json.RawMessage, localID string) (any, bool) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(form, &fields); err != nil {
		return form, true
	}
	id, err := json.Marshal(localID)
	if err != nil {
		return form, true
	}
	fields["local_message_id"] = id
	out, err := json.Marshal(fields)
	if err != nil {
		return form, true
	}
	return json.RawMessage(out), true
}

// busCut says which bus messages a queue's state already includes: those up to after. It is
// filled inside the engine's Registration, before any delivery can reach the queue; a restored
// queue gets the id after which its saved events end.
type busCut struct {
	after uint64
}

// publishInTx hands the transaction's events to the bus, inside the transaction (the engine's
// Config.PublishInTx, set when there is a bus).
func (s *Service) publishInTx(tx storage.Tx, ev *engine.Events) error {
	if len(ev.List) == 0 && len(ev.End) == 0 && ev.Creds.Empty() {
		return nil
	}
	msg, err := encodeBusMessage(ev.List, ev.End, ev.Creds)
	if err != nil {
		return err
	}
	return s.bus.Publish(tx, msg)
}

// deliver puts one received message into the local queues.
func (s *Service) deliver(id uint64, msg []byte) {
	var m busMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		// A message this process cannot read: its queues may lack events, so they end.
		s.log.Error("unreadable event bus message; ending event queues", "err", err)
		s.eng.Exclusive(func(bool) {
			s.busPos = id
			s.queues.DeleteAll()
			s.people.ResetCredentials(false) // it may have invalidated credentials
		})
		return
	}
	s.people.ApplyCredentialChanges(m.CredentialChanges)
	s.eng.Exclusive(func(closed bool) {
		if closed {
			return // after the queues were saved: a restarted process replays it
		}
		s.busPos = id
		for i := range m.Events {
			e := &m.Events[i]
			to := e.To
			if e.Public {
				to = s.watchers.without(e.To)
			}
			s.queues.Publish(to, e.Type, busPayload{id: id, ev: e})
		}
		for _, owner := range m.End {
			s.queues.DeleteOwner(owner)
		}
	})
}

// startBus starts listening after message id after and waits until the bus has caught up.
func (s *Service) startBus(after uint64) error {
	s.busPos = after
	ctx, cancel := context.WithCancel(context.Background())
	s.busStop = cancel
	s.busDone = make(chan struct{})
	first := make(chan error, 1)
	go s.runBus(ctx, first)
	timer := time.NewTimer(busStartTimeout)
	defer timer.Stop()
	select {
	case err := <-first:
		if err == nil {
			return nil
		}
		cancel()
		<-s.busDone
		return fmt.Errorf("chat: event bus: %w", err)
	case <-timer.C:
		cancel()
		<-s.busDone
		return errors.New("chat: event bus did not start listening")
	}
}

// runBus listens until ctx ends, again from the last delivered message after a lost
// connection.
func (s *Service) runBus(ctx context.Context, first chan<- error) {
	defer close(s.busDone)
	const maxBackoff = 5 * time.Second
	backoff := 100 * time.Millisecond
	for {
		var after uint64
		s.eng.Shared(func() { after = s.busPos })
		err := s.bus.Listen(ctx, after, func(complete bool, last uint64) {
			s.eng.Exclusive(func(bool) {
				s.busPos = last
				s.people.ResetCredentials(false) // listening: invalidations arrive again
				if !complete {
					s.log.Error("event bus messages missed (older than the bus keeps); event queues ended", "after", after)
					s.queues.DeleteAll()
				}
				s.busUp = true
			})
			backoff = 100 * time.Millisecond
			if first != nil {
				first <- nil
				first = nil
			}
		}, s.deliver)
		if ctx.Err() != nil {
			return
		}
		s.eng.Exclusive(func(bool) {
			s.busUp = false
			s.people.ResetCredentials(true) // invalidations from other processes no longer arrive
		})
		if first != nil {
			first <- err
			return
		}
		s.log.Error("event bus connection lost; listening again", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, maxBackoff)
	}
}

// stopBus stops listening and waits for the listener.
func (s *Service) stopBus() {
	if s.busStop != nil {
		s.busStop()
		<-s.busDone
	}
}

// errBusDown refuses registrations while the bus is not listening.
func errBusDown() *Error {
	return &Error{Code: CodeBadRequest, Status: http.StatusServiceUnavailable, Msg: "Event system temporarily unavailable; try again"}
}
