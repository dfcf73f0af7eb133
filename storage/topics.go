package storage

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// UserTopicReader reads users' topic visibility policies.
type UserTopicReader interface {
	// ListForUser returns the user's rows, ascending by channel id then topic key.
	ListForUser(users.ID) ([]topics.UserTopic, error)
	// ListForTopic returns every user's row for one topic (compared case-insensitively),
	// ascending by user id.
	ListForTopic(c channels.ID, topic string) ([]topics.UserTopic, error)
	// FollowersOf returns the users who follow the topic (compared case-insensitively),
	// ascending. Every channel message asks (missed-message emails): the SQL store answers from
	// a cached list of the followed rows, with no statement of its own.
	FollowersOf(c channels.ID, topic string) ([]users.ID, error)
}

// UserTopicWriter reads and writes users' topic visibility policies.
type UserTopicWriter interface {
	UserTopicReader
	// Put creates or replaces the row of (UserID, ChannelID, topic key).
	Put(topics.UserTopic) error
	// Delete removes the row of one user's topic; no error when there is none.
	Delete(u users.ID, c channels.ID, topic string) error
}
