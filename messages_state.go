package chat

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
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

// messagesInitialState fills the message sections of register for viewer.
func messagesInitialState(tx storage.ReadTx, getWorld func() (*world, error), viewer users.User, p RegisterQueueParams, res *RegisterQueueResult) error {
	if viewer.ID == 0 {
		return nil
	}
	want := func(kind string) bool { return p.fetches(kind) }
	if !want("message") && !want("update_message_flags") && !want("starred_messages") &&
		!want("recent_private_conversations") && !want("user_topic") && !want("muted_topics") {
		return nil
	}
	w, err := getWorld()
	if err != nil {
		return err
	}
	st := &MessagesState{}
	label := w.realm.EmptyTopicDisplayName
	knowsEmpty := p.ClientCapabilities.EmptyTopicName
	if want("message") {
		id, err := maxMessageID(tx.Messages(), viewer.ID)
		if err != nil {
			return err
		}
		st.MaxMessageID = &id
	}
	if want("message") && want("update_message_flags") {
		if st.UnreadMsgs, err = w.unreadMsgs(tx.Messages(), viewer, label, knowsEmpty); err != nil {
			return err
		}
	}
	if want("starred_messages") {
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
	if want("recent_private_conversations") {
		l, err := recentConversations(tx.Messages(), viewer.ID)
		if err != nil {
			return err
		}
		st.RecentPrivateConversations = &l
	}
	if want("user_topic") {
		rows, err := tx.UserTopics().ListForUser(viewer.ID)
		if err != nil {
			return err
		}
		l := []UserTopicRecord{}
		for _, r := range rows {
			c, ok := w.channel(r.ChannelID)
			if !ok || !w.metadata(c, viewer) {
				continue
			}
			l = append(l, userTopicRecord(r, label, knowsEmpty))
		}
		st.UserTopics = &l
	}
	if want("muted_topics") {
		rows, err := tx.UserTopics().ListForUser(viewer.ID)
		if err != nil {
			return err
		}
		l := w.mutedTopics(rows)
		st.MutedTopics = &l
	}
	res.MessagesState = st
	return nil
}

// maxMessageID is max_message_id: the highest id among the messages the user received and
// still has (-1 when none). Deleting that message, or moving it where the user loses access,
// lowers it, as in Zulip, which re-reads it after every deletion; clients read the new value
// from GET /users/me. Rows made by flagging a message from a channel's history do not count,
// so that starring an old message does not move it.
func maxMessageID(r storage.MessageReader, u users.ID) (int64, error) {
	max, err := r.MaxReceivedID(u)
	if err != nil || max == 0 {
		return -1, err
	}
	return int64(max), nil
}

func userTopicRecord(r topics.UserTopic, label string, knowsEmpty bool) UserTopicRecord {
	return UserTopicRecord{
		StreamID: r.ChannelID, TopicName: topics.Display(r.Topic, label, knowsEmpty),
		LastUpdated: r.LastUpdated, VisibilityPolicy: r.Policy,
	}
}

// unreadMsgs aggregates the viewer's unread messages: direct messages, and channel messages of
// channels the viewer is subscribed to.
func (w *world) unreadMsgs(r storage.MessageReader, viewer users.User, label string, knowsEmpty bool) (*UnreadMsgs, error) {
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
		if !m.IsDirect() && !w.isSubscribed(m.ChannelID, viewer.ID) {
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

// Channel activity windows (Zulip's values).
const (
	// recentlyActiveSeconds: a channel with a message this recent is recently active
	// (Stream.LAST_ACTIVITY_DAYS_BEFORE_FOR_ACTIVE, 180 days).
	recentlyActiveSeconds = 180 * 86400
	// newChannelActiveSeconds: a channel this young counts as recently active without
	// messages (Zulip creates channels active and reassesses them daily).
	newChannelActiveSeconds = 86400
	// trafficWindowDays is the window of stream_weekly_traffic, trafficMinAgeDays the age
	// below which a channel has none (null).
	trafficWindowDays = 28
	trafficMinAgeDays = 7
)

// channelActivity is c's message activity: its oldest message, its newest message's time, and
// its message count over the traffic window: the 28 whole days (UTC) before today, as Zulip
// counts from its daily statistics, so that today's messages change the traffic tomorrow and
// sending sends no event for it. A channel not read yet is read with every other channel not
// read yet, in one set-based read (records of many channels); decisions about a few channels
// read just those first (loadActivity).
func (w *world) channelActivity(c channels.ID) storage.ChannelActivity {
	if a, ok := w.activity[c]; ok || w.msgs == nil {
		return a
	}
	ids := make([]channels.ID, len(w.channels))
	for i, ch := range w.channels {
		ids[i] = ch.ID
	}
	w.loadActivity(ids)
	return w.activity[c]
}

// loadActivity reads the activity of the given channels that is not read yet.
func (w *world) loadActivity(ids []channels.ID) {
	if w.msgs == nil {
		return
	}
	if w.activity == nil {
		w.activity = map[channels.ID]storage.ChannelActivity{}
	}
	var missing []channels.ID
	for _, id := range ids {
		if _, ok := w.activity[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return
	}
	today := w.now - w.now%86400
	acts, err := w.msgs.Activity(missing, today-trafficWindowDays*86400, today)
	w.must(err)
	for _, a := range acts {
		w.activity[a.ChannelID] = a
	}
}

// firstMessageID is a channel's oldest message id (nil when it has none).
func (w *world) firstMessageID(c channels.ID) *int64 {
	if id := w.channelActivity(c).FirstMessageID; id != 0 {
		v := int64(id)
		return &v
	}
	return nil
}

// recentlyActive is is_recently_active: a message in the last 180 days, or a channel created
// less than a day ago.
func (w *world) recentlyActive(c channels.Channel) bool {
	a := w.channelActivity(c.ID)
	return a.LastTimestamp != 0 && a.LastTimestamp >= w.now-recentlyActiveSeconds ||
		c.DateCreated >= w.now-newChannelActiveSeconds
}

// weeklyTraffic is stream_weekly_traffic: the average number of messages per week over the
// traffic window (over the channel's age when younger than it), at least 1 when there were
// any, rounded to two significant digits; nil for a channel younger than a week.
func (w *world) weeklyTraffic(c channels.Channel) *int {
	age := (w.now - c.DateCreated) / 86400
	if age < trafficMinAgeDays {
		return nil
	}
	n := int64(w.channelActivity(c.ID).RecentCount)
	avg := n / 4
	if age < trafficWindowDays {
		avg = n * 7 / age
	}
	if avg == 0 && n > 0 {
		avg = 1
	}
	v := int(roundTwoSignificant(avg))
	return &v
}

// roundTwoSignificant rounds n to two significant digits, halves to even (as Python's round
// with negative digits does).
func roundTwoSignificant(n int64) int64 {
	unit := int64(1)
	for m := n; m >= 100; m /= 10 {
		unit *= 10
	}
	if unit == 1 {
		return n
	}
	q, r := n/unit, n%unit
	if 2*r > unit || 2*r == unit && q%2 == 1 {
		q++
	}
	return q * unit
}

// noteChannelMessage records a message just stored in c (sent at ts) in the world's activity,
// and the stream update of is_recently_active when c was not recently active before it.
func (w *world) noteChannelMessage(ev *events, c channels.Channel, id messages.ID, ts int64) {
	was := w.recentlyActive(c)
	a := w.channelActivity(c.ID)
	a.ChannelID = c.ID
	if a.FirstMessageID == 0 || id < a.FirstMessageID {
		a.FirstMessageID = id
	}
	a.LastTimestamp = max(a.LastTimestamp, ts)
	if w.activity != nil {
		w.activity[c.ID] = a // sent today: not in the traffic window yet
	}
	if !was {
		w.refreshActivity(ev, []channels.ID{c.ID}, []bool{false})
	}
}

// activeStates is is_recently_active of the given channels, as the world sees them now.
func (w *world) activeStates(ids []channels.ID) []bool {
	w.loadActivity(ids)
	out := make([]bool, len(ids))
	for i, id := range ids {
		c, _ := w.channel(id)
		out[i] = w.recentlyActive(c)
	}
	return out
}

// refreshActivity re-reads the channels' activity after messages moved or went away, and
// records the stream update of is_recently_active for each of ids whose value changed from
// before (activeStates of the same ids).
func (w *world) refreshActivity(ev *events, ids []channels.ID, before []bool) {
	for _, id := range ids {
		delete(w.activity, id)
	}
	w.loadActivity(ids)
	for i, id := range ids {
		c, _ := w.channel(id)
		if now := w.recentlyActive(c); now != before[i] {
			ev.add("stream", StreamUpdateEvent{Type: "stream", Op: "update", StreamID: c.ID, Name: c.Name,
				Property: "is_recently_active", Value: now}, w.watchers(c, nil))
		}
	}
}
