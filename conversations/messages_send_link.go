package conversations

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// The links of POST /messages's answer (feature level 508): message_url, Zulip's
// near_message_url of the sent message, and message_link, the Markdown link the web app's
// "Copy link to message" makes. A sender without metadata access to the channel (a bot
// allowed to post to a private channel it cannot read) gets the channel by id alone, which
// reveals no name, and the plain URL as the link.

// sendResult is the answer of a send of m by me.
func sendResult(w *world.World, me users.User, m messages.Message) SendMessageResult {
	base := strings.TrimRight(w.Org().URL, "/")
	res := SendMessageResult{ID: m.ID}
	if m.IsDirect() {
		ids := make([]string, len(m.Recipients))
		for i, id := range m.Recipients {
			ids[i] = strconv.FormatInt(int64(id), 10)
		}
		res.MessageURL = fmt.Sprintf("%s/#narrow/dm/%s-pm/near/%d", base, strings.Join(ids, ","), m.ID)
		res.MessageLink = res.MessageURL
		return res
	}
	c, ok := w.Channel(m.ChannelID)
	channel := strconv.FormatInt(int64(m.ChannelID), 10)
	named := ok && w.Metadata(c, me)
	if named {
		channel = markdown.ChannelSlug(int64(c.ID), c.Name)
	}
	res.MessageURL = fmt.Sprintf("%s/#narrow/channel/%s/topic/%s/near/%d", base, channel, markdown.HashComponent(m.Topic), m.ID)
	res.MessageLink = res.MessageURL
	if named {
		topic := m.Topic
		if topic == "" {
			topic = w.Org().EmptyTopicDisplayName
		}
		escape := func(s string) string { return brokenLinkChars.ReplaceAllStringFunc(s, htmlEntity) }
		res.MessageLink = fmt.Sprintf("[#%s > %s @ 💬](%s)", escape(c.Name), escape(topic), res.MessageURL)
	}
	return res
}

// ownerSubscribed reports whether me is a bot whose owner is subscribed to c: Zulip's
// access_stream_for_send_message lets such a bot post there (and so find the channel to post
// to) without any access of its own to the channel's metadata.
func ownerSubscribed(w *world.World, me users.User, c channels.ID) bool {
	return me.IsBot() && me.BotOwnerID != 0 && w.IsSubscribed(c, me.BotOwnerID)
}
