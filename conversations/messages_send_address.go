package conversations

import (
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// ChannelForSend finds the channel of a channel message and checks that me may post to it.
func ChannelForSend(w *world.World, _ storage.MessageReader, me users.User, p SendMessageParams) (channels.Channel, error) {
	var (
		c  channels.Channel
		ok bool
	)
	switch {
	case p.ChannelID != nil:
		c, ok = w.Channel(*p.ChannelID)
		if ok {
			// The recipients come from this list: reading it first answers whether me is
			// subscribed too, without a read of me's own subscriptions.
			w.SubscribersOf(c.ID)
		}
		if !ok || !w.Metadata(c, me) && !w.Content(c, me) && !ownerSubscribed(w, me, c.ID) {
			return c, errChannelIDNotFound(*p.ChannelID)
		}
	case p.ChannelName != "":
		c, ok = w.ChannelByName(p.ChannelName)
		if ok {
			w.SubscribersOf(c.ID)
		}
		if !ok || !w.Metadata(c, me) && !w.Content(c, me) && !ownerSubscribed(w, me, c.ID) {
			return c, errChannelNameNotFound(p.ChannelName)
		}
	default:
		return c, engine.MissingArgument("to")
	}
	v := w.Viewer(c.ID, me)
	if ownerSubscribed(w, me, c.ID) {
		v.Subscribed = true
	}
	if c.IsArchived || !channels.HasContentAccess(w.Membership(), c, v) {
		return c, engine.BadRequest("Not authorized to send to channel '%s'", c.Name)
	}
	if !channels.CanPost(w.Membership(), c, v) {
		return c, errCannotPost
	}
	return c, nil
}

// effectiveTopicsPolicy resolves inherit against the organization's policy.
func effectiveTopicsPolicy(c channels.Channel) channels.TopicsPolicy {
	if c.TopicsPolicy == 0 || c.TopicsPolicy == channels.TopicsInherit {
		return channels.TopicsAllowEmpty
	}
	return c.TopicsPolicy
}

// topicForSend cleans the topic of a channel message and applies the channel's topics policy
// and can_create_topic_group.
func topicForSend(r storage.MessageReader, w *world.World, me users.User, c channels.Channel, given *string) (string, error) {
	topic := ""
	if given != nil {
		var err error
		if topic, err = topics.Clean(*given, w.Org().EmptyTopicDisplayName); err != nil {
			return "", TopicError("topic", err)
		}
		topic = topics.Truncate(topic)
	}
	switch effectiveTopicsPolicy(c) {
	case channels.TopicsDisableEmpty:
		if topic == "" {
			return "", errTopicsRequired
		}
	case channels.TopicsEmptyTopicOnly:
		if topic != "" {
			return "", errGeneralChatOnly
		}
	}
	return topic, checkCanCreateTopic(w, r, me, c, topic)
}

// checkCanCreateTopic refuses a topic without messages in c when me may not start topics there
// (can_create_topic_group).
func checkCanCreateTopic(w *world.World, r storage.MessageReader, me users.User, c channels.Channel, topic string) error {
	v := w.Viewer(c.ID, me)
	if channels.IsZeroSetting(c.CanCreateTopicGroup) || channels.CanCreateTopic(w.Membership(), c, v) {
		return nil
	}
	existing, err := r.TopicMessageIDs(c.ID, topic, 1)
	if err != nil {
		return err
	}
	if len(existing) == 0 {
		return errCannotStartTopic
	}
	return nil
}

// directParticipants resolves the recipients of a direct message; the result includes the
// sender and is ascending.
func directParticipants(w *world.World, me users.User, p SendMessageParams) ([]users.ID, error) {
	if len(p.UserIDs) == 0 && len(p.Emails) == 0 {
		return nil, engine.BadRequest("Message must have recipients")
	}
	var to []users.ID
	for _, id := range p.UserIDs {
		u, ok := w.Lookup(id)
		if !ok {
			return nil, engine.BadRequest("Invalid user ID %d", id)
		}
		if !u.IsActive {
			return nil, engine.BadRequest("'%s' is no longer using Zulip.", w.APIEmail(u))
		}
		to = append(to, id)
	}
	for _, email := range p.Emails {
		u, ok := w.UserByEmail(strings.TrimSpace(email))
		if !ok {
			return nil, engine.BadRequest("Invalid email '%s'", email)
		}
		if !u.IsActive {
			return nil, engine.BadRequest("'%s' is no longer using Zulip.", email)
		}
		to = append(to, u.ID)
	}
	return messages.Participants(me.ID, to), nil
}

// checkDirectMessagePolicy applies the organization's direct_message_permission_group (some
// participant must belong to it) and direct_message_initiator_group (a sender outside it may
// only answer a conversation someone else started). Bots, and conversations with only bots
// and oneself, are exempt, as in Zulip.
func checkDirectMessagePolicy(w *world.World, mr storage.MessageReader, me users.User, participants []users.ID) error {
	if me.IsBot() {
		return nil
	}
	if !slices.ContainsFunc(participants, func(id users.ID) bool { return id != me.ID && !w.User(id).IsBot() }) {
		return nil
	}
	perm := w.Org().DirectMessagePermissionGroup
	if !slices.ContainsFunc(participants, func(id users.ID) bool { return w.Membership().Allows(perm, id) }) {
		if perm.IsNamed() && w.GroupNameOf(perm.Group) == users.GroupNobody {
			return engine.BadRequest("Direct messages are disabled in this organization.")
		}
		return engine.BadRequest("This conversation does not include any users who can authorize it.")
	}
	if w.Membership().Allows(w.Org().DirectMessageInitiatorGroup, me.ID) {
		return nil
	}
	earlier, err := mr.DirectWith(me.ID)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(earlier, func(m messages.Message) bool {
		return m.SenderID != me.ID && slices.Equal(m.Recipients, participants)
	}) {
		return nil
	}
	return engine.BadRequest("You do not have permission to initiate direct message conversations.")
}
