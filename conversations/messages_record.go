package conversations

import (
	"hash/fnv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// MessageRecord is a message as the API shows it (GET /messages, message events). Flags is set
// in GET /messages only (events carry them beside the message).
type MessageRecord struct {
	ID                 messages.ID      `json:"id"`
	SenderID           users.ID         `json:"sender_id"`
	Content            string           `json:"content"`
	RecipientID        int64            `json:"recipient_id"`
	Timestamp          int64            `json:"timestamp"`
	Client             string           `json:"client"`
	Subject            string           `json:"subject"`
	TopicLinks         []TopicLink      `json:"topic_links"`
	IsMeMessage        bool             `json:"is_me_message"`
	Reactions          []ReactionRecord `json:"reactions"`
	Submessages        []any            `json:"submessages"`
	SenderFullName     string           `json:"sender_full_name"`
	SenderEmail        string           `json:"sender_email"`
	SenderRealmStr     string           `json:"sender_realm_str"`
	DisplayRecipient   any              `json:"display_recipient"`
	Type               string           `json:"type"`
	StreamID           *channels.ID     `json:"stream_id,omitempty"`
	AvatarURL          *string          `json:"avatar_url"`
	ContentType        string           `json:"content_type"`
	LastEditTimestamp  *int64           `json:"last_edit_timestamp,omitempty"`
	LastMovedTimestamp *int64           `json:"last_moved_timestamp,omitempty"`
	// EditHistory is the message's edits, newest first, as far as the organization shows them.
	EditHistory  []messages.EditHistoryEntry `json:"edit_history,omitempty"`
	Flags        *[]string                   `json:"flags,omitempty"`
	MatchContent *string                     `json:"match_content,omitempty"`
	MatchSubject *string                     `json:"match_subject,omitempty"`
}

// DisplayRecipientUser is one participant of a direct message in display_recipient.
type DisplayRecipientUser struct {
	ID            users.ID `json:"id"`
	Email         string   `json:"email"`
	FullName      string   `json:"full_name"`
	IsMirrorDummy bool     `json:"is_mirror_dummy"`
}

// messageView says which variant of a message record a client gets.
type messageView struct {
	applyMarkdown   bool
	clientGravatar  bool
	emptyTopicName  bool
	emptyTopicLabel string
}

// messageRecord renders m. The sender's and participants' names and emails come from the world.
func messageRecord(w *world.World, m messages.Message, v messageView) MessageRecord {
	sender := w.User(m.SenderID)
	rec := MessageRecord{
		ID:             m.ID,
		SenderID:       m.SenderID,
		RecipientID:    recipientID(m),
		Timestamp:      m.Timestamp,
		Client:         m.Client,
		TopicLinks:     []TopicLink{},
		IsMeMessage:    messages.IsMeMessage(m.Content),
		Reactions:      []ReactionRecord{},
		Submessages:    []any{},
		SenderFullName: sender.FullName,
		SenderEmail:    w.APIEmail(sender),
		SenderRealmStr: realmStr(w.Org().Host()),
	}
	if v.applyMarkdown {
		rec.Content, rec.ContentType = m.Rendered, "text/html"
	} else {
		rec.Content, rec.ContentType = m.Content, "text/x-markdown"
	}
	if !(v.clientGravatar && gravatarHidden(sender)) {
		url := people.AvatarURL(sender)
		rec.AvatarURL = &url
	}
	if m.IsDirect() {
		rec.Type = "private"
		rec.Subject = ""
		list := make([]DisplayRecipientUser, 0, len(m.Recipients))
		for _, id := range m.Recipients {
			u := w.User(id)
			list = append(list, DisplayRecipientUser{ID: id, Email: w.APIEmail(u), FullName: u.FullName})
		}
		rec.DisplayRecipient = list
	} else {
		rec.Type = "stream"
		c, _ := w.Channel(m.ChannelID)
		rec.DisplayRecipient = c.Name
		id := m.ChannelID
		rec.StreamID = &id
		rec.Subject = topics.Display(m.Topic, v.emptyTopicLabel, v.emptyTopicName)
		rec.TopicLinks = topicLinks(w, m.Topic)
	}
	rec.EditHistory = messages.VisibleHistory(m.EditHistory, messages.EditHistoryPolicy(w.Org().MessageEditHistoryVisibilityPolicy))
	if m.LastEditTimestamp != 0 {
		ts := m.LastEditTimestamp
		rec.LastEditTimestamp = &ts
	}
	if m.LastMovedTimestamp != 0 {
		ts := m.LastMovedTimestamp
		rec.LastMovedTimestamp = &ts
	}
	return rec
}

// gravatarHidden reports whether clients with client_gravatar compute the sender's avatar
// themselves: a Gravatar of a user whose email everyone may see.
func gravatarHidden(u users.User) bool {
	return u.AvatarSource == users.AvatarGravatar && u.EmailVisibility == users.EmailVisibleEveryone
}

// realmStr is sender_realm_str: the first label of the organization's host.
func realmStr(host string) string {
	label, _, _ := strings.Cut(host, ".")
	return label
}

// recipientID is a stable id of the message's conversation: the channel for channel messages,
// a hash of the participants for direct messages.
func recipientID(m messages.Message) int64 {
	if !m.IsDirect() {
		return int64(m.ChannelID)
	}
	h := fnv.New32a()
	for _, id := range m.Recipients {
		var b [8]byte
		for i := range b {
			b[i] = byte(id >> (8 * i))
		}
		h.Write(b[:])
	}
	return 1<<40 | int64(h.Sum32())
}

// MessageEvent is a message event. Its content and topic depend on the receiving queue's
// apply_markdown, client_gravatar and empty_topic_name (see forClient).
type MessageEvent struct {
	Type    string        `json:"type"`
	Message MessageRecord `json:"message"`
	Flags   []string      `json:"flags"`
	// LocalMessageID is the sender's local_id, in the event to the queue that sent the
	// message (queue_id), so that the client replaces its local echo.
	LocalMessageID *string `json:"local_message_id,omitempty"`

	// senderQueue and localID are the queue_id and local_id given to SendMessage.
	senderQueue, localID string
	raw, rendered        string
	msg                  messages.Message // what a queue's narrow is matched against
	flagBits             messages.Flags
	hideGravatar         bool
	topic                string
	emptyTopicLabel      string
}

// Matched is what a queue's narrow is matched against: the message and the recipient's flags.
func (e MessageEvent) Matched() (messages.Message, messages.Flags) { return e.msg, e.flagBits }

// SenderEcho is the queue_id and local_id given to SendMessage (empty without them).
func (e MessageEvent) SenderEcho() (queue, localID string) { return e.senderQueue, e.localID }

// newMessageEvent builds the event of m for recipients with the given flags.
func newMessageEvent(w *world.World, m messages.Message, flags messages.Flags) MessageEvent {
	v := messageView{applyMarkdown: true, emptyTopicName: true, emptyTopicLabel: w.Org().EmptyTopicDisplayName}
	return MessageEvent{
		Type: "message", Message: messageRecord(w, m, v), Flags: flags.Names(),
		raw: m.Content, rendered: m.Rendered, msg: m, flagBits: flags, hideGravatar: gravatarHidden(w.User(m.SenderID)),
		topic: m.Topic, emptyTopicLabel: w.Org().EmptyTopicDisplayName,
	}
}

// ForClient picks the content form, avatar and topic display for one queue, and drops the
// event for queues whose narrow it does not match.
func (e MessageEvent) ForClient(o clients.Options) (any, bool) {
	if !MatchesQueueNarrow(o.Terms, e.msg, e.flagBits) {
		return nil, false
	}
	if !o.ApplyMarkdown {
		e.Message.Content, e.Message.ContentType = e.raw, "text/x-markdown"
	}
	if o.ClientGravatar && e.hideGravatar {
		e.Message.AvatarURL = nil
	}
	if e.Message.Type == "stream" {
		e.Message.Subject = topics.Display(e.topic, e.emptyTopicLabel, o.Capabilities.EmptyTopicName)
	}
	if e.senderQueue != "" && o.QueueID == e.senderQueue {
		id := e.localID
		e.LocalMessageID = &id
	}
	return e, true
}

// SharesForm: a queue whose narrow the message matches gets it; its form is shared unless it
// is the sender's queue (the local echo).
func (e MessageEvent) SharesForm(o clients.Options) (deliver, shared bool) {
	if !MatchesQueueNarrow(o.Terms, e.msg, e.flagBits) {
		return false, false
	}
	return true, e.senderQueue == "" || o.QueueID != e.senderQueue
}

// ReadsOptions: the form depends on apply_markdown, client_gravatar and empty_topic_name (the
// narrow and the local echo the bus carries apart).
func (MessageEvent) ReadsOptions() clients.Reads {
	return clients.Markdown | clients.Gravatar | clients.EmptyTopicName
}

// MatchesQueueNarrow evaluates a queue's resolved narrow on a new message with the recipient's
// flags (a new message has no reactions).
func MatchesQueueNarrow(terms []messages.Term, m messages.Message, flags messages.Flags) bool {
	return len(terms) == 0 || messages.Match(terms, messages.Candidate{Message: m, Flags: flags, Received: true})
}
