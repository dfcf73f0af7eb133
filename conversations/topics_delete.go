package conversations

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// DeleteTopicParams are the parameters of POST /streams/{stream_id}/delete_topic.
type DeleteTopicParams struct {
	StreamID  channels.ID
	TopicName string
}

// DeleteTopicResult says whether every message of the topic is gone; when false the client
// repeats the request.
type DeleteTopicResult struct {
	Complete bool `json:"complete"`
}

// DeleteMessageEvent is a delete_message event. Clients with the bulk_message_deletion
// capability get one event per batch with MessageIDs; the others one event per message with
// MessageID (the Service records both forms, and each queue keeps the one for its client).
type DeleteMessageEvent struct {
	Type        string        `json:"type"`
	MessageType string        `json:"message_type"`
	MessageIDs  []messages.ID `json:"message_ids,omitempty"`
	MessageID   messages.ID   `json:"message_id,omitempty"`
	StreamID    channels.ID   `json:"stream_id,omitempty"`
	Topic       *string       `json:"topic,omitempty"`

	bulk            bool
	topic           string
	emptyTopicLabel string
}

// ForClient keeps the form of the event the queue's client understands.
func (e DeleteMessageEvent) ForClient(o clients.Options) (any, bool) {
	if e.bulk != o.Capabilities.BulkMessageDeletion {
		return nil, false
	}
	if e.MessageType == "stream" {
		t := topics.Display(e.topic, e.emptyTopicLabel, o.Capabilities.EmptyTopicName)
		e.Topic = &t
	}
	return e, true
}

// DeleteTopic deletes the messages of a topic in batches, newest first, each batch in its own
// transaction, until none remain (Complete) or Options.TopicDeleteBudget is spent (not
// Complete: the client repeats the request). Only administrators may; only messages the
// administrator may read are deleted. When the topic is gone, users' visibility policies for
// it are removed.
func (s *Service) DeleteTopic(ctx context.Context, actor engine.Actor, p DeleteTopicParams) (DeleteTopicResult, error) {
	plan := topics.DeletePlan{BatchSize: s.cfg.TopicDeleteBatchSize, Budget: s.cfg.TopicDeleteBudget}.WithDefaults()
	start := s.now()
	for round := 0; ; round++ {
		if !plan.Continue(start, s.now(), round) {
			return DeleteTopicResult{Complete: false}, nil
		}
		var done bool
		err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
			var err error
			done, err = s.deleteTopicBatch(o, p, plan.BatchSize)
			return err
		})
		if err != nil {
			return DeleteTopicResult{}, err
		}
		if done {
			return DeleteTopicResult{Complete: true}, nil
		}
	}
}

// deleteTopicBatch deletes the newest batch of the topic's messages; done is true when none
// were left (the users' policies for the topic are then removed).
func (s *Service) deleteTopicBatch(o *engine.WriteOp, p DeleteTopicParams, size int) (done bool, err error) {
	tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
	c, ok := w.Channel(p.StreamID)
	if !ok || !w.Content(c, me) {
		return false, ErrInvalidChannelID
	}
	topic, err := topics.CleanOperand(p.TopicName, w.Org().EmptyTopicDisplayName)
	if err != nil {
		return false, engine.InvalidArgument("topic_name", err.Error())
	}
	fullHistory := !c.InviteOnly || c.HistoryPublicToSubscribers
	all, err := tx.Messages().TopicMessageIDs(c.ID, topic, 0)
	if err != nil {
		return false, err
	}
	var ids []messages.ID // the newest size messages of the topic the administrator may delete
	if fullHistory {
		ids = all[:min(size, len(all))]
	} else {
		// Without the whole history, only the administrator's own messages of the topic count.
		rows, err := tx.Messages().UserRows(me.ID, all)
		if err != nil {
			return false, err
		}
		for i := len(rows) - 1; i >= 0 && len(ids) < size; i-- {
			ids = append(ids, rows[i].MessageID)
		}
	}
	if len(ids) == 0 {
		return true, s.clearTopicPolicies(tx, ev, w, c, topic)
	}
	return false, s.DeleteMessages(tx, ev, w, me, ids)
}

// DeleteMessages deletes messages and records delete_message events (one per conversation,
// to the users who received the messages and still have access, and the actor), preceded by a
// stream update to everyone who can see the channel when its oldest message changes.
func (s *Service) DeleteMessages(tx storage.Tx, ev *engine.Events, w *world.World, me users.User, ids []messages.ID) error {
	msgs, err := tx.Messages().GetMany(ids)
	if err != nil {
		return err
	}
	rows, err := tx.Messages().Rows(ids)
	if err != nil {
		return err
	}
	chans := map[channels.ID]bool{}
	for _, m := range msgs {
		if !m.IsDirect() {
			chans[m.ChannelID] = true
		}
	}
	chanIDs := make([]channels.ID, 0, len(chans))
	for c := range chans {
		chanIDs = append(chanIDs, c)
	}
	slices.Sort(chanIDs)
	before, err := tx.Messages().Activity(chanIDs, 0, 0)
	if err != nil {
		return err
	}
	wasActive := activeStates(w, chanIDs)
	orphaned, err := s.files.ReleaseAttachments(tx, ev, ids)
	if err != nil {
		return err
	}
	if len(orphaned) > 0 {
		ev.AfterCommit(func() {
			for _, a := range orphaned {
				s.files.DeleteAttachmentBlobs(context.Background(), a)
			}
		})
	}
	if err := tx.Messages().Delete(ids); err != nil {
		return err
	}
	after, err := tx.Messages().Activity(chanIDs, 0, 0)
	if err != nil {
		return err
	}
	// Group the messages by conversation: channel and topic, or direct participants.
	type group struct {
		m   messages.Message
		ids []messages.ID
		to  map[users.ID]bool
	}
	var order []string
	groups := map[string]*group{}
	received := map[messages.ID][]users.ID{}
	for _, r := range rows {
		received[r.MessageID] = append(received[r.MessageID], r.UserID)
	}
	for _, m := range msgs {
		key := "dm:" + userIDsString(m.Recipients)
		if !m.IsDirect() {
			key = "c:" + strconv.FormatInt(int64(m.ChannelID), 10) + ":" + topics.Key(m.Topic)
		}
		g, ok := groups[key]
		if !ok {
			g = &group{m: m, to: map[users.ID]bool{}}
			groups[key] = g
			order = append(order, key)
		}
		g.ids = append(g.ids, m.ID)
		for _, u := range received[m.ID] {
			if mayStillSee(w, m, w.User(u)) {
				g.to[u] = true
			}
		}
		if w.CanRead(me, m, slices.Contains(received[m.ID], me.ID)) {
			g.to[me.ID] = true
		}
	}
	addFirstMessageEvents(w, ev, chanIDs, before, after)
	refreshActivity(w, ev, chanIDs, wasActive)
	for _, key := range order {
		g := groups[key]
		slices.Sort(g.ids)
		conv := messages.Message{ChannelID: g.m.ChannelID, Topic: strings.ToLower(g.m.Topic)}
		addDeleteEvents(w, ev, conv, g.ids, appendIDs(nil, g.to))
	}
	return nil
}

// StreamFirstMessageEvent is the stream update event of a changed first_message_id (Value null
// when the channel has no messages left).
type StreamFirstMessageEvent struct {
	Type     string       `json:"type"`
	Op       string       `json:"op"`
	StreamID channels.ID  `json:"stream_id"`
	Name     string       `json:"name"`
	Property string       `json:"property"`
	Value    *messages.ID `json:"value"`
}

func streamFirstMessageEvent(c channels.Channel, value *messages.ID) StreamFirstMessageEvent {
	return StreamFirstMessageEvent{Type: "stream", Op: "update", StreamID: c.ID, Name: c.Name, Property: "first_message_id", Value: value}
}

// mayStillSee reports whether u, who received m, still has access to it: an active user, and
// for channel messages an active subscriber.
func mayStillSee(w *world.World, m messages.Message, u users.User) bool {
	if !u.IsActive {
		return false
	}
	return m.IsDirect() || w.IsSubscribed(m.ChannelID, u.ID)
}

func appendIDs(to []int64, set map[users.ID]bool) []int64 {
	for u := range set {
		to = append(to, int64(u))
	}
	return dedupe(to)
}

func dedupe(l []int64) []int64 {
	slices.Sort(l)
	return slices.Compact(l)
}

// clearTopicPolicies removes every user's policy for a topic that no longer has messages.
func (s *Service) clearTopicPolicies(tx storage.Tx, ev *engine.Events, w *world.World, c channels.Channel, topic string) error {
	rows, err := tx.UserTopics().ListForTopic(c.ID, topic)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := s.setUserTopic(tx, ev, w, r.UserID, c, r.Topic, topics.PolicyNone); err != nil {
			return err
		}
	}
	return nil
}
