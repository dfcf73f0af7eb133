package slackimport

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// defaultTopic is the topic of channel messages outside threads.
const defaultTopic = "imported from Slack"

// skippedSubtypes are notices Zulip has no use for: pins, joins, leaves and renames.
var skippedSubtypes = map[string]bool{
	"pinned_item": true, "unpinned_item": true, "channel_join": true, "channel_leave": true, "channel_name": true,
}

// eachDay calls fn with the messages of each day of every conversation, oldest day first,
// each day's messages ordered by time. Messages of the "U00" user (a Slack export bug) and
// Slack posts (HTML documents) are left out.
func (c *conversion) eachDay(ctx context.Context, fn func([]*slackMessage) error) error {
	dirs := map[string]convKind{}
	for _, ch := range c.channels {
		dirs[ch.Name] = kindChannel
	}
	for _, g := range c.mpims {
		dirs[g.Name] = kindMPIM
	}
	for id := range c.dmMembers {
		dirs[id] = kindDM
	}
	byDay := map[string][]string{}
	for dir := range dirs {
		for _, day := range c.arch.dayDir[dir] {
			byDay[day] = append(byDay[day], dir)
		}
	}
	days := make([]string, 0, len(byDay))
	for d := range byDay {
		days = append(days, d)
	}
	slices.Sort(days)
	for _, day := range days {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("slackimport: %w", err)
		}
		dayDirs := byDay[day]
		slices.Sort(dayDirs)
		var all []*slackMessage
		for _, dir := range dayDirs {
			var msgs []*slackMessage
			if err := c.arch.readJSON(dir+"/"+day, &msgs); err != nil {
				return err
			}
			for _, m := range msgs {
				ts, ok := parseTime(strings.TrimSpace(tsOf(m)))
				if !ok || m.User == "U00" || m.Mimetype == "application/vnd.slack-docs" {
					continue // no time (or none that makes sense), a Slack export bug, a post
				}
				m.conv, m.kind, m.ts = dir, dirs[dir], ts
				all = append(all, m)
			}
		}
		slices.SortStableFunc(all, func(a, b *slackMessage) int { return cmp.Compare(a.ts, b.ts) })
		if err := fn(all); err != nil {
			return err
		}
	}
	return nil
}

func tsOf(m *slackMessage) string {
	if m == nil {
		return ""
	}
	return m.TS
}

// batch is the rows of one messages-NNNNNN.json file being filled.
type batch struct {
	msgs []zulipdir.Message
	ums  []zulipdir.UserMessage
}

// threads names the topics of Slack threads.
type threads struct {
	topicOf map[string]string // thread key -> topic
	counter map[string]int    // truncated topic -> threads named so
	parent  map[string]string // thread_ts -> Slack id of the thread's author
}

func (c *conversion) convertMessages(ctx context.Context) error {
	var b batch
	th := threads{topicOf: map[string]string{}, counter: map[string]int{}, parent: map[string]string{}}
	emojiIndex := newEmojiNames()
	flush := func() error {
		if len(b.msgs) == 0 {
			return nil
		}
		if err := c.out.WriteMessages(b.msgs, b.ums); err != nil {
			return fmt.Errorf("slackimport: %w", err)
		}
		b = batch{}
		return nil
	}
	err := c.eachDay(ctx, func(msgs []*slackMessage) error {
		for _, m := range msgs {
			if err := c.convertMessage(ctx, m, &b, &th, emojiIndex); err != nil {
				return err
			}
			if len(b.msgs) >= zulipdir.MessageChunkSize {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// convertMessage converts one Slack message into a message, its UserMessage rows, its
// reactions and its files.
func (c *conversion) convertMessage(ctx context.Context, m *slackMessage, b *batch, th *threads, ix *emojiNames) error {
	sender := m.sender()
	if sender == "" || skippedSubtypes[m.Subtype] {
		c.stats.SkippedMessages++
		return nil
	}
	senderID, ok := c.zulipID[sender]
	if !ok {
		c.stats.SkippedMessages++
		return nil
	}
	content, mentioned, hasLink := c.text.convertText(messageMarkup(m.Text, m.Blocks, m.Attachments))
	if m.Subtype == "bot_add" || m.Subtype == "sh_room_created" || m.Subtype == "me_message" {
		content = "/me " + content
	}
	var recipient, senderRecipient int64
	private := m.kind != kindChannel
	switch m.kind {
	case kindChannel, kindMPIM:
		recipient = c.recipientOf[m.conv]
	case kindDM:
		pair := c.dmMembers[m.conv]
		other, self := pair[1], pair[0]
		if sender != pair[0] {
			other, self = pair[0], pair[1]
		}
		recipient, senderRecipient = c.recipientOf[other], c.recipientOf[self]
	}
	id := c.msgSeq.Next()
	c.convertReactions(m.Reactions, id, ix)
	files, err := c.convertFiles(ctx, m, id, senderID)
	if err != nil {
		return err
	}
	content = joinNonEmpty(content, files.content)
	topic := ""
	if !private {
		topic = defaultTopic
		if _, ok := parseTime(m.ThreadTS); ok && !c.opts.SingleTopic {
			topic = th.topic(m, content)
		}
	}
	b.msgs = append(b.msgs, zulipdir.Message{
		ID: id, Sender: senderID, Recipient: recipient, Realm: realmID, Topic: topic,
		Content: zulipdir.NormalizeBody(content), RenderedContentVersion: 1, Type: zulipdir.MessageTypeNormal, DateSent: m.ts,
		SendingClient: zulipdir.ImportClientID, HasAttachment: files.hasAttachment,
		HasImage: files.hasImage, HasLink: hasLink || files.hasLink, IsChannelMessage: !private,
	})
	users := slices.Clone(c.subscribers[recipient])
	if m.kind == kindDM {
		users = append(users, c.subscribers[senderRecipient]...)
	}
	wildcard := strings.Contains(content, "@**all**")
	b.ums = append(b.ums, zulipdir.UserMessages(&c.umSeq, id, users, mentioned, wildcard, private)...)
	c.stats.Messages++
	return nil
}

func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n")
}

// topic names the thread of a channel message: the thread's date and the start of its first
// message, numbered when two threads would share a name ("2024-05-22 Hello this is… (2)").
// Replies join the topic of their thread, keyed by the thread's time and author.
func (th *threads) topic(m *slackMessage, content string) string {
	threadTS, _ := parseTime(m.ThreadTS)
	when := time.Unix(0, int64(threadTS*1e9)).UTC()
	key := when.Format("2006/01/02 15:04:05") + "-" + th.parentOf(m)
	if t, ok := th.topicOf[key]; ok {
		return t
	}
	// Unlike Zulip's converter, line breaks and runs of spaces become one space: a topic is
	// one line, and the Zulip-format import checks it as a sent topic.
	base := strings.Join(strings.Fields(when.Format("2006-01-02")+" "+content), " ")
	truncated := zulipdir.Truncate(base, zulipdir.MaxTopicLength, "…")
	n := th.counter[truncated]
	th.counter[truncated]++
	suffix := ""
	if n > 0 {
		suffix = fmt.Sprintf(" (%d)", n+1)
	}
	t := zulipdir.Truncate(base, zulipdir.MaxTopicLength-len([]rune(suffix)), "…") + suffix
	th.topicOf[key] = t
	return t
}

// parentOf is the Slack id of the author of the thread m belongs to.
func (th *threads) parentOf(m *slackMessage) string {
	switch {
	case m.Subtype == "thread_broadcast" && m.Root != nil:
		return cmp.Or(m.Root.User, m.Root.BotID)
	case m.ThreadTS == m.TS:
		p := cmp.Or(m.User, m.BotID)
		th.parent[m.ThreadTS] = p
		return p
	case m.ParentUserID != "":
		return m.ParentUserID
	case m.BotID != "":
		return m.BotID
	}
	return th.parent[m.ThreadTS]
}

// convertReactions adds the message's reactions. Skin tones (clap::skin-tone-2) merge into
// the base emoji; unknown emoji and users are skipped; a user reacts once per emoji.
func (c *conversion) convertReactions(rs []slackReaction, messageID int64, ix *emojiNames) {
	type key struct {
		user int64
		code string
	}
	done := map[key]bool{}
	for _, r := range rs {
		name, _, _ := strings.Cut(r.Name, "::")
		typ := zulipdir.ReactionUnicode
		zulipName, code, ok := ix.lookup(name)
		if !ok {
			id, custom := c.realmEmoji[name]
			if !custom {
				c.log.Debug("slackimport: unknown emoji in a reaction", "emoji", r.Name)
				continue
			}
			typ, zulipName, code = zulipdir.ReactionRealm, name, strconv.FormatInt(id, 10)
		}
		for _, su := range r.Users {
			uid, ok := c.zulipID[su]
			if !ok || done[key{uid, typ + code}] {
				continue
			}
			done[key{uid, typ + code}] = true
			c.realm.Reaction = append(c.realm.Reaction, zulipdir.Reaction{
				ID: c.reactionSeq.Next(), Message: messageID, UserProfile: uid,
				EmojiName: zulipName, EmojiCode: code, ReactionType: typ,
			})
		}
	}
}
