package integrations

import (
	"math"
	"mime"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// slackIncomingIntegration is Slack's incoming webhook format (zerver/webhooks/
// slack_incoming): blocks and attachments rendered as Markdown, else the text; the topic is
// the payload's channel (without its # or @), else "(no topic)". The payload is the JSON body,
// or the payload field of a form.
var slackIncomingIntegration = &Integration{
	Name: "slack_incoming", DisplayName: "Slack-compatible webhook", ClientName: "SlackIncoming",
	format: formatSlackIncoming,
}

// MissingParamError is a request without a parameter the integration needs (Zulip's
// REQUEST_VARIABLE_MISSING "Missing 'payload' argument").
type MissingParamError struct{ Param string }

func (e *MissingParamError) Error() string { return "Missing '" + e.Param + "' argument" }

func formatSlackIncoming(r *Request) ([]Message, error) {
	body := r.Body
	media, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if media != "application/json" {
		field, ok := r.param("payload")
		if !ok {
			return nil, &MissingParamError{Param: "payload"}
		}
		body = []byte(field)
	}
	root, p, err := decode(body)
	if err != nil {
		return nil, err
	}
	topic := "(no topic)"
	if r.Topic != nil {
		topic = *r.Topic
	} else if root.has("channel") {
		c := root.get("channel").str()
		if strings.HasPrefix(c, "@") || strings.HasPrefix(c, "#") {
			c = c[1:]
		}
		topic = c
	}
	var pieces []string
	if b := root.get("blocks"); b.truthy() {
		for _, block := range b.list() {
			pieces = append(pieces, renderSlackBlock(block))
		}
	}
	if a := root.get("attachments"); a.truthy() {
		for _, att := range a.list() {
			pieces = append(pieces, renderSlackAttachment(att))
		}
	}
	text := joinPieces(pieces)
	if text == "" && root.get("text").truthy() {
		if icon := root.get("icon_emoji"); icon.truthy() {
			text = icon.str() + " "
		}
		text = pyStrip(text + root.get("text").str())
	}
	if p.err != nil {
		return nil, p.err
	}
	if text == "" {
		return nil, nil
	}
	return []Message{{Topic: topic, Content: slackFormatting(pyStrip(slackLinks(text)))}}, nil
}

// joinPieces joins the stripped non-empty pieces with blank lines.
func joinPieces(pieces []string) string {
	var out []string
	for _, p := range pieces {
		if p = pyStrip(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, unicode.IsSpace) }

var slackBlockTypes = []string{"actions", "context", "divider", "header", "image", "input", "section"}

func renderSlackBlock(block val) string {
	typ := block.at("type").str()
	if !slices.Contains(slackBlockTypes, typ) {
		block.get("type").fail("is not an allowed value")
		return ""
	}
	switch typ {
	case "context":
		if !block.get("elements").truthy() {
			return ""
		}
		var pieces []string
		for _, e := range block.get("elements").list() {
			switch t := e.at("type").str(); t {
			case "image":
				pieces = append(pieces, renderSlackElement(e))
			case "plain_text", "mrkdwn":
				pieces = append(pieces, slackText(e, false))
			default:
				e.get("type").fail("is not an allowed value")
			}
		}
		return joinPieces(pieces)
	case "divider":
		return "----"
	case "header":
		return "## " + slackText(block.at("text"), true)
	case "image":
		url, alt := block.at("image_url").str(), block.at("alt_text").str()
		if block.has("title") {
			alt = slackText(block.get("title"), true)
		}
		return "[" + alt + "](" + url + ")"
	case "section":
		return renderSlackSection(block)
	}
	return "" // actions and input: not rendered
}

func renderSlackSection(block val) string {
	var pieces []string
	if block.has("text") {
		pieces = append(pieces, slackText(block.get("text"), false))
	}
	if block.has("accessory") {
		pieces = append(pieces, renderSlackElement(block.get("accessory")))
	}
	if block.has("fields") {
		fields := block.get("fields").list()
		texts := make([]string, len(fields))
		for i, f := range fields {
			texts[i] = slackText(f, false)
		}
		if len(texts) == 1 {
			pieces = append(pieces, texts[0])
		} else {
			var t strings.Builder
			t.WriteString("| | |\n|-|-|\n")
			for i := 0; i < len(texts); i += 2 {
				right := ""
				if i+1 < len(texts) {
					right = texts[i+1]
				}
				t.WriteString("| " + slackCell(texts[i]) + " | " + slackCell(right) + " |\n")
			}
			pieces = append(pieces, t.String())
		}
	}
	return joinPieces(pieces)
}

func slackCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", " ")
}

// slackText is the text of a text object (type plain_text or mrkdwn, or plain_text only).
func slackText(v val, plainOnly bool) string {
	typ := v.at("type").str()
	if typ != "plain_text" && (plainOnly || typ != "mrkdwn") {
		v.get("type").fail("is not an allowed value")
	}
	return v.at("text").str()
}

// renderSlackElement renders an image element; other (interactive) elements are dropped.
func renderSlackElement(e val) string {
	if e.at("type").str() != "image" {
		return ""
	}
	return "[" + e.at("alt_text").str() + "](" + e.at("image_url").str() + ")"
}

func renderSlackAttachment(a val) string {
	var pieces []string
	if a.get("title").truthy() {
		title := a.get("title").str()
		if a.get("title_link").truthy() {
			pieces = append(pieces, "## ["+title+"]("+a.get("title_link").str()+")")
		} else {
			pieces = append(pieces, "## "+title)
		}
	}
	for _, k := range []string{"pretext", "text"} {
		if a.get(k).truthy() {
			pieces = append(pieces, a.get(k).str())
		}
	}
	if a.has("fields") {
		var fields []string
		for _, f := range a.get("fields").list() {
			title, value := f.get("title"), f.get("value")
			switch {
			case title.truthy() && value.truthy():
				fields = append(fields, "*"+title.str()+"*: "+value.str())
			case title.truthy():
				fields = append(fields, "*"+title.str()+"*")
			case value.truthy():
				fields = append(fields, value.str())
			}
		}
		pieces = append(pieces, strings.Join(fields, "\n"))
	}
	if a.get("blocks").truthy() {
		for _, b := range a.get("blocks").list() {
			pieces = append(pieces, renderSlackBlock(b))
		}
	}
	if a.get("image_url").truthy() {
		pieces = append(pieces, "[]("+a.get("image_url").str()+")")
	}
	if a.get("footer").truthy() {
		pieces = append(pieces, a.get("footer").str())
	}
	if a.get("ts").truthy() {
		pieces = append(pieces, slackTime(a.get("ts")))
	}
	return joinPieces(pieces)
}

// slackTime is an attachment's ts (Unix seconds: an integer, or a string of a float as Slack
// sometimes sends it) as Zulip's render_attachment writes it since the global time syntax
// takes ISO 8601 alone (feature level 503): <time:2022-06-23T00:48:26+00:00>, in UTC.
func slackTime(ts val) string {
	var secs int64
	if s, ok := ts.v.(string); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > maxSlackTime {
			ts.fail("is not an integer")
			return ""
		}
		secs = int64(f)
	} else {
		n, err := strconv.ParseInt(ts.integer(), 10, 64)
		if err != nil || n > maxSlackTime || n < -maxSlackTime {
			ts.fail("is not an integer")
			return ""
		}
		secs = n
	}
	return "<time:" + time.Unix(secs, 0).UTC().Format("2006-01-02T15:04:05") + "+00:00>"
}

// maxSlackTime bounds ts to the years Python's datetime represents (1 to 9999), past which
// Zulip's conversion fails.
const maxSlackTime = 253402300799

// slackLinkRE is Slack's <url|label> link.
var slackLinkRE = regexp.MustCompile(`<(\w+?://.*?)\|(.*?)>`)

func slackLinks(s string) string { return slackLinkRE.ReplaceAllString(s, "[$2]($1)") }

// slackFormatting turns Slack's *bold* into **bold** and _emphasis_ into *emphasis*.
func slackFormatting(s string) string {
	return slackEmphasis(slackEmphasis(s, '*', "**"), '_', "*")
}

// slackEmphasis replaces each delim-enclosed span as Zulip's pattern
// ([^\w]|^)D(?!\s+)([^D\n]+)(?<!\s)D((?=[^\w])|$) does: the opening delimiter at the start or
// after a non-word character and before a non-space, the closing one after a non-space and
// before a non-word character or the end, the span on one line without the delimiter.
func slackEmphasis(s string, delim rune, repl string) string {
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); {
		if end, prefix, ok := emphasisAt(rs, i, delim); ok {
			open := i + len(prefix)
			b.WriteString(string(prefix) + repl + string(rs[open+1:end]) + repl)
			i = end + 1
			continue
		}
		b.WriteRune(rs[i])
		i++
	}
	return b.String()
}

// emphasisAt tries the pattern at i: it returns the closing delimiter's index and the
// leading non-word character consumed (none at the start of the text).
func emphasisAt(rs []rune, i int, delim rune) (int, []rune, bool) {
	try := func(open int) (int, bool) {
		if open >= len(rs) || rs[open] != delim || open+1 >= len(rs) || unicode.IsSpace(rs[open+1]) {
			return 0, false
		}
		end := open + 1
		for end < len(rs) && rs[end] != delim && rs[end] != '\n' {
			end++
		}
		if end == open+1 || end >= len(rs) || rs[end] != delim || unicode.IsSpace(rs[end-1]) {
			return 0, false
		}
		if end+1 < len(rs) && isWord(rs[end+1]) {
			return 0, false
		}
		return end, true
	}
	if i < len(rs) && !isWord(rs[i]) {
		if end, ok := try(i + 1); ok {
			return end, rs[i : i+1], true
		}
	}
	if i == 0 {
		if end, ok := try(0); ok {
			return end, nil, true
		}
	}
	return 0, nil, false
}

// isWord is Python's \w for str patterns.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}
