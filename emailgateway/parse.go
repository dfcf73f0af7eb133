package emailgateway

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/htmlindex"
)

// The reading of an email for the gateway, after Zulip's email_mirror.py: the subject made a
// topic, the text/plain and text/html parts found and decoded, quotations and footers cut.

// MaxEmailMirrorBytes bounds the raw email the gateway reads.
const MaxEmailMirrorBytes = 25 << 20

// emailParts are the bodies of an email (nil when it has no part of that type) and its
// attachments.
type emailParts struct {
	plain, html *string
	attachments []emailAttachment
}

// emailAttachment is a part of an email with a file name (Python's Message.get_filename: the
// Content-Disposition's filename, else the Content-Type's name), its transfer encoding
// undone. Its size is bounded by the email's (MaxEmailMirrorBytes).
type emailAttachment struct {
	name, contentType string
	data              []byte
}

// readEmailParts walks the email's MIME tree and returns its first text/plain and text/html
// parts, decoded to UTF-8, and its attachments in order.
func readEmailParts(msg *mail.Message) (emailParts, error) {
	var parts emailParts
	err := walkEmailPart(msg.Header, msg.Body, &parts, 0)
	return parts, err
}

func walkEmailPart(h map[string][]string, body io.Reader, parts *emailParts, depth int) error {
	if depth > 10 {
		return errors.New("the email's MIME parts nest too deep")
	}
	ctype, params, err := mime.ParseMediaType(first(h, "Content-Type"))
	if err != nil {
		ctype, params = "text/plain", map[string]string{}
	}
	if strings.HasPrefix(ctype, "multipart/") {
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := walkEmailPart(p.Header, p, parts, depth+1); err != nil {
				return err
			}
		}
	}
	disp, dispParams, _ := mime.ParseMediaType(first(h, "Content-Disposition"))
	if name := cmp.Or(dispParams["filename"], params["name"]); name != "" {
		data, err := decodeTransfer(first(h, "Content-Transfer-Encoding"), body)
		if err != nil {
			return err
		}
		parts.attachments = append(parts.attachments, emailAttachment{name: decodeHeader(name), contentType: ctype, data: data})
		return nil
	}
	if ctype != "text/plain" && ctype != "text/html" || disp == "attachment" {
		return nil
	}
	text, err := decodeEmailText(first(h, "Content-Transfer-Encoding"), params["charset"], body)
	if err != nil {
		return err
	}
	switch {
	case ctype == "text/plain" && parts.plain == nil:
		parts.plain = &text
	case ctype == "text/html" && parts.html == nil:
		parts.html = &text
	}
	return nil
}

func first(h map[string][]string, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// decodeEmailText undoes a part's transfer encoding and charset (none given: US-ASCII, as
// RFC 6657 says; an unknown one is read as US-ASCII too, as Zulip does).
func decodeEmailText(encoding, charset string, body io.Reader) (string, error) {
	raw, err := decodeTransfer(encoding, body)
	if err != nil {
		return "", err
	}
	if cs := strings.ToLower(charset); cs != "" && cs != "utf-8" && cs != "us-ascii" {
		if enc, err := htmlindex.Get(cs); err == nil {
			if out, err := enc.NewDecoder().Bytes(raw); err == nil {
				return string(out), nil
			}
		}
	}
	return strings.ToValidUTF8(string(raw), ""), nil
}

// decodeTransfer reads a part's bytes with its transfer encoding (quoted-printable, base64)
// undone, at most MaxEmailMirrorBytes of them.
func decodeTransfer(encoding string, body io.Reader) ([]byte, error) {
	var r io.Reader = body
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, newlineStripper{body})
	}
	raw, err := io.ReadAll(io.LimitReader(r, MaxEmailMirrorBytes))
	if err != nil {
		return nil, fmt.Errorf("the email's body: %w", err)
	}
	return raw, nil
}

// newlineStripper drops the line breaks of a base64 body.
type newlineStripper struct{ r io.Reader }

func (s newlineStripper) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	out := p[:0]
	for _, b := range p[:n] {
		if b != '\r' && b != '\n' {
			out = append(out, b)
		}
	}
	return len(out), err
}

// emailBody is Zulip's extract_body: the text part, or the HTML part made Markdown, as
// preferText chooses when the email has both; quotations cut unless includeQuotes.
func emailBody(parts emailParts, includeQuotes, preferText bool) (string, error) {
	var plain, htm string
	if parts.plain != nil {
		plain = *parts.plain
		if !includeQuotes {
			plain = cutQuotation(plain)
		}
	}
	if parts.html != nil {
		htm = htmlToMarkdown(*parts.html)
		if !includeQuotes {
			htm = cutQuotation(htm)
		}
	}
	switch {
	case parts.plain == nil && parts.html == nil:
		return "", errors.New("Unable to find plaintext or HTML message body")
	case plain == "" && htm == "":
		return "", errors.New("Email has no nonempty body sections; ignoring.")
	case preferText && plain != "" || htm == "":
		return plain, nil
	}
	return htm, nil
}

// replyHeader is the line a mail client puts above a quoted reply.
var replyHeader = regexp.MustCompile(`(?i)^\s*(On\b.*\bwrote:|-+\s*Original Message\s*-+)\s*$`)

// cutQuotation drops the quoted message of a reply (what talon's extract_from_plain
// removes): from an "On ... wrote:" (or "Original Message") line followed by quoted lines to
// the end, or else the quoted lines that end the text.
func cutQuotation(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, line := range lines {
		if !replyHeader.MatchString(line) {
			continue
		}
		next := i + 1
		for next < len(lines) && strings.TrimSpace(lines[next]) == "" {
			next++
		}
		if next < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[next]), ">") {
			return strings.TrimRight(strings.Join(lines[:i], "\n"), " \t\n")
		}
	}
	end, quoted := len(lines), false
	for end > 0 {
		line := strings.TrimSpace(lines[end-1])
		if line != "" && !strings.HasPrefix(line, ">") {
			break
		}
		quoted = quoted || line != ""
		end--
	}
	if !quoted {
		return text
	}
	return strings.TrimRight(strings.Join(lines[:end], "\n"), " \t\n")
}

// footerLine is a signature separator.
var footerLine = regexp.MustCompile(`(?m)^\s*--\s*$`)

// filterFooter is Zulip's filter_footer: with exactly one "--" line, what precedes it.
func filterFooter(text string) string {
	if len(footerLine.FindAllStringIndex(text, -1)) != 1 {
		return text
	}
	return strings.TrimSpace(text[:footerLine.FindStringIndex(text)[0]])
}

// The subject's reply and forward prefixes (Zulip's strip_from_subject and is_forwarded).
var (
	replyPrefixes   = regexp.MustCompile(`(?im)([\[\(] *)?\b(RE|AW|FWD?) *([-:;)\]][ :;\])-]*|$)|\]+ *$`)
	forwardedPrefix = regexp.MustCompile(`(?i)^(?:([\[\(] *)?\b(FWD?) *([-:;)\]][ :;\])-]*|$)|\]+ *$)`)
)

// emailTopic is the topic of an email's subject: reply and forward prefixes stripped,
// characters that are not printable dropped, "Email with no subject" when nothing is left.
func emailTopic(subject string) string {
	subject = strings.TrimSpace(replyPrefixes.ReplaceAllString(subject, ""))
	subject = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cs, r) || r == unicode.ReplacementChar {
			return -1
		}
		return r
	}, subject)
	if subject == "" {
		return "Email with no subject"
	}
	return subject
}

// decodeHeader decodes the RFC 2047 words of a header (left as it is when they do not decode).
func decodeHeader(v string) string {
	d := mime.WordDecoder{CharsetReader: func(charset string, in io.Reader) (io.Reader, error) {
		enc, err := htmlindex.Get(charset)
		if err != nil {
			return nil, err
		}
		return enc.NewDecoder().Reader(in), nil
	}}
	if out, err := d.DecodeHeader(v); err == nil {
		return out
	}
	return v
}

// htmlToMarkdown turns an HTML body into the Markdown Zulip posts (a small part of what
// Zulip's html2text does): paragraphs and line breaks, links, bold and italics, list items.
func htmlToMarkdown(src string) string {
	z := html.NewTokenizer(strings.NewReader(src))
	var b bytes.Buffer
	var hrefs []string
	skip := 0
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return strings.TrimSpace(collapseBlankLines(b.String()))
		case html.TextToken:
			if skip == 0 {
				b.WriteString(spaceRuns.ReplaceAllString(string(z.Text()), " "))
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			hrefs, skip = htmlTag(&b, z, string(name), tt == html.EndTagToken, hrefs, skip)
		}
	}
}

// htmlTag writes the Markdown of one tag and returns the open links and the depth of
// skipped elements (head, style, script).
func htmlTag(b *bytes.Buffer, z *html.Tokenizer, name string, end bool, hrefs []string, skip int) ([]string, int) {
	switch name {
	case "head", "style", "script", "title":
		if end {
			return hrefs, max(skip-1, 0)
		}
		return hrefs, skip + 1
	case "br":
		b.WriteString("\n")
	case "p", "div", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "blockquote":
		b.WriteString("\n\n")
	case "li":
		if !end {
			b.WriteString("\n* ")
		}
	case "b", "strong":
		b.WriteString("**")
	case "i", "em":
		b.WriteString("*")
	case "a":
		if !end {
			href := ""
			for {
				k, v, more := z.TagAttr()
				if string(k) == "href" {
					href = string(v)
				}
				if !more {
					break
				}
			}
			b.WriteString("[")
			return append(hrefs, href), skip
		}
		if n := len(hrefs); n > 0 {
			fmt.Fprintf(b, "](%s)", hrefs[n-1])
			return hrefs[:n-1], skip
		}
	}
	return hrefs, skip
}

// The whitespace of HTML text: runs of it are one space; spaces around line breaks go, and
// more than one blank line is one.
var (
	spaceRuns  = regexp.MustCompile(`\s+`)
	lineEdges  = regexp.MustCompile(`[ \t]*\n[ \t]*`)
	blankLines = regexp.MustCompile(`\n{3,}`)
)

func collapseBlankLines(s string) string {
	return blankLines.ReplaceAllString(lineEdges.ReplaceAllString(s, "\n"), "\n\n")
}
