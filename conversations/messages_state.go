package conversations

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// MaxUnreadMessages bounds register's unread_msgs.
const MaxUnreadMessages = 50000

// MessagesState is register's message state: max_message_id (fetch type message),
// unread_msgs (message and update_message_flags), starred_messages, recent_private_conversations
// and user_topics.
type MessagesState struct {
	MaxMessageID               *int64                       `json:"max_message_id,omitempty"`
	UnreadMsgs                 *UnreadMsgs                  `json:"unread_msgs,omitempty"`
	StarredMessages            *[]messages.ID               `json:"starred_messages,omitempty"`
	RecentPrivateConversations *[]RecentPrivateConversation `json:"recent_private_conversations,omitempty"`
	UserTopics                 *[]UserTopicRecord           `json:"user_topics,omitempty"`
	MutedTopics                *[][]any                     `json:"muted_topics,omitempty"`
}

// UnreadMsgs is register's unread_msgs.
type UnreadMsgs struct {
	Count             int            `json:"count"`
	PMs               []UnreadDirect `json:"pms"`
	Streams           []UnreadStream `json:"streams"`
	Huddles           []UnreadHuddle `json:"huddles"`
	Mentions          []messages.ID  `json:"mentions"`
	OldUnreadsMissing bool           `json:"old_unreads_missing"`
}

// UnreadDirect lists the unread one-to-one direct messages with one other user (or oneself).
type UnreadDirect struct {
	OtherUserID      users.ID      `json:"other_user_id"`
	SenderID         users.ID      `json:"sender_id"`
	UnreadMessageIDs []messages.ID `json:"unread_message_ids"`
}

// UnreadStream lists the unread messages of one topic.
type UnreadStream struct {
	StreamID         channels.ID   `json:"stream_id"`
	Topic            string        `json:"topic"`
	UnreadMessageIDs []messages.ID `json:"unread_message_ids"`
}

// UnreadHuddle lists the unread messages of one group direct conversation.
type UnreadHuddle struct {
	UserIDsString    string        `json:"user_ids_string"`
	UnreadMessageIDs []messages.ID `json:"unread_message_ids"`
}

// RecentPrivateConversation is one direct-message conversation of the user: the other
// participants (empty for messages to oneself) and its newest message.
type RecentPrivateConversation struct {
	MaxMessageID messages.ID `json:"max_message_id"`
	UserIDs      []users.ID  `json:"user_ids"`
}

// UserTopicRecord is one of the user's topic visibility policies.
type UserTopicRecord struct {
	StreamID         channels.ID             `json:"stream_id"`
	TopicName        string                  `json:"topic_name"`
	LastUpdated      int64                   `json:"last_updated"`
	VisibilityPolicy topics.VisibilityPolicy `json:"visibility_policy"`
}

// MessagesInitialState is register's message sections for viewer (nil when p fetches none).
func MessagesInitialState(tx storage.ReadTx, getWorld func() (*world.World, error), viewer users.User, p clients.Register) (*MessagesState, error) {
	if viewer.ID == 0 {
		return nil, nil
	}
	want := func(kind string) bool { return p.Fetches(kind) }
	if !want("message") && !want("update_message_flags") && !want("starred_messages") &&
		!want("recent_private_conversations") && !want("user_topic") && !want("muted_topics") {
		return nil, nil
	}
	w, err := getWorld()
	if err != nil {
		return nil, err
	}
	st := &MessagesState{}
	if err := messageSectionsState(tx, w, viewer, p, st); err != nil {
		return nil, err
	}
	if err := userTopicsState(tx, w, viewer, p, st); err != nil {
		return nil, err
	}
	return st, nil
}

// messageSectionsState fills the sections about the viewer's messages: max_message_id, the
// unread messages (with update_message_flags), the starred messages and the recent direct
// conversations.
func messageSectionsState(tx storage.ReadTx, w *world.World, viewer users.User, p clients.Register, st *MessagesState) error {
	var err error
	if p.Fetches("message") {
		id, err := people.MaxMessageID(tx.Messages(), viewer.ID)
		if err != nil {
			return err
		}
		st.MaxMessageID = &id
	}
	if p.Fetches("message") && p.Fetches("update_message_flags") {
		label, knowsEmpty := w.Org().EmptyTopicDisplayName, p.ClientCapabilities.EmptyTopicName
		if st.UnreadMsgs, err = unreadMsgs(w, tx.Messages(), viewer, label, knowsEmpty); err != nil {
			return err
		}
	}
	if p.Fetches("starred_messages") {
		rows, err := tx.Messages().UserRowsWhere(viewer.ID, messages.FlagStarred, 0)
		if err != nil {
			return err
		}
		ids := make([]messages.ID, len(rows))
		for i, r := range rows {
			ids[i] = r.MessageID
		}
		st.StarredMessages = &ids
	}
	if p.Fetches("recent_private_conversations") {
		l, err := recentConversations(tx.Messages(), viewer.ID)
		if err != nil {
			return err
		}
		st.RecentPrivateConversations = &l
	}
	return nil
}

// userTopicsState fills the sections of the viewer's topic visibility policies: user_topic
// (of the channels the viewer may see) and the legacy muted_topics.
func userTopicsState(tx storage.ReadTx, w *world.World, viewer users.User, p clients.Register, st *MessagesState) error {
	if !p.Fetches("user_topic") && !p.Fetches("muted_topics") {
		return nil
	}
	rows, err := tx.UserTopics().ListForUser(viewer.ID) // one read for both sections
	if err != nil {
		return err
	}
	if p.Fetches("user_topic") {
		label, knowsEmpty := w.Org().EmptyTopicDisplayName, p.ClientCapabilities.EmptyTopicName
		l := []UserTopicRecord{}
		for _, r := range rows {
			c, ok := w.Channel(r.ChannelID)
			if !ok || !w.Metadata(c, viewer) {
				continue
			}
			l = append(l, userTopicRecord(r, label, knowsEmpty))
		}
		st.UserTopics = &l
	}
	if p.Fetches("muted_topics") {
		l := mutedTopics(w, rows)
		st.MutedTopics = &l
	}
	return nil
}

func userTopicRecord(r topics.UserTopic, label string, knowsEmpty bool) UserTopicRecord {
	return UserTopicRecord{
		StreamID: r.ChannelID, TopicName: topics.Display(r.Topic, label, knowsEmpty),
		LastUpdated: r.LastUpdated, VisibilityPolicy: r.Policy,
	}
}

// unreadMsgs aggregates the viewer's unread messages: direct messages, and channel messages of
// channels the viewer is subscribed to.
func unreadMsgs(w *world.World, r storage.MessageReader, viewer users.User, label string, knowsEmpty bool) (*UnreadMsgs, error) {
	rows, err := r.UserRowsWhere(viewer.ID, 0, messages.FlagRead)
	if err != nil {
		return nil, err
	}
	if len(rows) > MaxUnreadMessages {
		rows = rows[len(rows)-MaxUnreadMessages:]
	}
	ids := make([]messages.ID, len(rows))
	flags := make(map[messages.ID]messages.Flags, len(rows))
	for i, row := range rows {
		ids[i] = row.MessageID
		flags[row.MessageID] = row.Flags
	}
	msgs, err := r.GetMany(ids)
	if err != nil {
		return nil, err
	}
	u := &UnreadMsgs{PMs: []UnreadDirect{}, Streams: []UnreadStream{}, Huddles: []UnreadHuddle{}, Mentions: []messages.ID{}}
	pms := map[users.ID]int{}
	streams := map[string]int{}
	huddles := map[string]int{}
	for _, m := range msgs {
		if !m.IsDirect() && !w.IsSubscribed(m.ChannelID, viewer.ID) {
			continue
		}
		u.Count++
		if flags[m.ID]&(messages.FlagMentioned|messages.FlagStreamWildcardMentioned|messages.FlagTopicWildcardMentioned) != 0 {
			u.Mentions = append(u.Mentions, m.ID)
		}
		switch {
		case !m.IsDirect():
			topic := topics.Display(m.Topic, label, knowsEmpty)
			key := strconv.FormatInt(int64(m.ChannelID), 10) + "\x00" + topics.Key(m.Topic)
			i, ok := streams[key]
			if !ok {
				i = len(u.Streams)
				streams[key] = i
				u.Streams = append(u.Streams, UnreadStream{StreamID: m.ChannelID, Topic: topic, UnreadMessageIDs: []messages.ID{}})
			}
			u.Streams[i].UnreadMessageIDs = append(u.Streams[i].UnreadMessageIDs, m.ID)
		case len(m.Recipients) <= 2:
			other := viewer.ID
			for _, id := range m.Recipients {
				if id != viewer.ID {
					other = id
				}
			}
			i, ok := pms[other]
			if !ok {
				i = len(u.PMs)
				pms[other] = i
				u.PMs = append(u.PMs, UnreadDirect{OtherUserID: other, SenderID: other, UnreadMessageIDs: []messages.ID{}})
			}
			u.PMs[i].UnreadMessageIDs = append(u.PMs[i].UnreadMessageIDs, m.ID)
		default:
			key := userIDsString(m.Recipients)
			i, ok := huddles[key]
			if !ok {
				i = len(u.Huddles)
				huddles[key] = i
				u.Huddles = append(u.Huddles, UnreadHuddle{UserIDsString: key, UnreadMessageIDs: []messages.ID{}})
			}
			u.Huddles[i].UnreadMessageIDs = append(u.Huddles[i].UnreadMessageIDs, m.ID)
		}
	}
	slices.SortFunc(u.PMs, func(a, b UnreadDirect) int { return cmp.Compare(a.OtherUserID, b.OtherUserID) })
	slices.SortFunc(u.Streams, func(a, b UnreadStream) int {
		return cmp.Or(cmp.Compare(a.StreamID, b.StreamID), cmp.Compare(a.UnreadMessageIDs[0], b.UnreadMessageIDs[0]))
	})
	slices.SortFunc(u.Huddles, func(a, b UnreadHuddle) int { return cmp.Compare(a.UserIDsString, b.UserIDsString) })
	return u, nil
}

// userIDsString is the comma-separated ascending ids of a group conversation.
func userIDsString(ids []users.ID) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(int64(id), 10)
	}
	return strings.Join(parts, ",")
}

// recentConversations lists the user's direct-message conversations, newest first.
func recentConversations(r storage.MessageReader, me users.ID) ([]RecentPrivateConversation, error) {
	dms, err := r.DirectWith(me)
	if err != nil {
		return nil, err
	}
	byKey := map[string]*RecentPrivateConversation{}
	for _, m := range dms {
		others := []users.ID{}
		for _, id := range m.Recipients {
			if id != me {
				others = append(others, id)
			}
		}
		key := userIDsString(others)
		c, ok := byKey[key]
		if !ok {
			c = &RecentPrivateConversation{UserIDs: others}
			byKey[key] = c
		}
		c.MaxMessageID = max(c.MaxMessageID, m.ID)
	}
	out := make([]RecentPrivateConversation, 0, len(byKey))
	for _, c := range byKey {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b RecentPrivateConversation) int { return cmp.Compare(b.MaxMessageID, a.MaxMessageID) })
	return out, nil
}
