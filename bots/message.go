package bots

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/users"
)

// Message is the message that triggered a service bot, as the bot is sent it (the "message"
// of Zulip's outgoing webhook payload, MessageDict.finalize_payload with apply_markdown off and
// rendered_content kept), decoded from the JSON recorded when it was sent. Only the fields
// this package reads are decoded; webhooks get the JSON as it was recorded.
type Message struct {
	ID              int64  `json:"id"`
	Type            string `json:"type"` // "stream" or "private"
	Content         string `json:"content"`
	RenderedContent string `json:"rendered_content"`
	SenderID        int64  `json:"sender_id"`
	SenderEmail     string `json:"sender_email"`
	SenderFullName  string `json:"sender_full_name"`
	SenderRealmStr  string `json:"sender_realm_str"`
	StreamID        int64  `json:"stream_id"`
	Subject         string `json:"subject"`
	Timestamp       int64  `json:"timestamp"`
	// ChannelName and Recipients are display_recipient: the channel's name of a channel
	// message, the participants of a direct message.
	ChannelName string      `json:"-"`
	Recipients  []Recipient `json:"-"`
}

// Recipient is a participant of a direct message.
type Recipient struct {
	ID       int64  `json:"id"`
	Email    string `json:"email"`
	FullName string `json:"full_name"`
}

// MaxMessageJSON bounds the recorded JSON of a triggering message that is decoded.
const MaxMessageJSON = 1 << 20

// DecodeMessage reads the recorded JSON of a triggering message.
func DecodeMessage(data string) (Message, error) {
	if len(data) > MaxMessageJSON {
		return Message{}, fmt.Errorf("bots: message JSON of %d bytes", len(data))
	}
	var m struct {
		Message
		DisplayRecipient json.RawMessage `json:"display_recipient"`
	}
	if err := json.Unmarshal([]byte(data), &m); err != nil {
		return Message{}, fmt.Errorf("bots: message JSON: %w", err)
	}
	out := m.Message
	var err error
	if out.Type == "private" {
		err = json.Unmarshal(m.DisplayRecipient, &out.Recipients)
	} else {
		err = json.Unmarshal(m.DisplayRecipient, &out.ChannelName)
	}
	if err != nil {
		return Message{}, fmt.Errorf("bots: display_recipient: %w", err)
	}
	return out, nil
}

// IsDirect reports whether m is a direct message.
func (m Message) IsDirect() bool { return m.Type == "private" }

// Where is where an answer to m goes: m's channel and topic, or its participants.
func (m Message) Where() Destination {
	if !m.IsDirect() {
		return Destination{ChannelID: channels.ID(m.StreamID), Topic: m.Subject}
	}
	ids := make([]users.ID, len(m.Recipients))
	for i, r := range m.Recipients {
		ids[i] = users.ID(r.ID)
	}
	return Destination{UserIDs: ids}
}

// URL is the link to m in the organization at base (Zulip's near_message_url).
func (m Message) URL(base string) string {
	base = strings.TrimRight(base, "/")
	if !m.IsDirect() {
		return fmt.Sprintf("%s/#narrow/channel/%s/topic/%s/near/%d", base,
			markdown.ChannelSlug(m.StreamID, m.ChannelName), markdown.HashComponent(m.Subject), m.ID)
	}
	ids := make([]string, len(m.Recipients))
	for i, r := range m.Recipients {
		ids[i] = strconv.FormatInt(r.ID, 10)
	}
	slug := strings.Join(ids, ",")
	if len(ids) >= 3 {
		slug += "-group"
	}
	return fmt.Sprintf("%s/#narrow/dm/%s/near/%d", base, slug, m.ID)
}
