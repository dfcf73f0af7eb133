package conversations

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// NotificationBotID is the id of the notification bot (world.NotificationBotID), Zulip's
// cross-realm system bot that posts the server's own notices.
const NotificationBotID = world.NotificationBotID

// Topics of the notification bot's channel messages (Zulip's names).
const (
	newChannelsTopic   = "new channels"
	channelEventsTopic = "channel events"
	InternalClient     = "Internal"
)

// brokenLinkChars are the characters a #**channel** link cannot hold.
var brokenLinkChars = regexp.MustCompile("[`>*&\\[\\]]|\\$\\$")

// channelLink is the Markdown link to channel c: #**name**, or a plain link to its narrow when
// the name holds characters the short form cannot.
func channelLink(c channels.Channel) string {
	if !brokenLinkChars.MatchString(c.Name) {
		return "#**" + c.Name + "**"
	}
	escaped := brokenLinkChars.ReplaceAllStringFunc(c.Name, htmlEntity)
	return fmt.Sprintf("[#%s](#narrow/channel/%s)", escaped, markdown.ChannelSlug(int64(c.ID), c.Name))
}

// channelCreatedNotice is the notification bot's message in a new channel's "channel events"
// topic: its privacy, its creator and its description.
func channelCreatedNotice(c channels.Channel, creator users.User) string {
	var kind string
	switch {
	case c.IsWebPublic:
		kind = "**Web-public**"
	case !c.InviteOnly:
		kind = "**Public**"
	case c.HistoryPublicToSubscribers:
		kind = "**Private, shared history**"
	default:
		kind = "**Private, protected history**"
	}
	desc := c.Description
	if desc == "" {
		desc = "*No description.*"
	}
	return fmt.Sprintf("%s channel created by %s. **Description:**\n```` quote\n%s\n````", kind, people.SilentMention(creator), desc)
}

// newChannelsAnnouncement is the message of the new-channel announcements channel.
func newChannelsAnnouncement(creator users.User, created []channels.Channel) string {
	links := make([]string, len(created))
	for i, c := range created {
		links[i] = channelLink(c)
	}
	if len(created) == 1 {
		return fmt.Sprintf("%s created a new channel %s.", people.SilentMention(creator), links[0])
	}
	return fmt.Sprintf("%s created the following channels: %s.", people.SilentMention(creator), strings.Join(links, ", "))
}

// subscribedYouMessage is the direct message telling a user that actor subscribed them to
// the named channels.
func subscribedYouMessage(actor users.User, names []string) string {
	names = slices.Sorted(slices.Values(names))
	if len(names) == 1 {
		return fmt.Sprintf("%s subscribed you to #**%s**.", people.SilentMention(actor), names[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s subscribed you to the following channels:\n\n", people.SilentMention(actor))
	for _, n := range names {
		fmt.Fprintf(&b, "* #**%s**\n", n)
	}
	return b.String()
}

// botNotice is one message of the notification bot: to topic of channel (when set) or to
// user to. readBy is the user who caused it; the message is already read for them. read, when
// set, decides instead which recipients get it read.
type botNotice struct {
	channel channels.ID
	topic   string
	to      users.ID
	content string
	readBy  users.ID
	read    func(users.ID) bool
}

// postNotices sends the notification bot's messages in order through the path every message
// takes. A channel message the bot cannot post (an archived channel, or a topics policy that
// refuses the topic) is dropped, as Zulip drops an internal message it cannot send.
func (s *Service) postNotices(tx storage.Tx, ev *engine.Events, w *world.World, notices []botNotice) error {
	now := w.UnixNow()
	for _, n := range notices {
		m := messages.Message{
			SenderID: NotificationBotID, Content: n.content,
			Timestamp: now, Client: InternalClient,
		}
		var recipients []users.ID
		if n.channel != 0 {
			c, ok := w.Channel(n.channel)
			if !ok || c.IsArchived || effectiveTopicsPolicy(c) == channels.TopicsEmptyTopicOnly {
				continue
			}
			m.ChannelID, m.Topic = c.ID, n.topic
			recipients = ActiveSubscribers(w, c.ID)
		} else {
			m.Recipients = messages.Participants(NotificationBotID, []users.ID{n.to})
			recipients = []users.ID{n.to}
		}
		read := ReadBy(n.readBy)
		if n.read != nil {
			read = ReadWhere(n.read)
		}
		if err := DeliverMessage(w, tx, ev, &m, recipients, read); err != nil {
			return err
		}
	}
	return nil
}

// subscriptionNotices are the notification bot's messages after a subscribe request by
// actor: a direct message to each other human newly subscribed to channels that existed
// before (when send_new_subscription_messages allows it and at most
// MaxBulkNewSubscriptionMessages users were subscribed), with announce the announcement of
// the created channels in the organization's new-channel announcements channel, and a
// message in the "channel events" topic of each created channel.
func subscriptionNotices(w *world.World, actor users.User, newByUser map[users.ID][]channels.Subscription, created []channels.ID, op subscribeOp) []botNotice {
	var out []botNotice
	if op.sendNewMsg && len(newByUser) <= MaxBulkNewSubscriptionMessages {
		for _, id := range slices.Sorted(maps.Keys(newByUser)) {
			u := w.User(id)
			if id == actor.ID || u.IsBot() {
				continue
			}
			var names []string
			for _, r := range newByUser[id] {
				if c, ok := w.Channel(r.ChannelID); ok && !slices.Contains(created, c.ID) {
					names = append(names, c.Name)
				}
			}
			if len(names) > 0 {
				out = append(out, botNotice{to: id, content: subscribedYouMessage(actor, names), readBy: actor.ID})
			}
		}
	}
	if len(created) == 0 {
		return out
	}
	chs := make([]channels.Channel, len(created))
	for i, id := range created {
		chs[i], _ = w.Channel(id)
	}
	if op.announce && w.Org().NewStreamAnnouncementsStreamID != 0 {
		out = append(out, botNotice{channel: channels.ID(w.Org().NewStreamAnnouncementsStreamID), topic: newChannelsTopic,
			content: newChannelsAnnouncement(actor, chs), readBy: actor.ID})
	}
	for _, c := range chs {
		out = append(out, botNotice{channel: c.ID, topic: channelEventsTopic, content: channelCreatedNotice(c, actor), readBy: actor.ID})
	}
	return out
}

// AnnouncementsID is register's realm_new_stream_announcements_stream_id: -1 when unset.
func AnnouncementsID(r realms.Realm) int64 {
	if r.NewStreamAnnouncementsStreamID == 0 {
		return -1
	}
	return r.NewStreamAnnouncementsStreamID
}

// NotifyUser sends the notification bot's direct message to a user (people's Hooks.NotifyUser).
func (s *Service) NotifyUser(tx storage.Tx, ev *engine.Events, w *world.World, to users.ID, content string) error {
	return s.postNotices(tx, ev, w, []botNotice{{to: to, content: content}})
}

// NotifyBotOwnerParams are the parameters of NotifyBotOwner.
type NotifyBotOwnerParams struct {
	BotID   users.ID
	Content string
}

// NotifyBotOwnerResult says whether the notice was sent: not when the bot has no active owner.
type NotifyBotOwnerResult struct {
	Sent bool
}

// NotifyBotOwner sends the notification bot's direct message to the owner of a bot, as Zulip's
// send_rate_limited_pm_notification_to_bot_owner does for a misused integration URL (the
// caller limits the rate). It is a trusted, server-side operation: no acting user.
func (s *Service) NotifyBotOwner(ctx context.Context, p NotifyBotOwnerParams) (NotifyBotOwnerResult, error) {
	var res NotifyBotOwnerResult
	content, err := messages.NormalizeContent(p.Content)
	if err != nil {
		return res, engine.RuleError(err)
	}
	err = s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		res = NotifyBotOwnerResult{}
		w := o.World()
		bot := w.User(p.BotID)
		if bot.ID == 0 || !bot.IsBot() || bot.BotOwnerID == 0 {
			return nil
		}
		if owner := w.User(bot.BotOwnerID); owner.ID == 0 || !owner.IsActive {
			return nil
		}
		res.Sent = true
		return s.NotifyUser(o.Tx, o.Ev, w, bot.BotOwnerID, content)
	})
	return res, err
}
