package markdown

import (
	"html"
	"net/url"
	"strings"
)

// Render converts Markdown to HTML. The empty string renders to the empty string.
func Render(src string) string {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	var b strings.Builder
	for _, para := range strings.Split(src, "\n\n") {
		para = strings.Trim(para, "\n")
		if strings.TrimSpace(para) == "" {
			continue
		}
		b.WriteString("<p>")
		for i, line := range strings.Split(para, "\n") {
			if i > 0 {
				b.WriteString("<br>\n")
			}
			inline(&b, line)
		}
		b.WriteString("</p>")
	}
	return b.String()
}

// inline renders one line of text.
func inline(b *strings.Builder, s string) {
	for len(s) > 0 {
		switch {
		case s[0] == '`':
			if end := strings.IndexByte(s[1:], '`'); end >= 0 {
				b.WriteString("<code>")
				b.WriteString(escape(s[1 : 1+end]))
				b.WriteString("</code>")
				s = s[end+2:]
				continue
			}
		case strings.HasPrefix(s, "**"):
			if end := strings.Index(s[2:], "**"); end > 0 {
				b.WriteString("<strong>")
				inline(b, s[2:2+end])
				b.WriteString("</strong>")
				s = s[end+4:]
				continue
			}
		case s[0] == '*':
			if end := strings.IndexByte(s[1:], '*'); end > 0 && s[1] != ' ' {
				b.WriteString("<em>")
				inline(b, s[1:1+end])
				b.WriteString("</em>")
				s = s[end+2:]
				continue
			}
		case s[0] == '[':
			if text, target, rest, ok := link(s); ok {
				writeLink(b, target, func() { inline(b, text) })
				s = rest
				continue
			}
		case strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://"):
			end := strings.IndexAny(s, " \t<>\"")
			if end < 0 {
				end = len(s)
			}
			raw := strings.TrimRight(s[:end], ".,;:!?)")
			if safeURL(raw) {
				writeLink(b, raw, func() { b.WriteString(escape(raw)) })
				s = s[len(raw):]
				continue
			}
		}
		// Plain text up to the next character that may start markup.
		next := strings.IndexAny(s[1:], "`*[h")
		if next < 0 {
			b.WriteString(escape(s))
			return
		}
		b.WriteString(escape(s[:next+1]))
		s = s[next+1:]
	}
}

// link parses [text](target) at the start of s.
func link(s string) (text, target, rest string, ok bool) {
	closeText := strings.Index(s, "](")
	if closeText < 0 {
		return "", "", "", false
	}
	closeURL := strings.IndexByte(s[closeText+2:], ')')
	if closeURL < 0 {
		return "", "", "", false
	}
	text = s[1:closeText]
	target = strings.TrimSpace(s[closeText+2 : closeText+2+closeURL])
	if !safeURL(target) || strings.ContainsAny(text, "[]") {
		return "", "", "", false
	}
	return text, target, s[closeText+3+closeURL:], true
}

func writeLink(b *strings.Builder, target string, body func()) {
	b.WriteString(`<a href="`)
	b.WriteString(html.EscapeString(target))
	b.WriteString(`">`)
	body()
	b.WriteString("</a>")
}

// safeURL admits only absolute http(s) and mailto URLs.
func safeURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != ""
	case "mailto":
		return u.Opaque != ""
	}
	return false
}

// escape escapes text content the way Zulip's renderer does: &, < and > only.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
