package sqlstore

import (
	"database/sql"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// FollowersOf reads the cached list of followed rows (cache.go).
func (a userTopicTx) FollowersOf(c channels.ID, topic string) ([]users.ID, error) {
	all, _, err := sharedList(a.t, userTopicsTable, &a.t.cache.followed, func() ([]followedTopic, error) {
		return scanAll(a.t, func(r *sql.Rows) (followedTopic, error) {
			var x followedTopic
			err := r.Scan(&x.user, &x.channel, &x.key)
			return x, err
		}, "SELECT user_id, channel_id, topic_key FROM user_topics WHERE policy = ? ORDER BY user_id", int(topics.PolicyFollowed))
	})
	if err != nil {
		return nil, err
	}
	key := topics.Key(topic)
	out := []users.ID{}
	for _, x := range all {
		if x.channel == c && x.key == key {
			out = append(out, x.user)
		}
	}
	return out, nil
}

// followedTopic is one followed row of user_topics, as the cached list keeps it.
type followedTopic struct {
	user    users.ID
	channel channels.ID
	key     string
}
