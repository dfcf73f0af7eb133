package slackimport

import (
	"regexp"
	"strings"
	"unicode"
)

// The Slack markup that becomes Zulip Markdown, as zerver/data_import/slack_message_conversion.py
// converts it.
var (
	// <http://www.foo.com|www.foo.com> and <http://foo.com/>.
	linkRE = regexp.MustCompile(`<(?:http://www\.|https://www\.|http://|https://|ftp://)?` +
		`[a-z0-9]+(?:[\-.][a-z0-9]+)*\.[a-z]{2,63}(?::[0-9]{1,5})?(?:/[^>]*)?\|?(?:\|[^>]+)?>`)
	// <mailto:foo@foo.com|foo@foo.com>; group 1 is what remains.
	mailtoRE = regexp.MustCompile(`<((?:mailto:)?[\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(?:\.[\p{L}\p{N}_]+)+)` +
		`\|?(?:[\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(?:\.[\p{L}\p{N}_]+)+)?>`)
	// <@U061A1R2R> or <@U061A1R2R|name>: group 1 the user id, group 3 the short name.
	userMentionRE = regexp.MustCompile(`<@([a-zA-Z0-9]+)(\|)?([a-zA-Z0-9]+)?>`)
	// <#C5Z73A7RA|general> or <#C5Z73A7RA>: group 1 the channel id.
	channelLinkRE = regexp.MustCompile(`<#([A-Z0-9]+)(?:\|[^<>|]*)?>`)
)

// converter turns the text of Slack messages into Zulip Markdown. It knows the users (for
// mentions) and the channels (for channel links) of the workspace.
type converter struct {
	// users by Slack id: the full name a mention shows, the Slack name a short-form mention
	// must match, and the Zulip id.
	users map[string]mentionTarget
	// channels: Slack channel id to name.
	channels map[string]string
}

type mentionTarget struct {
	fullName  string
	slackName string
	zulipID   int64
}

// convertText converts one message's text: formatting (*bold*, _italic_, ~strike~), the
// workspace-wide mentions, channel links, user mentions, links and mailto links. It returns
// the Markdown, the Zulip ids of the users mentioned, and whether the text has a link.
func (c *converter) convertText(text string) (string, []int64, bool) {
	text = ConvertFormatting(text)
	text = strings.NewReplacer("<!everyone>", "@**all**", "<!channel>", "@**all**", "<!here>", "@**all**").Replace(text)
	text = channelLinkRE.ReplaceAllStringFunc(text, func(m string) string {
		if name, ok := c.channels[channelLinkRE.FindStringSubmatch(m)[1]]; ok {
			return "#**" + name + "**"
		}
		return m
	})
	var mentioned []int64
	text = userMentionRE.ReplaceAllStringFunc(text, func(m string) string {
		g := userMentionRE.FindStringSubmatch(m)
		u, ok := c.users[g[1]]
		if !ok || (g[3] != "" && g[3] != u.slackName) {
			return m
		}
		mentioned = append(mentioned, u.zulipID)
		return "@**" + u.fullName + "**"
	})
	text, hasLink := convertLinks(text)
	return text, mentioned, hasLink
}

// convertLinks turns <https://foo.com> into https://foo.com, <https://foo.com|foo> into
// [foo](https://foo.com) and <mailto:a@b.c|a@b.c> into mailto:a@b.c. It reports whether
// there was any.
func convertLinks(text string) (string, bool) {
	has := false
	text = linkRE.ReplaceAllStringFunc(text, func(m string) string {
		has = true
		inner := m[1 : len(m)-1]
		if url, label, ok := strings.Cut(inner, "|"); ok {
			return "[" + label + "](" + url + ")"
		}
		return inner
	})
	text = mailtoRE.ReplaceAllStringFunc(text, func(m string) string {
		has = true
		return mailtoRE.FindStringSubmatch(m)[1]
	})
	return text, has
}

// ConvertFormatting maps Slack's *bold*, ~strike~ and _italic_ to Zulip's **bold**,
// ~~strike~~ and *italic*, in that order. Slack formats only whole words: a marker opens
// after the start of a line or a punctuation, space or symbol character (not the marker, `,
// @, \ or a closing bracket or quote) and closes before the end of a line or such a
// character (not the marker, `, @, \ or an opening bracket or quote). Text between two
// markers may span lines but holds no marker.
func ConvertFormatting(text string) string {
	text = convertMarker(text, '*', "**")
	text = convertMarker(text, '~', "~~")
	return convertMarker(text, '_', "*")
}

func convertMarker(text string, marker rune, zulip string) string {
	r := []rune(text)
	var b strings.Builder
	b.Grow(len(text) + 8)
	// next[i] is the index of the first marker at or after i (len(r) if none), so that each
	// attempt is constant time and the whole pass linear.
	next := make([]int, len(r)+1)
	next[len(r)] = len(r)
	for i := len(r) - 1; i >= 0; i-- {
		next[i] = next[i+1]
		if r[i] == marker {
			next[i] = i
		}
	}
	copied := 0 // r[:copied] is in b
	for i := 0; i < len(r); {
		open := -1
		switch {
		case opensAfter(r[i], marker) && i+1 < len(r) && r[i+1] == marker:
			open = i + 1
		case (i == 0 || r[i-1] == '\n') && r[i] == marker:
			open = i
		}
		if open < 0 {
			i++
			continue
		}
		end := next[open+1]
		if end == len(r) || end == open+1 || !closesBefore(r, end+1, marker) {
			i++
			continue
		}
		b.WriteString(string(r[copied:open]))
		b.WriteString(zulip)
		b.WriteString(string(r[open+1 : end]))
		b.WriteString(zulip)
		copied = end + 1
		i = end + 1
	}
	b.WriteString(string(r[copied:]))
	return b.String()
}

// opensAfter reports whether c may stand before an opening marker.
func opensAfter(c, marker rune) bool {
	if c == marker || c == '`' || c == '@' || c == '\\' || unicode.In(c, unicode.Pf, unicode.Pe) {
		return false
	}
	return isBoundary(c)
}

// closesBefore reports whether a closing marker may stand before r[at] (or the end).
func closesBefore(r []rune, at int, marker rune) bool {
	if at == len(r) || r[at] == '\n' {
		return true
	}
	c := r[at]
	if c == marker || c == '`' || c == '@' || c == '\\' || unicode.In(c, unicode.Pi, unicode.Ps) {
		return false
	}
	return isBoundary(c)
}

func isBoundary(c rune) bool {
	return unicode.IsPunct(c) || unicode.Is(unicode.Zs, c) || unicode.IsSymbol(c)
}
