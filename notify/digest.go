package notify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TriggerDigest marks a pending row that is a digest email rather than a message's.
const TriggerDigest = "digest"

// Zulip's digest rules (zerver/lib/digest.py).
const (
	// DigestCutoff is how long a user must have been away (no recorded activity) to get a
	// digest (Zulip's DIGEST_CUTOFF, 5 days).
	DigestCutoff = 5 * 24 * time.Hour
	// digestLookback is the period whose conversations, channels and users a digest tells of.
	digestLookback = 7 * 24 * time.Hour
	// Bounds of a digest's content (Zulip shows 4 hot conversations of up to 2 messages).
	maxHotConversations = 4
	maxNewChannels      = 5
	maxNewUsers         = 10
	// maxTopicsPerChannel and maxTopicMessages bound the reads that find hot conversations.
	maxTopicsPerChannel = 20
	maxTopicMessages    = 200
)

// QueueDigestsParams are the parameters of QueueDigests.
type QueueDigestsParams struct {
	// Now queues the digests whatever the day (the operator's "run a digest pass now"): the
	// organization's and users' settings still apply, and the day is not marked done.
	Now bool
}

// QueueDigestsResult says how many digests were queued.
type QueueDigestsResult struct {
	Queued int
}

// weekday is Zulip's weekday of t (0 is Monday, as Python's datetime.weekday and the
// organization's digest_weekday), in UTC.
func weekday(t time.Time) int64 { return int64((t.UTC().Weekday() + 6) % 7) }

// QueueDigests queues, on the organization's digest_weekday (UTC) when
// digest_emails_enabled is on, a digest email for each active human with enable_digest_emails
// who has not been active for DigestCutoff (Zulip's enqueue_emails). Each day is queued once,
// by one process (the day is recorded in the same transaction); the digests are then sent by
// DeliverEmails like the missed-message emails, and survive a restart the same way.
func (s *Service) QueueDigests(ctx context.Context, p QueueDigestsParams) (QueueDigestsResult, error) {
	var res QueueDigestsResult
	err := s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		res = QueueDigestsResult{}
		org, err := o.Tx.Realm().Get()
		if err != nil {
			return err
		}
		if !org.Bool("digest_emails_enabled") || org.Deactivated {
			return nil
		}
		if !p.Now {
			if weekday(o.Now) != org.Int("digest_weekday") {
				return nil
			}
			claimed, err := o.Tx.PendingEmails().ClaimDigestDay(o.Now.UTC().Unix() / 86400)
			if err != nil || !claimed {
				return err
			}
		}
		rows, err := digestRows(o.Tx, o.Now)
		if err != nil || len(rows) == 0 {
			return err
		}
		res.Queued = len(rows)
		return o.Tx.PendingEmails().Create(rows)
	})
	return res, err
}

// digestRows are the pending digests of the users a digest is for at now.
func digestRows(tx storage.Tx, now time.Time) ([]storage.PendingEmail, error) {
	all, err := tx.Users().List()
	if err != nil {
		return nil, err
	}
	active, err := tx.Users().ActiveSince(now.Add(-DigestCutoff).Unix())
	if err != nil {
		return nil, err
	}
	settings, err := tx.UserSettings().List()
	if err != nil {
		return nil, err
	}
	var rows []storage.PendingEmail
	for _, u := range all {
		if !u.IsActive || u.IsBot() || u.Email == "" || slices.Contains(active, u.ID) {
			continue
		}
		if on, _ := settings[u.ID].Value("enable_digest_emails").(bool); !on {
			continue
		}
		rows = append(rows, storage.PendingEmail{UserID: u.ID, Trigger: TriggerDigest, DueAt: now.UnixMilli()})
	}
	return rows, nil
}

// hotTopic is a conversation of the lookback period, as a digest ranks it.
type hotTopic struct {
	channel  channels.Channel
	topic    string
	messages []messages.Message // of the period, oldest first
	senders  int
}

// digestEmail is the digest of user u at now (Zulip's digest context: hot conversations of
// the user's channels, new channels, new users); nil when it would say nothing (Zulip sends
// none then).
func (r renderer) digestEmail(now time.Time) (*Email, error) {
	since := now.Add(-digestLookback)
	subs, err := r.tx.Subscriptions().ListForUsers([]users.ID{r.user.ID})
	if err != nil {
		return nil, err
	}
	var hot []hotTopic
	for _, sub := range subs {
		if !sub.Active || sub.IsMuted {
			continue
		}
		found, err := r.hotTopics(sub.ChannelID, since)
		if err != nil {
			return nil, err
		}
		hot = append(hot, found...)
	}
	slices.SortFunc(hot, func(a, b hotTopic) int {
		return cmp.Or(cmp.Compare(b.senders, a.senders), cmp.Compare(len(b.messages), len(a.messages)),
			cmp.Compare(a.messages[0].ID, b.messages[0].ID))
	})
	hot = hot[:min(len(hot), maxHotConversations)]
	newChannels, err := r.newChannels(since)
	if err != nil {
		return nil, err
	}
	newUsers, err := r.newUsers(since)
	if err != nil {
		return nil, err
	}
	if len(hot) == 0 && len(newChannels) == 0 {
		return nil, nil
	}
	subject := fmt.Sprintf("%s digest", r.org.Name)
	data := digestData{Subject: subject, Name: r.user.FullName, Org: r.org.Name, Base: r.base(),
		Preferences: r.base() + "#settings/notifications", NewChannels: newChannels, NewUsers: newUsers}
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\nHere is what happened in %s while you were away.\n\n", r.user.FullName, r.org.Name)
	if len(hot) > 0 {
		b.WriteString("Hot conversations:\n\n")
	}
	for _, h := range hot {
		block := hotBlock{Channel: h.channel.Name, Topic: h.topic, Count: len(h.messages),
			Link: fmt.Sprintf("%s#narrow/channel/%d-%s/topic/%s", r.base(), h.channel.ID, encodeHash(h.channel.Name), encodeHash(h.topic))}
		fmt.Fprintf(&b, "#%s > %s (%d messages)\n", h.channel.Name, h.topic, len(h.messages))
		if r.showContent() {
			for _, m := range h.messages[:min(2, len(h.messages))] {
				name, err := r.name(m.SenderID)
				if err != nil {
					return nil, err
				}
				fmt.Fprintf(&b, "  %s: %s\n", name, firstLine(m.Content))
				block.Lines = append(block.Lines, digestLine{Sender: name, Text: firstLine(m.Content)})
			}
		}
		fmt.Fprintf(&b, "  %s\n\n", block.Link)
		data.Hot = append(data.Hot, block)
	}
	if len(newChannels) > 0 {
		fmt.Fprintf(&b, "New channels: %s\n\n", strings.Join(newChannels, ", "))
	}
	if len(newUsers) > 0 {
		fmt.Fprintf(&b, "New users: %s\n\n", strings.Join(newUsers, ", "))
	}
	fmt.Fprintf(&b, "--\nVisit %s to catch up.\n\nManage digest emails:\n%s#settings/notifications\n", r.base(), r.base())
	html, err := render(digestHTML, data)
	if err != nil {
		return nil, err
	}
	return &Email{UserID: r.user.ID, To: r.user.Email, Subject: subject, Body: b.String(), HTML: html}, nil
}

// hotTopics are the topics of channel c with messages since since.
func (r renderer) hotTopics(c channels.ID, since time.Time) ([]hotTopic, error) {
	ch, err := r.tx.Channels().Get(c)
	if err != nil || ch.IsArchived {
		return nil, ignoreNotFound(err)
	}
	summaries, err := r.tx.Messages().Topics(c, r.user.ID, true)
	if err != nil {
		return nil, err
	}
	var out []hotTopic
	for _, t := range summaries[:min(len(summaries), maxTopicsPerChannel)] {
		ids, err := r.tx.Messages().TopicMessageIDs(c, t.Name, maxTopicMessages)
		if err != nil {
			return nil, err
		}
		msgs, err := r.tx.Messages().GetMany(ids)
		if err != nil {
			return nil, err
		}
		msgs = slices.DeleteFunc(msgs, func(m messages.Message) bool { return m.Timestamp < since.Unix() })
		if len(msgs) == 0 {
			break // topics come newest first: the others are older still
		}
		senders := map[users.ID]bool{}
		for _, m := range msgs {
			senders[m.SenderID] = true
		}
		out = append(out, hotTopic{channel: ch, topic: t.Name, messages: msgs, senders: len(senders)})
	}
	return out, nil
}

// newChannels names the public channels created since since.
func (r renderer) newChannels(since time.Time) ([]string, error) {
	all, err := r.tx.Channels().List()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range all {
		if !c.InviteOnly && !c.IsArchived && c.DateCreated >= since.Unix() && len(out) < maxNewChannels {
			out = append(out, "#"+c.Name)
		}
	}
	return out, nil
}

// newUsers names the humans who joined since since.
func (r renderer) newUsers(since time.Time) ([]string, error) {
	all, err := r.tx.Users().List()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, u := range all {
		if u.IsActive && !u.IsBot() && u.ID != r.user.ID && !u.DateJoined.Before(since) && len(out) < maxNewUsers {
			out = append(out, u.FullName)
		}
	}
	return out, nil
}

// firstLine is the first line of content, shortened for a digest.
func firstLine(content string) string {
	line, _, _ := strings.Cut(content, "\n")
	if r := []rune(line); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return line
}

// ignoreNotFound treats a missing row as nothing to report.
func ignoreNotFound(err error) error {
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	return nil
}
