package memory

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// userTopicKey identifies a user's row for one topic.
type userTopicKey struct {
	user    users.ID
	channel channels.ID
	topic   string // topics.Key
}

// userTopicTx is the user-topics accessor; j is nil in a read-only transaction.
type userTopicTx struct {
	t *readTx
	j *journal
}

func sortUserTopics(l []topics.UserTopic) {
	slices.SortFunc(l, func(x, y topics.UserTopic) int {
		switch {
		case x.UserID != y.UserID:
			return int(x.UserID - y.UserID)
		case x.ChannelID != y.ChannelID:
			return int(x.ChannelID - y.ChannelID)
		case topics.Key(x.Topic) < topics.Key(y.Topic):
			return -1
		case topics.Key(x.Topic) > topics.Key(y.Topic):
			return 1
		}
		return 0
	})
}

func (a userTopicTx) ListForUser(u users.ID) ([]topics.UserTopic, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []topics.UserTopic{}
	for k, ut := range a.t.d.userTopics {
		if k.user == u {
			out = append(out, ut)
		}
	}
	sortUserTopics(out)
	return out, nil
}

func (a userTopicTx) ListForTopic(c channels.ID, topic string) ([]topics.UserTopic, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []topics.UserTopic{}
	for k, ut := range a.t.d.userTopics {
		if k.channel == c && k.topic == topics.Key(topic) {
			out = append(out, ut)
		}
	}
	sortUserTopics(out)
	return out, nil
}

func (a userTopicTx) FollowersOf(c channels.ID, topic string) ([]users.ID, error) {
	rows, err := a.ListForTopic(c, topic)
	if err != nil {
		return nil, err
	}
	out := []users.ID{}
	for _, ut := range rows {
		if ut.Policy == topics.PolicyFollowed {
			out = append(out, ut.UserID)
		}
	}
	return out, nil
}

func (a userTopicTx) Put(ut topics.UserTopic) error {
	if err := a.t.live(); err != nil {
		return err
	}
	setKey(a.j, a.t.d.userTopics, userTopicKey{ut.UserID, ut.ChannelID, topics.Key(ut.Topic)}, ut)
	return nil
}

func (a userTopicTx) Delete(u users.ID, c channels.ID, topic string) error {
	if err := a.t.live(); err != nil {
		return err
	}
	deleteKey(a.j, a.t.d.userTopics, userTopicKey{u, c, topics.Key(topic)})
	return nil
}
