package notify

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Email is one missed-message email: the messages of one conversation, to one user.
type Email struct {
	UserID   users.ID
	To       string
	Subject  string
	Body     string
	HTML     string // the HTML alternative ("" for none)
	Messages []messages.Message
}

// conversationKey groups messages as Zulip's handle_missedmessage_emails does: a direct
// message conversation by its participants, a channel's by channel and topic.
func conversationKey(m messages.Message) string {
	if m.IsDirect() {
		ids := slices.Clone(m.Recipients)
		slices.Sort(ids)
		return fmt.Sprint("dm", ids)
	}
	return fmt.Sprintf("c%d/%s", m.ChannelID, strings.ToLower(m.Topic))
}

// renderer writes one user's emails, reading names as it needs them.
type renderer struct {
	tx       storage.Tx
	org      realms.Realm
	user     users.User
	settings users.Settings
	names    map[users.ID]string
}

func (r renderer) name(id users.ID) (string, error) {
	if n, ok := r.names[id]; ok {
		return n, nil
	}
	u, err := r.tx.Users().Get(id)
	if err != nil {
		return "", err
	}
	r.names[id] = u.FullName
	return u.FullName, nil
}

// showContent reports whether the emails may include the messages' content: the user's
// message_content_in_email_notifications and the organization's
// message_content_allowed_in_email_notifications.
func (r renderer) showContent() bool {
	mine, _ := r.settings.Value("message_content_in_email_notifications").(bool)
	return mine && r.org.Bool("message_content_allowed_in_email_notifications")
}

// email is the email of one conversation's messages (sorted by id), as Zulip's
// do_send_missedmessage_events_reply_in_zulip words it: the subject names the conversation,
// the body each message's sender (and content when allowed), why the email was sent (the
// triggers of its notifications) and a link to the conversation.
func (r renderer) email(msgs []messages.Message, triggers []string) (Email, error) {
	slices.SortFunc(msgs, func(a, b messages.Message) int { return int(a.ID - b.ID) })
	first := msgs[0]
	subject, link, err := r.conversation(first)
	if err != nil {
		return Email{}, err
	}
	var b strings.Builder
	show := r.showContent()
	data := missedData{Subject: subject, Link: link, Org: r.org.Name, Preferences: r.base() + "#settings/notifications", ShowContent: show}
	for _, m := range msgs {
		sender, err := r.name(m.SenderID)
		if err != nil {
			return Email{}, err
		}
		if show {
			fmt.Fprintf(&b, "%s:\n%s\n\n", sender, m.Content)
			data.Senders = addMessage(data.Senders, sender, m, r.base())
		} else {
			fmt.Fprintf(&b, "New message from %s.\n\n", sender)
		}
	}
	if !show {
		b.WriteString("This email does not include message content because you have disabled message content in email notifications, or your organization does not allow it.\n\n")
	}
	b.WriteString("--\n")
	why, err := r.reason(first, triggers)
	if err != nil {
		return Email{}, err
	}
	if why != "" {
		b.WriteString(why + "\n\n")
	}
	fmt.Fprintf(&b, "View or reply in %s:\n%s\n\nManage email preferences:\n%s#settings/notifications\n",
		r.org.Name, link, r.base())
	data.Reason = why
	html, err := render(missedHTML, data)
	if err != nil {
		return Email{}, err
	}
	return Email{UserID: r.user.ID, To: r.user.Email, Subject: subject, Body: b.String(), HTML: html, Messages: msgs}, nil
}

// reason is the line of a channel conversation's email that says why it was sent (Zulip's
// missed_message.txt): the first, in the template's order, of the triggers of its
// notifications; "" for a direct message conversation. A group mention is worded as a
// personal one (the notification does not keep which group was mentioned).
func (r renderer) reason(m messages.Message, triggers []string) (string, error) {
	if m.IsDirect() {
		return "", nil
	}
	c, err := r.tx.Channels().Get(m.ChannelID)
	if err != nil {
		return "", err
	}
	topic := m.Topic
	if topic == "" {
		topic = r.org.EmptyTopicDisplayName
	}
	for _, w := range []struct{ trigger, text string }{
		{TriggerMentioned, "You are receiving this because you were personally mentioned."},
		{TriggerTopicWildcardMentioned, fmt.Sprintf("You are receiving this because all topic participants were mentioned in #%s > %s.", c.Name, topic)},
		{TriggerStreamWildcardMentioned, fmt.Sprintf("You are receiving this because everyone was mentioned in #%s.", c.Name)},
		{TriggerFollowedTopic, "You are receiving this because you have email notifications enabled for topics you follow."},
		{TriggerStreamEmail, fmt.Sprintf("You are receiving this because you have email notifications enabled for #%s.", c.Name)},
	} {
		if slices.Contains(triggers, w.trigger) {
			return w.text, nil
		}
	}
	return "", nil
}

// base is the organization's URL ending in a slash.
func (r renderer) base() string {
	u := r.org.URL
	if !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u
}

// conversation is the subject of m's conversation and the link to it (Zulip's narrow URLs).
func (r renderer) conversation(m messages.Message) (subject, link string, err error) {
	if !m.IsDirect() {
		c, err := r.tx.Channels().Get(m.ChannelID)
		if err != nil {
			return "", "", err
		}
		topic := m.Topic
		if topic == "" {
			topic = r.org.EmptyTopicDisplayName
		}
		return fmt.Sprintf("#%s > %s", c.Name, topic),
			fmt.Sprintf("%s#narrow/channel/%d-%s/topic/%s", r.base(), c.ID, encodeHash(c.Name), encodeHash(m.Topic)), nil
	}
	var others []users.ID
	for _, id := range m.Recipients {
		if id != r.user.ID {
			others = append(others, id)
		}
	}
	if len(others) <= 1 {
		sender, err := r.name(m.SenderID)
		if err != nil {
			return "", "", err
		}
		return "DMs with " + sender, fmt.Sprintf("%s#narrow/dm/%d-%s", r.base(), m.SenderID, encodeHash(sender)), nil
	}
	names := make([]string, len(others))
	all := make([]string, len(m.Recipients))
	for i, id := range others {
		if names[i], err = r.name(id); err != nil {
			return "", "", err
		}
	}
	for i, id := range m.Recipients {
		all[i] = strconv.FormatInt(int64(id), 10)
	}
	return "Group DMs with " + strings.Join(names, ", "), fmt.Sprintf("%s#narrow/dm/%s-group", r.base(), strings.Join(all, ",")), nil
}

// encodeHash is Zulip's hash_util_encode: percent-encoding with '.' for '%'.
func encodeHash(s string) string {
	e := strings.ReplaceAll(url.PathEscape(s), ".", "%2E")
	e = strings.ReplaceAll(e, "/", "%2F")
	return strings.ReplaceAll(e, "%", ".")
}
