package conversations

import (
	"fmt"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// resolveUndoGraceSeconds is how soon after a resolve notice an opposite resolve deletes the
// notice instead of posting another (Zulip's RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS).
const resolveUndoGraceSeconds = 60

// Texts of the notification bot's resolve notices.
const (
	resolvedNotice   = "%s has marked this topic as resolved."
	unresolvedNotice = "%s has marked this topic as unresolved."
)

// topicLink is the Markdown link to a topic: #**channel>topic**, or a plain link to its
// narrow when a name holds characters the short form cannot.
func topicLink(c channels.Channel, topic string) string {
	if !brokenLinkChars.MatchString(c.Name) && !brokenLinkChars.MatchString(topic) {
		return "#**" + c.Name + ">" + topic + "**"
	}
	escape := func(s string) string { return brokenLinkChars.ReplaceAllStringFunc(s, htmlEntity) }
	return fmt.Sprintf("[#%s > %s](%s)", escape(c.Name), escape(topic), TopicNarrow(c, topic))
}

// htmlEntity is the entity of a character a #**channel>topic** link cannot hold.
func htmlEntity(s string) string {
	switch s {
	case "`":
		return "&#96;"
	case ">":
		return "&gt;"
	case "*":
		return "&#42;"
	case "&":
		return "&amp;"
	case "$$":
		return "&#36;&#36;"
	case "[":
		return "&#91;"
	}
	return "&#93;"
}

// TopicNarrow is the narrow fragment of a topic.
func TopicNarrow(c channels.Channel, topic string) string {
	return "#narrow/channel/" + markdown.ChannelSlug(int64(c.ID), c.Name) + "/topic/" + markdown.HashComponent(topic)
}

// moveNotices are the notification bot's breadcrumbs of a move: in the new topic (unless the
// move only resolves or unresolves) and, when asked, in the old one. movedAll says whether the
// whole topic moved, newTopicWasEmpty whether the actor could see no earlier message there.
func moveNotices(w *world.World, p editPlan, count int, movedAll, newTopicWasEmpty bool) []botNotice {
	user := people.SilentMention(p.me)
	oldLoc, newLoc := topicLink(p.orig, p.m.Topic), topicLink(p.target, p.topic)
	var out []botNotice
	if p.notifyNew && (p.streamEdited || p.topicEdited && !p.resolveToggle()) {
		var text string
		switch {
		case newTopicWasEmpty && movedAll:
			text = fmt.Sprintf("This topic was moved here from %s by %s.", oldLoc, user)
		case count == 1:
			link := strings.TrimRight(w.Org().URL, "/") + "/" + TopicNarrow(p.target, p.topic) + fmt.Sprintf("/near/%d", p.m.ID)
			text = fmt.Sprintf("[A message](%s) was moved here from %s by %s.", link, oldLoc, user)
		default:
			text = fmt.Sprintf("%d messages were moved here from %s by %s.", count, oldLoc, user)
		}
		out = append(out, botNotice{channel: p.target.ID, topic: p.topic, content: text, readBy: p.me.ID})
	}
	if p.notifyOld {
		var text string
		switch {
		case movedAll:
			text = fmt.Sprintf("This topic was moved to %s by %s.", newLoc, user)
		case count == 1:
			text = fmt.Sprintf("A message was moved from this topic to %s by %s.", newLoc, user)
		default:
			text = fmt.Sprintf("%d messages were moved from this topic to %s by %s.", count, newLoc, user)
		}
		out = append(out, botNotice{channel: p.orig.ID, topic: p.m.Topic, content: text, readBy: p.me.ID})
	}
	return out
}

// resolveNotice is the notification bot's notice of a resolved or unresolved topic, or, when
// the topic's newest message is such a notice younger than the grace period, the deletion of
// that notice (an undo). Subscribers whose resolved_topic_notice_auto_read_policy asks for it
// (never; except_followed for followers of the topic) get it unread; everyone else read.
func (s *Service) resolveNotice(tx storage.Tx, ev *engine.Events, w *world.World, p editPlan) error {
	if !p.topicEdited || p.content != nil || p.streamEdited || !p.resolveToggle() {
		return nil
	}
	newest, err := tx.Messages().TopicMessageIDs(p.target.ID, p.topic, 1)
	if err != nil {
		return err
	}
	if len(newest) == 1 {
		last, err := tx.Messages().Get(newest[0])
		if err != nil {
			return err
		}
		if isResolveNotice(last) && p.now-last.Timestamp <= resolveUndoGraceSeconds {
			return s.DeleteMessages(tx, ev, w, p.me, []messages.ID{last.ID})
		}
	}
	format := resolvedNotice
	if p.unresolved {
		format = unresolvedNotice
	}
	unread, err := resolveNoticeUnread(w, tx, p.target, p.topic)
	if err != nil {
		return err
	}
	n := botNotice{channel: p.target.ID, topic: p.topic, content: fmt.Sprintf(format, people.SilentMention(p.me)), readBy: p.me.ID,
		read: func(u users.ID) bool { return u == p.me.ID || !unread[u] }}
	return s.postNotices(tx, ev, w, []botNotice{n})
}

// isResolveNotice reports whether m is the notification bot's resolve notice.
func isResolveNotice(m messages.Message) bool {
	if m.SenderID != NotificationBotID {
		return false
	}
	for _, f := range []string{resolvedNotice, unresolvedNotice} {
		if strings.HasSuffix(m.Content, strings.TrimPrefix(f, "%s")) {
			return true
		}
	}
	return false
}

// resolveNoticeUnread is the set of c's human subscribers who get a resolve notice unread.
func resolveNoticeUnread(w *world.World, tx storage.Tx, c channels.Channel, topic string) (map[users.ID]bool, error) {
	subs := w.SubscribersOf(c.ID)
	settings, err := tx.UserSettings().GetMany(subs)
	if err != nil {
		return nil, err
	}
	follows, err := tx.UserTopics().ListForTopic(c.ID, topic)
	if err != nil {
		return nil, err
	}
	following := map[users.ID]bool{}
	for _, r := range follows {
		following[r.UserID] = r.Policy == topics.PolicyFollowed
	}
	out := map[users.ID]bool{}
	for _, u := range subs {
		if w.User(u).IsBot() {
			continue
		}
		switch settings[u].Value("resolved_topic_notice_auto_read_policy") {
		case "never":
			out[u] = true
		case "except_followed":
			out[u] = following[u]
		}
	}
	return out, nil
}

// MessageLink is the Markdown link to message id in topic of channel c:
// #**channel>topic@id**, or a plain link to it when a name holds characters the short form
// cannot.
func MessageLink(c channels.Channel, topic string, id messages.ID) string {
	if !brokenLinkChars.MatchString(c.Name) && !brokenLinkChars.MatchString(topic) {
		return fmt.Sprintf("#**%s>%s@%d**", c.Name, topic, id)
	}
	escape := func(s string) string { return brokenLinkChars.ReplaceAllStringFunc(s, htmlEntity) }
	return fmt.Sprintf("[#%s > %s @ 💬](%s/near/%d)", escape(c.Name), escape(topic), TopicNarrow(c, topic), id)
}
