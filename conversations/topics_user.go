package conversations

import (
	"context"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// UpdateUserTopicParams are the parameters of POST /user_topics.
type UpdateUserTopicParams struct {
	StreamID         channels.ID
	Topic            string
	VisibilityPolicy topics.VisibilityPolicy
}

// UserTopicEvent is a user_topic event: the user's new policy for one topic (0 when removed).
type UserTopicEvent struct {
	Type             string                  `json:"type"`
	StreamID         channels.ID             `json:"stream_id"`
	TopicName        string                  `json:"topic_name"`
	LastUpdated      int64                   `json:"last_updated"`
	VisibilityPolicy topics.VisibilityPolicy `json:"visibility_policy"`

	topic, emptyTopicLabel string
}

// ForClient shows the empty topic as its display name to clients that do not know it.
func (e UserTopicEvent) ForClient(o clients.Options) (any, bool) {
	e.TopicName = topics.Display(e.topic, e.emptyTopicLabel, o.Capabilities.EmptyTopicName)
	return e, true
}

// MutedTopicsEvent is the legacy muted_topics event: every muted topic of the user as
// [channel name, topic, last updated].
type MutedTopicsEvent struct {
	Type        string  `json:"type"`
	MutedTopics [][]any `json:"muted_topics"`
}

// ErrInvalidChannelID is the error of a channel id the actor may not reach (the other areas'
// operations on channels answer it too).
var ErrInvalidChannelID = &engine.Error{Code: engine.CodeBadRequest, Msg: "Invalid channel ID"}

// UpdateUserTopicResult is UpdateUserTopic's answer: nothing beyond success.
type UpdateUserTopicResult struct{}

// UpdateUserTopic sets the actor's visibility policy for a topic (0 removes it). The topic
// need not have messages. Setting the current policy changes nothing and sends no event.
func (s *Service) UpdateUserTopic(ctx context.Context, actor engine.Actor, p UpdateUserTopicParams) (UpdateUserTopicResult, error) {
	if !p.VisibilityPolicy.Valid() {
		return UpdateUserTopicResult{}, engine.BadRequest("Invalid visibility_policy")
	}
	return UpdateUserTopicResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		topic, err := topics.Clean(p.Topic, w.Org().EmptyTopicDisplayName)
		if err == nil {
			err = topics.CheckLength(topic)
		}
		if err != nil {
			return engine.RuleError(err)
		}
		c, ok := w.Channel(p.StreamID)
		if !ok || p.VisibilityPolicy != topics.PolicyNone && !w.Content(c, me) {
			return ErrInvalidChannelID
		}
		return s.setUserTopic(tx, ev, w, me.ID, c, topic, p.VisibilityPolicy)
	})
}

// setUserTopic stores a policy change and records its events when something changed.
func (s *Service) setUserTopic(tx storage.Tx, ev *engine.Events, w *world.World, user users.ID, c channels.Channel, topic string, policy topics.VisibilityPolicy) error {
	rows, err := tx.UserTopics().ListForUser(user)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(rows, func(r topics.UserTopic) bool { return r.ChannelID == c.ID && topics.Same(r.Topic, topic) })
	var current topics.VisibilityPolicy
	if i >= 0 {
		current = rows[i].Policy
	}
	if current == policy {
		return nil
	}
	now := w.UnixNow() // the operation's time, at which the world was read
	if policy == topics.PolicyNone {
		err = tx.UserTopics().Delete(user, c.ID, topic)
		rows = slices.Delete(rows, i, i+1)
	} else {
		ut := topics.UserTopic{UserID: user, ChannelID: c.ID, Topic: topic, Policy: policy, LastUpdated: now}
		err = tx.UserTopics().Put(ut)
		if i >= 0 {
			rows[i] = ut
		} else {
			rows = append(rows, ut)
		}
	}
	if err != nil {
		return err
	}
	to := []int64{int64(user)}
	ev.Emit(MutedTopicsEvent{Type: "muted_topics", MutedTopics: mutedTopics(w, rows)}, to)
	ev.Emit(UserTopicEvent{
		Type: "user_topic", StreamID: c.ID, TopicName: topic, LastUpdated: now, VisibilityPolicy: policy,
		topic: topic, emptyTopicLabel: w.Org().EmptyTopicDisplayName,
	}, to)
	return nil
}

// mutedTopics is the legacy list of muted topics: [channel name, topic, last updated].
func mutedTopics(w *world.World, rows []topics.UserTopic) [][]any {
	out := [][]any{}
	for _, r := range rows {
		if r.Policy != topics.PolicyMuted {
			continue
		}
		c, ok := w.Channel(r.ChannelID)
		if !ok {
			continue
		}
		out = append(out, []any{c.Name, topics.Display(r.Topic, w.Org().EmptyTopicDisplayName, false), r.LastUpdated})
	}
	return out
}

// MuteTopicParams are the parameters of the legacy PATCH /users/me/subscriptions/muted_topics:
// the channel by id or name, the topic, and op add or remove.
type MuteTopicParams struct {
	StreamID *channels.ID
	Stream   *string
	Topic    string
	Op       string
}

// MuteTopicResult is MuteTopic's answer: nothing beyond success.
type MuteTopicResult struct{}

// MuteTopic is the legacy form of UpdateUserTopic: add mutes the topic, remove unmutes it.
func (s *Service) MuteTopic(ctx context.Context, actor engine.Actor, p MuteTopicParams) (MuteTopicResult, error) {
	switch {
	case p.StreamID != nil && p.Stream != nil:
		return MuteTopicResult{}, engine.BadRequest("Unsupported parameter combination: stream_id, stream").With("parameters", "stream_id, stream")
	case p.StreamID == nil && p.Stream == nil:
		return MuteTopicResult{}, engine.BadRequest("Missing 'stream_id' argument")
	}
	if p.Op != "add" && p.Op != "remove" {
		return MuteTopicResult{}, engine.InvalidArgument("op", "")
	}
	return MuteTopicResult{}, s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		var c channels.Channel
		ok := false
		if p.StreamID != nil {
			c, ok = w.Channel(*p.StreamID)
		} else {
			c, ok = w.ChannelByName(*p.Stream)
		}
		if !ok || !w.Content(c, me) {
			return ErrInvalidChannelID
		}
		topic, err := topics.Clean(p.Topic, w.Org().EmptyTopicDisplayName)
		if err == nil {
			err = topics.CheckLength(topic)
		}
		if err != nil {
			return engine.RuleError(err)
		}
		rows, err := tx.UserTopics().ListForUser(me.ID)
		if err != nil {
			return err
		}
		muted := slices.ContainsFunc(rows, func(r topics.UserTopic) bool {
			return r.ChannelID == c.ID && topics.Same(r.Topic, topic) && r.Policy == topics.PolicyMuted
		})
		if p.Op == "add" {
			if muted {
				return engine.BadRequest("Topic already muted")
			}
			return s.setUserTopic(tx, ev, w, me.ID, c, topic, topics.PolicyMuted)
		}
		if !muted {
			return engine.BadRequest("Topic is not muted")
		}
		return s.setUserTopic(tx, ev, w, me.ID, c, topic, topics.PolicyNone)
	})
}
