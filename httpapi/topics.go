package httpapi

import (
	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/topics"
)

// updateUserTopic serves POST /user_topics.
func (h *Handler) updateUserTopic(r *request) (any, error) {
	var (
		up  chat.UpdateUserTopicParams
		err error
	)
	id, err := r.params.requiredInt("stream_id")
	if err != nil {
		return nil, err
	}
	up.StreamID = channels.ID(id)
	if up.Topic, err = r.params.requiredStr("topic"); err != nil {
		return nil, err
	}
	policy, err := r.params.requiredInt("visibility_policy")
	if err != nil {
		return nil, err
	}
	up.VisibilityPolicy = topics.VisibilityPolicy(policy)
	return h.svc.UpdateUserTopic(r.ctx, r.actor, up)
}

// muteTopic serves the legacy PATCH /users/me/subscriptions/muted_topics.
func (h *Handler) muteTopic(r *request) (any, error) {
	var (
		mp  chat.MuteTopicParams
		err error
	)
	if id, err := r.params.integer("stream_id"); err != nil {
		return nil, err
	} else if id != nil {
		c := channels.ID(*id)
		mp.StreamID = &c
	}
	mp.Stream = r.params.optStr("stream")
	if mp.Topic, err = r.params.requiredStr("topic"); err != nil {
		return nil, err
	}
	if mp.Op, err = r.params.requiredStr("op"); err != nil {
		return nil, err
	}
	return h.svc.MuteTopic(r.ctx, r.actor, mp)
}

// deleteTopic serves POST /streams/{stream_id}/delete_topic.
func (h *Handler) deleteTopic(r *request) (any, error) {
	dp := chat.DeleteTopicParams{StreamID: pathID[channels.ID](r, "stream_id")}
	var err error
	if dp.TopicName, err = r.params.requiredStr("topic_name"); err != nil {
		return nil, err
	}
	return h.svc.DeleteTopic(r.ctx, r.actor, dp)
}
