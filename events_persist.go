package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/queue"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Event queues outlive a graceful restart: Close saves every queue (its register options,
// pending events and last ids) in the store, and New restores them and appends a restart event
// to each, so that clients keep their queue_id and last_event_id. The saved copies are removed
// once restored, so after a crash (no Close) clients get BAD_EVENT_QUEUE_ID and register again.
// Each process saves and restores the queues of its node (ids "NodeID:..."); with a Bus a
// saved queue also records the bus message after which its events end (see Bus).

// queueSaveTimeout bounds the store write of Close.
const queueSaveTimeout = 30 * time.Second

// RestartEvent is sent to every restored queue after a restart of the server.
type RestartEvent struct {
	Type              string `json:"type"`
	ZulipVersion      string `json:"zulip_version"`
	ZulipMergeBase    string `json:"zulip_merge_base"`
	ZulipFeatureLevel int    `json:"zulip_feature_level"`
	ServerGeneration  int64  `json:"server_generation"`
}

// savedQueueState is the JSON form of one queue in the store.
type savedQueueState struct {
	EventTypes   []string          `json:"event_types"`
	IdleTimeout  time.Duration     `json:"idle_timeout_ns"`
	Options      savedQueueOptions `json:"options"`
	Events       []savedEvent      `json:"events"`
	NextID       int64             `json:"next_id"`
	NewestPruned int64             `json:"newest_pruned"`
	LastActive   time.Time         `json:"last_active"`
	// BusAfter, with a Bus, is the id of the last bus message the queue holds (or its state
	// included): the restarted process delivers it the messages after.
	BusAfter uint64 `json:"bus_after,omitempty"`
}

type savedQueueOptions struct {
	ApplyMarkdown    bool               `json:"apply_markdown"`
	ClientGravatar   bool               `json:"client_gravatar"`
	AllPublicStreams bool               `json:"all_public_streams"`
	Narrow           [][]string         `json:"narrow"`
	Terms            []messages.Term    `json:"narrow_terms,omitempty"`
	Capabilities     ClientCapabilities `json:"client_capabilities"`
}

type savedEvent struct {
	ID      int64           `json:"id"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

func (o queueOptions) saved() savedQueueOptions {
	return savedQueueOptions{o.ApplyMarkdown, o.ClientGravatar, o.allPublicStreams, o.narrow, o.Terms, o.Capabilities}
}

func (o savedQueueOptions) options() queueOptions {
	return queueOptions{
		Options:          clients.Options{ApplyMarkdown: o.ApplyMarkdown, ClientGravatar: o.ClientGravatar, Terms: o.Terms, Capabilities: o.Capabilities},
		allPublicStreams: o.AllPublicStreams, narrow: o.Narrow,
	}
}

// encodeQueue serialises a queue's state; busPos is the last bus message delivered.
func encodeQueue(q queue.Saved, busPos uint64) (storage.SavedQueue, error) {
	opts, _ := q.Data.(queueOptions)
	st := savedQueueState{
		EventTypes: q.EventTypes, IdleTimeout: q.IdleTimeout, Options: opts.saved(),
		Events: make([]savedEvent, len(q.Events)), NextID: q.NextID, NewestPruned: q.NewestPruned,
		LastActive: q.LastActive, BusAfter: busPos,
	}
	if opts.cut != nil {
		st.BusAfter = max(st.BusAfter, opts.cut.after)
	}
	for i, e := range q.Events {
		payload, err := json.Marshal(e.Payload)
		if err != nil {
			return storage.SavedQueue{}, fmt.Errorf("queue %s event %d: %w", q.ID, e.ID, err)
		}
		st.Events[i] = savedEvent{ID: e.ID, Type: e.Type, Payload: payload}
	}
	state, err := json.Marshal(st)
	if err != nil {
		return storage.SavedQueue{}, err
	}
	return storage.SavedQueue{ID: q.ID, Owner: users.ID(q.Owner), State: state}, nil
}

// decodeQueue reads a saved queue back; payloads stay raw JSON.
func decodeQueue(sq storage.SavedQueue) (queue.Saved, error) {
	var st savedQueueState
	if err := json.Unmarshal(sq.State, &st); err != nil {
		return queue.Saved{}, fmt.Errorf("queue %s: %w", sq.ID, err)
	}
	opts := st.Options.options()
	if st.BusAfter > 0 {
		opts.cut = &busCut{after: st.BusAfter}
	}
	q := queue.Saved{
		ID: sq.ID, Owner: int64(sq.Owner), EventTypes: st.EventTypes, IdleTimeout: st.IdleTimeout,
		Data: opts, Events: make([]queue.Event, len(st.Events)), NextID: st.NextID,
		NewestPruned: st.NewestPruned, LastActive: st.LastActive,
	}
	for i, e := range st.Events {
		var payload any
		if len(e.Payload) > 0 && string(e.Payload) != "null" {
			payload = e.Payload
		}
		q.Events[i] = queue.Event{ID: e.ID, Type: e.Type, Payload: payload}
	}
	return q, nil
}

// restoreQueues loads the queues of this node saved by the last Close, restores them with a
// restart event and removes the saved copies. Unreadable entries are logged and dropped. With a
// Bus it returns the id after which the bus must deliver: the smallest a restored queue needs,
// or, without restored queues, the current position.
func (s *Service) restoreQueues(ctx context.Context) (after uint64, err error) {
	prefix := nodePrefix(s.opts.NodeID)
	var saved []storage.SavedQueue
	err = s.store.View(ctx, func(tx storage.ReadTx) (err error) {
		if saved, err = tx.Queues().List(prefix); err != nil || s.bus == nil {
			return err
		}
		after, err = s.bus.Position(tx)
		return err
	})
	if err != nil || len(saved) == 0 {
		return after, err
	}
	restored := make([]queue.Saved, 0, len(saved))
	for _, sq := range saved {
		q, err := decodeQueue(sq)
		if err != nil {
			s.log.Warn("dropping unreadable saved event queue", "queue_id", sq.ID, "err", err)
			continue
		}
		if o, _ := q.Data.(queueOptions); o.watchesPublicChannels() {
			s.watchers.add(q.Owner)
		}
		if o, _ := q.Data.(queueOptions); o.cut == nil {
			after = 0
		} else {
			after = min(after, o.cut.after)
		}
		restored = append(restored, q)
	}
	if err := s.store.Update(ctx, func(tx storage.Tx) error { return tx.Queues().ReplaceAll(prefix, nil) }); err != nil {
		return 0, err
	}
	s.queues.Restore(restored, "restart", RestartEvent{
		Type: "restart", ZulipVersion: ServiceVersion, ZulipMergeBase: "",
		ZulipFeatureLevel: FeatureLevel, ServerGeneration: s.now().Unix(),
	})
	s.log.Info("restored event queues", "count", len(restored), "bus_after", after)
	return after, nil
}

// saveQueues persists every live queue of this node. It runs inside the engine's Close.
func (s *Service) saveQueues() error {
	snap := s.queues.Snapshot()
	saved := make([]storage.SavedQueue, 0, len(snap))
	for _, q := range snap {
		sq, err := encodeQueue(q, s.busPos)
		if err != nil {
			s.log.Warn("not saving event queue", "queue_id", q.ID, "err", err)
			continue
		}
		saved = append(saved, sq)
	}
	ctx, cancel := context.WithTimeout(context.Background(), queueSaveTimeout)
	defer cancel()
	prefix := nodePrefix(s.opts.NodeID)
	if err := s.store.Update(ctx, func(tx storage.Tx) error { return tx.Queues().ReplaceAll(prefix, saved) }); err != nil {
		return fmt.Errorf("chat: saving event queues: %w", err)
	}
	return nil
}

// adaptForQueue is the queue manager's per-queue filter: the event's form for the queue, shared
// with the other queues of the publication that take the same form (events_forms.go).
func adaptForQueue(queueID string, data any, _ string, payload any, forms *queue.Forms) (any, bool) {
	if fs, ok := payload.(formSharer); ok {
		// Most queues take a form another queue already made: find it without building it.
		o, _ := data.(queueOptions)
		o.QueueID = queueID
		deliver, shared := fs.SharesForm(o.Options)
		if !deliver {
			return nil, false
		}
		if f, ok := forms.Get(o.formKey()); ok && shared {
			return f, true
		}
	}
	v, ok := adaptPayload(queueID, data, payload)
	if !ok || v == nil {
		return v, ok
	}
	return shareForm(data, v, forms), true
}

// adaptPayload is the event's form for one queue, or false when the queue must not get it.
func adaptPayload(queueID string, data any, payload any) (any, bool) {
	o, _ := data.(queueOptions)
	o.QueueID = queueID
	if b, ok := payload.(busPayload); ok {
		return b.forQueue(o)
	}
	if pc, ok := payload.(conversations.PublicChannelMessage); ok {
		return publicForQueue(pc, o)
	}
	if g, ok := payload.(clients.Gated); ok {
		if o.Capabilities.Has(g.Capability) != g.Declared {
			return nil, false
		}
		payload = g.Payload
	}
	a, ok := payload.(clients.Adapter)
	if !ok {
		return payload, true
	}
	return a.ForClient(o.Options)
}
