package markdown

import (
	"bytes"
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// MentionedUser is a user a mention can name.
type MentionedUser struct {
	ID       int64
	FullName string
	Active   bool // a mention of an inactive user renders silent and notifies nobody
}

// MentionedGroup is a user group a mention can name.
type MentionedGroup struct {
	ID          int64
	Name        string
	Deactivated bool // a mention of a deactivated group renders silent and notifies nobody
}

// Resolver finds what the mention and channel-link syntax of one message names. A nil
// function resolves nothing; what is not resolved stays ordinary Markdown.
type Resolver struct {
	// UserByID returns the user with id.
	UserByID func(id int64) (MentionedUser, bool)
	// UserByName returns the user whose full name is name (ignoring case).
	UserByName func(name string) (MentionedUser, bool)
	// Group returns the user group named name.
	Group func(name string) (MentionedGroup, bool)
	// Channel returns the id of the channel named name that the sender may link to.
	Channel func(name string) (int64, bool)
}

// Mentions are the mentions that notify: the users and groups mentioned (not silently), in
// the order first mentioned, and whether a channel-wide or topic-wide wildcard was used.
type Mentions struct {
	UserIDs        []int64
	GroupIDs       []int64
	StreamWildcard bool
	TopicWildcard  bool
}

// Options are the organization-specific parts of a rendering. The zero Options is Render.
type Options struct {
	Linkify  Linkify   // links found in plain text; nil for none
	Resolver *Resolver // mentions and channel links; nil renders them as ordinary Markdown
}

// emptyTopicName is the name shown for the empty topic in a topic link (Zulip's fallback).
const emptyTopicName = "general chat"

// mentionState carries the Resolver of one rendering and collects its Mentions.
type mentionState struct {
	r     *Resolver
	found Mentions
}

var mentionKey = parser.NewContextKey()

// mentionParser is the inline parser of @**user**, @*group* (each optionally silent with @_)
// and #**channel** / #**channel>topic** / #**channel>topic@message**. Code spans are parsed first by goldmark, so the
// syntax inside them stays literal.
type mentionParser struct{}

func (mentionParser) Trigger() []byte { return []byte{'@', '#'} }

// mentionAllowedBefore reports whether a mention may follow r: the start of a line, space or
// one of '"({[/< (Zulip's rule, so that e.g. an e-mail address is no mention).
func mentionAllowedBefore(r rune) bool {
	return r == '\n' || unicode.IsSpace(r) || strings.ContainsRune(`'"({[/<`, r)
}

func (mentionParser) Parse(_ ast.Node, block text.Reader, pc parser.Context) ast.Node {
	st, _ := pc.Get(mentionKey).(*mentionState)
	if st == nil || !mentionAllowedBefore(block.PrecendingCharacter()) {
		return nil
	}
	line, _ := block.PeekLine()
	var n *mentionNode
	var length int
	if line[0] == '#' {
		n, length = st.channelLink(line)
	} else {
		n, length = st.mention(line)
	}
	if n == nil {
		return nil
	}
	block.Advance(length)
	return n
}

// starred returns the text between open and the next '*' of line and the length up to and
// including close: "**" + name + "**" or "*" + name + "*", the name non-empty and free of '*'.
func starred(line []byte, delim string) (string, int, bool) {
	if !bytes.HasPrefix(line, []byte(delim)) {
		return "", 0, false
	}
	rest := line[len(delim):]
	end := bytes.IndexByte(rest, '*')
	if end <= 0 || !bytes.HasPrefix(rest[end:], []byte(delim)) {
		return "", 0, false
	}
	name := string(rest[:end])
	if strings.ContainsAny(name, "\r\n") {
		return "", 0, false
	}
	return name, 2*len(delim) + end, true
}

// mention parses a user or group mention at the start of line ('@').
func (st *mentionState) mention(line []byte) (*mentionNode, int) {
	pos := 1
	silent := len(line) > 1 && line[1] == '_'
	if silent {
		pos++
	}
	if name, n, ok := starred(line[pos:], "**"); ok {
		if node := st.userMention(name, silent); node != nil {
			return node, pos + n
		}
		return nil, 0
	}
	if name, n, ok := starred(line[pos:], "*"); ok && st.r.Group != nil {
		g, found := st.r.Group(name)
		if !found {
			return nil, 0
		}
		silent = silent || g.Deactivated
		if !silent {
			st.found.GroupIDs = appendNew(st.found.GroupIDs, g.ID)
		}
		node := &mentionNode{tag: "span", class: "user-group-mention", attr: "data-user-group-id", value: strconv.FormatInt(g.ID, 10)}
		node.setText(silent, g.Name)
		return node, pos + n
	}
	return nil, 0
}

// userMention is the node of @**name**, @**name|id** or @**|id** (a wildcard when name is
// one), or nil when it names no user.
func (st *mentionState) userMention(name string, silent bool) *mentionNode {
	switch name {
	case "all", "everyone", "channel", "stream":
		st.found.StreamWildcard = st.found.StreamWildcard || !silent
		n := &mentionNode{tag: "span", class: "user-mention channel-wildcard-mention", attr: "data-user-id", value: "*"}
		n.setText(silent, name)
		return n
	case "topic":
		st.found.TopicWildcard = st.found.TopicWildcard || !silent
		n := &mentionNode{tag: "span", class: "topic-mention"}
		n.setText(silent, name)
		return n
	}
	var u MentionedUser
	var ok bool
	if full, idText, cut := cutLast(name, "|"); cut && isDigits(idText) {
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil || st.r.UserByID == nil {
			return nil
		}
		if u, ok = st.r.UserByID(id); !ok || full != "" && full != u.FullName {
			return nil
		}
	} else if st.r.UserByName == nil {
		return nil
	} else if u, ok = st.r.UserByName(name); !ok {
		return nil
	}
	silent = silent || !u.Active
	if !silent {
		st.found.UserIDs = appendNew(st.found.UserIDs, u.ID)
	}
	n := &mentionNode{tag: "span", class: "user-mention", attr: "data-user-id", value: strconv.FormatInt(u.ID, 10)}
	n.setText(silent, u.FullName)
	return n
}

// channelLink parses #**channel**, #**channel>topic** or #**channel>topic@message** at the
// start of line.
func (st *mentionState) channelLink(line []byte) (*mentionNode, int) {
	body, n, ok := starred(line[1:], "**")
	if !ok || st.r.Channel == nil {
		return nil, 0
	}
	if name, topic, cut := strings.Cut(body, ">"); cut && name != "" {
		if id, found := st.r.Channel(name); found {
			if t, msg, at := cutLast(topic, "@"); at && isDigits(msg) {
				// #**channel>topic@message**: a link to one message.
				node := &mentionNode{tag: "a", class: "message-link",
					href: "/#narrow/channel/" + ChannelSlug(id, name) + "/topic/" + HashComponent(t) + "/near/" + msg,
					text: "#" + name + " > " + t, emptyTopic: t == "", suffix: " @ 💬"}
				if t == "" {
					node.text = "#" + name + " > "
				}
				return node, 1 + n
			}
			node := &mentionNode{tag: "a", class: "stream-topic", attr: "data-stream-id", value: strconv.FormatInt(id, 10),
				href: "/#narrow/channel/" + ChannelSlug(id, name) + "/topic/" + HashComponent(topic),
				text: "#" + name + " > ", emptyTopic: topic == ""}
			if topic != "" {
				node.text += topic
			}
			return node, 1 + n
		}
	}
	id, found := st.r.Channel(body)
	if !found {
		return nil, 0
	}
	return &mentionNode{tag: "a", class: "stream", attr: "data-stream-id", value: strconv.FormatInt(id, 10),
		href: "/#narrow/channel/" + ChannelSlug(id, body), text: "#" + body}, 1 + n
}

// ChannelSlug is a channel's part of a narrow URL: its id, "-" and its name with spaces as
// "-", encoded by HashComponent.
func ChannelSlug(id int64, name string) string {
	return strconv.FormatInt(id, 10) + "-" + HashComponent(strings.ReplaceAll(name, " ", "-"))
}

// HashComponent encodes s for a narrow URL fragment: percent-encoding with "." in place of
// "%" (and "." itself written .2E).
func HashComponent(s string) string {
	var b strings.Builder
	for _, r := range []byte(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.IndexByte("_-~*", r) >= 0:
			b.WriteByte(r)
		case r == '.':
			b.WriteString(".2E")
		default:
			fmt.Fprintf(&b, ".%02X", r)
		}
	}
	return b.String()
}

func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func appendNew(ids []int64, id int64) []int64 {
	if slices.Contains(ids, id) {
		return ids
	}
	return append(ids, id)
}

// kindMention is the AST kind of mentionNode.
var kindMention = ast.NewNodeKind("Mention")

// mentionNode is a rendered mention or channel link: <tag class=… attr=value href=…>text</tag>,
// with the empty topic's name in <em> after text when emptyTopic, then suffix.
type mentionNode struct {
	ast.BaseInline
	tag, class, attr, value, href, text, suffix string
	emptyTopic                                  bool
}

func (n *mentionNode) Kind() ast.NodeKind { return kindMention }

func (n *mentionNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"class": n.class, "text": n.text}, nil)
}

// setText sets the shown text of a user or group mention: "@name", or name when silent
// (which also adds the class silent).
func (n *mentionNode) setText(silent bool, name string) {
	if silent {
		n.class += " silent"
		n.text = name
		return
	}
	n.text = "@" + name
}

// mentionRenderer writes mentionNode.
type mentionRenderer struct{}

func (mentionRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindMention, renderMention)
}

func renderMention(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*mentionNode)
	_, _ = fmt.Fprintf(w, `<%s class="%s"`, n.tag, n.class)
	if n.attr != "" {
		_, _ = fmt.Fprintf(w, ` %s="%s"`, n.attr, html.EscapeString(n.value))
	}
	if n.href != "" {
		_, _ = fmt.Fprintf(w, ` href="%s"`, html.EscapeString(n.href))
	}
	_, _ = w.WriteString(">" + html.EscapeString(n.text))
	if n.emptyTopic {
		_, _ = w.WriteString("<em>" + emptyTopicName + "</em>")
	}
	_, _ = w.WriteString(html.EscapeString(n.suffix))
	_, _ = fmt.Fprintf(w, "</%s>", n.tag)
	return ast.WalkSkipChildren, nil
}
