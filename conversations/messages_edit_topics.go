package conversations

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// addDeleteEvents records delete_message events for messages of one conversation (like m) to
// the given users, in the bulk form and one per message.
func addDeleteEvents(w *world.World, ev *engine.Events, m messages.Message, ids []messages.ID, to []int64) {
	e := DeleteMessageEvent{Type: "delete_message", MessageType: "private", emptyTopicLabel: w.Org().EmptyTopicDisplayName}
	if !m.IsDirect() {
		e.MessageType, e.StreamID, e.topic = "stream", m.ChannelID, m.Topic
	}
	bulk := e
	bulk.bulk, bulk.MessageIDs = true, ids
	ev.Emit(bulk, to)
	for _, id := range ids {
		one := e
		one.MessageID = id
		ev.Emit(one, to)
	}
}

// addFirstMessageEvents records a stream update of first_message_id for every channel whose
// oldest message changed between before and after (Activity of the same channels).
func addFirstMessageEvents(w *world.World, ev *engine.Events, chanIDs []channels.ID, before, after []storage.ChannelActivity) {
	for i, c := range chanIDs {
		if before[i].FirstMessageID == after[i].FirstMessageID {
			continue
		}
		ch, _ := w.Channel(c)
		var value *messages.ID
		if id := after[i].FirstMessageID; id != 0 {
			value = &id
		}
		ev.Emit(streamFirstMessageEvent(ch, value), w.Watchers(ch, nil))
	}
}

// moveUserTopics carries the users' visibility policies of a topic moved as a whole to its new
// place, merging with the target topic's policies as Zulip does (the most visible wins); users
// who lose access lose the policy.
func (s *Service) moveUserTopics(tx storage.Tx, ev *engine.Events, w *world.World, p editPlan, losingAccess []users.ID, targetHadMessages bool) error {
	origRows, err := tx.UserTopics().ListForTopic(p.orig.ID, p.m.Topic)
	if err != nil {
		return err
	}
	targetRows, err := tx.UserTopics().ListForTopic(p.target.ID, p.topic)
	if err != nil {
		return err
	}
	origPolicy := map[users.ID]topics.VisibilityPolicy{}
	targetPolicy := map[users.ID]topics.VisibilityPolicy{}
	var order []users.ID
	for _, r := range origRows {
		if p.streamEdited && slices.Contains(losingAccess, r.UserID) {
			if err := s.setUserTopic(tx, ev, w, r.UserID, p.orig, r.Topic, topics.PolicyNone); err != nil {
				return err
			}
			continue
		}
		origPolicy[r.UserID] = r.Policy
		order = append(order, r.UserID)
	}
	for _, r := range targetRows {
		targetPolicy[r.UserID] = r.Policy
		if _, ok := origPolicy[r.UserID]; !ok {
			order = append(order, r.UserID)
		}
	}
	slices.Sort(order)
	for _, u := range slices.Compact(order) {
		o, t := origPolicy[u], targetPolicy[u]
		if o != topics.PolicyNone {
			if err := s.setUserTopic(tx, ev, w, u, p.orig, p.m.Topic, topics.PolicyNone); err != nil {
				return err
			}
		}
		next := o
		if targetHadMessages {
			next = mergedPolicy(o, t)
		}
		if next == t {
			continue
		}
		if err := s.setUserTopic(tx, ev, w, u, p.target, p.topic, next); err != nil {
			return err
		}
	}
	return nil
}

// mergedPolicy is the policy of a user for two merged topics: the most visible of the two.
func mergedPolicy(a, b topics.VisibilityPolicy) topics.VisibilityPolicy {
	for _, p := range []topics.VisibilityPolicy{topics.PolicyFollowed, topics.PolicyUnmuted, topics.PolicyNone} {
		if a == p || b == p {
			return p
		}
	}
	return topics.PolicyMuted
}
