package mattermostimport

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/transfer/zulipdir"
)

// defaultTopic is the topic of every converted channel message.
const defaultTopic = "imported from mattermost"

// imageExtensions are the file extensions Zulip previews as images.
var imageExtensions = []string{".bmp", ".gif", ".jpe", ".jpeg", ".jpg", ".png", ".webp"}

// emojiNameRE is what a custom emoji name may be (it becomes a file name).
var emojiNameRE = regexp.MustCompile(`^[a-z0-9_+-]{1,60}$`)

// convertEmoji copies the custom emoji images into emoji/ and makes the realm emoji. An emoji
// whose image is missing or outside the export's directory is skipped.
func (c *conversion) convertEmoji() ([]zulipdir.EmojiRecord, error) {
	c.emojiID = map[string]int64{}
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return nil, fmt.Errorf("mattermostimport: %w", err)
	}
	defer root.Close()
	var seq zulipdir.Seq
	var records []zulipdir.EmojiRecord
	for _, e := range c.data.emoji {
		if !emojiNameRE.MatchString(e.Name) || c.emojiID[e.Name] != 0 {
			c.log.Warn("mattermostimport: skipping custom emoji", "name", e.Name)
			continue
		}
		rel := zulipdir.EmojiPathID(realmID, e.Name)
		if err := c.copyIn(root, e.Image, "emoji", rel); err != nil {
			if errors.Is(err, errSkip) {
				c.log.Warn("mattermostimport: skipping custom emoji", "name", e.Name, "err", err)
				continue
			}
			return nil, err
		}
		id := seq.Next()
		c.emojiID[e.Name] = id
		c.realm.RealmEmoji = append(c.realm.RealmEmoji, zulipdir.RealmEmoji{ID: id, Realm: realmID, Name: e.Name, FileName: e.Name})
		records = append(records, zulipdir.EmojiRecord{ID: id, Path: rel, S3Path: rel, FileName: e.Name, RealmID: realmID, Name: e.Name})
	}
	return records, nil
}

// errSkip marks a file of the export that cannot be copied: missing, not a regular file, or
// outside the export's directory.
var errSkip = errors.New("mattermostimport: unusable file")

// copyIn copies the file rel of the export (relative to root, which it cannot leave, symbolic
// links included) to rel under area of the output, and returns its size.
func (c *conversion) copyIn(root *os.Root, src, area, dst string) error {
	_, err := c.copyInSize(root, src, area, dst)
	return err
}

func (c *conversion) copyInSize(root *os.Root, src, area, dst string) (int64, error) {
	clean, err := zulipdir.SafeRel(src)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errSkip, err)
	}
	f, err := root.Open(filepath.FromSlash(clean))
	if err != nil {
		return 0, fmt.Errorf("%w: %w", errSkip, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%w: %s is not a regular file", errSkip, src)
	}
	n, err := c.out.CopyFile(area, dst, f, c.opts.Limits.MaxFileSize)
	if err != nil {
		return 0, fmt.Errorf("mattermostimport: %w", err)
	}
	return n, nil
}

// rawMessage is a post or reply ready to convert.
type rawMessage struct {
	sender      string
	content     string
	createAt    int64
	reactions   []mmReaction
	attachments []mmAttachment
	channel     string   // a channel post
	members     []string // a direct post
	private     bool
}

// convertPosts converts the team's posts and replies (replies right after their post, as
// Zulip does) and, for an export of one team, the direct posts; in time order.
func (c *conversion) convertPosts(ctx context.Context) error {
	var raws []rawMessage
	add := func(p mmPost, channel string, members []string, private bool) {
		raws = append(raws, rawMessage{p.User, p.Message, p.CreateAt, p.Reactions, p.Attachments, channel, members, private})
	}
	for _, p := range c.data.posts {
		if p.Team != c.team.Name {
			continue
		}
		add(p, p.Channel, nil, false)
		for _, r := range p.Replies {
			add(r, p.Channel, nil, false)
		}
	}
	if c.single {
		for _, p := range c.data.directPosts {
			add(p, "", p.ChannelMembers, true)
			for _, r := range p.Replies {
				add(r, "", p.ChannelMembers, true)
			}
		}
	}
	slices.SortStableFunc(raws, func(a, b rawMessage) int { return cmp.Compare(a.createAt, b.createAt) })
	dataRoot, err := os.OpenRoot(c.dir)
	if err != nil {
		return fmt.Errorf("mattermostimport: %w", err)
	}
	defer dataRoot.Close()
	ix := emoji.NewIndex()
	var msgSeq, umSeq, reactionSeq zulipdir.Seq
	var msgs []zulipdir.Message
	var ums []zulipdir.UserMessage
	for _, raw := range raws {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("mattermostimport: %w", err)
		}
		m, users, mentioned, wildcard, ok := c.prepare(raw)
		if !ok {
			c.stats.SkippedMessages++
			continue
		}
		m.ID = msgSeq.Next()
		if len(raw.attachments) > 0 {
			if err := c.attach(dataRoot, raw.attachments, &m); err != nil {
				return err
			}
		}
		m.Content = zulipdir.NormalizeBody(m.Content)
		msgs = append(msgs, m)
		ums = append(ums, zulipdir.UserMessages(&umSeq, m.ID, users, mentioned, wildcard, raw.private)...)
		c.reactions(raw.reactions, m.ID, ix, &reactionSeq)
		c.stats.Messages++
		if len(msgs) >= zulipdir.MessageChunkSize {
			if err := c.out.WriteMessages(msgs, ums); err != nil {
				return fmt.Errorf("mattermostimport: %w", err)
			}
			msgs, ums = nil, nil
		}
	}
	if len(msgs) > 0 {
		if err := c.out.WriteMessages(msgs, ums); err != nil {
			return fmt.Errorf("mattermostimport: %w", err)
		}
	}
	return nil
}

// prepare converts a raw message's sender, recipient and content; ok is false for a message
// to skip (unknown sender or conversation, too long).
func (c *conversion) prepare(raw rawMessage) (m zulipdir.Message, users, mentioned []int64, wildcard, ok bool) {
	sender, ok := c.userID[raw.sender]
	if !ok {
		return m, nil, nil, false, false
	}
	content := raw.content
	if c.opts.MaskContent {
		content = maskContent(content)
	}
	content, mentioned, wildcard = c.convertMentions(content)
	content = strings.TrimRight(content, " \t\r\n")
	if len([]rune(content)) > zulipdir.MaxMessageLength {
		c.log.Info("mattermostimport: skipping a too long message", "length", len(content))
		return m, nil, nil, false, false
	}
	var recipient int64
	topic := ""
	switch {
	case raw.channel != "":
		sid, found := c.streamID[raw.channel]
		if !found {
			return m, nil, nil, false, false
		}
		recipient = c.recipient[[2]int64{zulipdir.RecipientStream, sid}]
		topic = defaultTopic
	case len(raw.members) > 2:
		hid, found := c.huddleID[huddleKey(raw.members)]
		if !found {
			return m, nil, nil, false, false
		}
		recipient = c.recipient[[2]int64{zulipdir.RecipientHuddle, hid}]
	case len(raw.members) >= 1:
		other := raw.members[0]
		if len(raw.members) == 2 && c.userID[raw.members[0]] == sender {
			other = raw.members[1]
		}
		oid, found := c.userID[other]
		if !found {
			return m, nil, nil, false, false
		}
		recipient = c.recipient[[2]int64{zulipdir.RecipientPersonal, oid}]
	default:
		return m, nil, nil, false, false
	}
	users = append(slices.Clone(c.subs[recipient]), sender)
	m = zulipdir.Message{
		Sender: sender, Recipient: recipient, Realm: realmID, Topic: topic, Content: content,
		RenderedContentVersion: 1, Type: zulipdir.MessageTypeNormal, DateSent: float64(raw.createAt / 1000),
		SendingClient: zulipdir.ImportClientID, IsChannelMessage: raw.channel != "",
	}
	return m, users, mentioned, wildcard, true
}

// attach copies the message's attachments (under the export's data/ directory) into
// uploads/ and links them at the end of the message.
func (c *conversion) attach(root *os.Root, atts []mmAttachment, m *zulipdir.Message) error {
	var links []string
	for _, a := range atts {
		name := path.Base(a.Path)
		pathID, err := zulipdir.UploadPathID(realmID, name)
		if err != nil {
			return err
		}
		size, err := c.copyInSize(root, path.Join("data", a.Path), "uploads", pathID)
		if errors.Is(err, errSkip) {
			c.log.Warn("mattermostimport: skipping attachment", "path", a.Path, "err", err)
			continue
		}
		if err != nil {
			return err
		}
		if slices.Contains(imageExtensions, strings.ToLower(path.Ext(name))) {
			m.HasImage = true
		}
		m.HasAttachment, m.HasLink = true, true
		links = append(links, fmt.Sprintf("[%s](/user_uploads/%s)", name, pathID))
		c.attachment = append(c.attachment, zulipdir.Attachment{
			ID: c.attachSeq.Next(), Realm: realmID, Owner: m.Sender, Messages: []int64{m.ID}, PathID: pathID,
			FileName: name, Size: size, CreateTime: m.DateSent, IsRealmPublic: true,
		})
		c.uploads = append(c.uploads, zulipdir.UploadRecord{
			Path: pathID, S3Path: pathID, RealmID: realmID, UserProfileID: m.Sender,
			UserProfileEmail: c.users[m.Sender].Email, Size: size, LastModified: m.DateSent,
		})
	}
	if len(links) > 0 {
		m.Content = strings.TrimRight(m.Content+"\n\n"+strings.Join(links, "\n"), "\n")
	}
	return nil
}

// reactions converts a message's reactions: unicode emoji by Zulip's names, then the
// organization's custom emoji; unknown emoji and users are skipped.
func (c *conversion) reactions(rs []mmReaction, messageID int64, ix *emoji.Index, seq *zulipdir.Seq) {
	seen := map[[2]string]bool{}
	for _, r := range rs {
		uid, ok := c.userID[r.User]
		if !ok {
			continue
		}
		typ, code := zulipdir.ReactionUnicode, ""
		if cd, ok := ix.Code(r.EmojiName); ok {
			code = cd
		} else if id, ok := c.emojiID[r.EmojiName]; ok {
			typ, code = zulipdir.ReactionRealm, strconv.FormatInt(id, 10)
		} else {
			continue
		}
		key := [2]string{strconv.FormatInt(uid, 10), typ + code}
		if seen[key] {
			continue
		}
		seen[key] = true
		c.realm.Reaction = append(c.realm.Reaction, zulipdir.Reaction{
			ID: seq.Next(), Message: messageID, UserProfile: uid, EmojiName: r.EmojiName,
			EmojiCode: code, ReactionType: typ,
		})
	}
}

func maskContent(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'x'
		case r >= 'A' && r <= 'Z':
			return 'X'
		}
		return r
	}, s)
}

// isUsernameChar is a character that may not stand right before a mention's @.
func isUsernameChar(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.'
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// mentionAt returns the username of a mention starting with the @ at s[i], or "": runs of
// letters and digits, each optionally followed by one "_" or "." (user.name, user_name,
// username.), after the start of the text or a character that cannot be in a username.
func mentionAt(s string, i int) string {
	if s[i] != '@' || (i > 0 && isUsernameChar(s[i-1])) {
		return ""
	}
	j := i + 1
	for j < len(s) && isAlnum(s[j]) {
		k := j
		for k < len(s) && isAlnum(s[k]) {
			k++
		}
		if k < len(s) && (s[k] == '_' || s[k] == '.') {
			k++
		}
		j = k
	}
	return s[i+1 : j]
}

// convertMentions turns @username into @**Full Name** for the converted users and @channel,
// @all and @here into @**all**. It returns the mentioned users and whether everyone was.
func (c *conversion) convertMentions(s string) (string, []int64, bool) {
	var b strings.Builder
	var mentioned []int64
	wildcard := false
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '@' {
			continue
		}
		name := mentionAt(s, i)
		if name == "" {
			continue
		}
		repl := ""
		if uid, ok := c.userID[name]; ok {
			repl = "@**" + c.users[uid].FullName + "**"
			if !slices.Contains(mentioned, uid) {
				mentioned = append(mentioned, uid)
			}
		} else if name == "channel" || name == "all" || name == "here" {
			repl, wildcard = "@**all**", true
		} else {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(repl)
		last = i + 1 + len(name)
		i = last - 1
	}
	b.WriteString(s[last:])
	return b.String(), mentioned, wildcard
}
