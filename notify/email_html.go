package notify

import (
	"context"
	"html/template"
	"strings"

	"github.com/teamchat/chat/messages"
)

// HTMLMailer is an optional capability of a Mailer: a message with an HTML alternative
// (multipart/alternative), as Zulip sends its emails (a .txt and a .html template each). The
// mail package's senders have it; a Mailer without it gets the text alone.
type HTMLMailer interface {
	SendHTML(ctx context.Context, to, subject, text, html string) error
}

// The HTML parts, after Zulip's missed_message.html and digest.html (their wording, not their
// styling). html/template escapes every value but the messages' rendered HTML, which the
// server rendered and sanitised as clients display it.
var (
	missedHTML = template.Must(template.New("missed").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family: 'Helvetica Neue', Helvetica, Arial, sans-serif; font-size: 14px;">
<div class="recipient_header" style="font-weight: bold; padding: 4px 0;"><a href="{{.Link}}">{{.Subject}}</a></div>
{{if .ShowContent}}{{range .Senders}}<div class="missed_message" style="margin: 8px 0;">
<div class="message_sender" style="font-weight: bold;">{{.Name}}</div>
{{range .Messages}}<div class="message_content">{{.}}</div>
{{end}}</div>
{{end}}{{else}}<div class="missed_message no-content-explanation">This email does not include message content because you have disabled message content in email notifications, or your organization does not allow it.</div>
{{end}}<div class="email-preferences" style="color: #666666; margin-top: 16px;">&mdash;<br>
{{if .Reason}}{{.Reason}}<br>
{{end}}<a href="{{.Link}}">View or reply in {{.Org}}</a>, or <a href="{{.Preferences}}">manage email preferences</a>.
</div>
</body></html>
`))
	digestHTML = template.Must(template.New("digest").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{{.Subject}}</title></head>
<body style="font-family: 'Helvetica Neue', Helvetica, Arial, sans-serif; font-size: 14px;">
<p>Hello {{.Name}},</p>
<p>Here is what happened in {{.Org}} while you were away.</p>
{{if .Hot}}<h3>Hot conversations</h3>
{{range .Hot}}<div class="hot_conversation" style="margin: 8px 0;">
<div class="recipient_header" style="font-weight: bold;"><a href="{{.Link}}">#{{.Channel}} &gt; {{.Topic}}</a> ({{.Count}} messages)</div>
{{range .Lines}}<div class="message_content"><b>{{.Sender}}</b>: {{.Text}}</div>
{{end}}</div>
{{end}}{{end}}{{if .NewChannels}}<p>New channels: {{range $i, $c := .NewChannels}}{{if $i}}, {{end}}{{$c}}{{end}}</p>
{{end}}{{if .NewUsers}}<p>New users: {{range $i, $u := .NewUsers}}{{if $i}}, {{end}}{{$u}}{{end}}</p>
{{end}}<div class="email-preferences" style="color: #666666; margin-top: 16px;">&mdash;<br>
<a href="{{.Base}}">Visit {{.Org}}</a> to catch up, or <a href="{{.Preferences}}">manage digest emails</a>.
</div>
</body></html>
`))
)

// missedData is what missedHTML shows.
type missedData struct {
	Subject, Link, Org, Preferences, Reason string
	ShowContent                             bool
	Senders                                 []senderBlock
}

// senderBlock is a run of messages by one sender (Zulip's sender_block).
type senderBlock struct {
	Name     string
	Messages []template.HTML
}

// digestData is what digestHTML shows.
type digestData struct {
	Subject, Name, Org, Base, Preferences string
	Hot                                   []hotBlock
	NewChannels, NewUsers                 []string
}

// hotBlock is one hot conversation of a digest.
type hotBlock struct {
	Channel, Topic, Link string
	Count                int
	Lines                []digestLine
}

// digestLine is one message quoted in a digest: its sender and first line.
type digestLine struct{ Sender, Text string }

// addMessage appends message m by sender, rendered for the organization at base, to the
// blocks, starting a new block when the sender changes.
func addMessage(blocks []senderBlock, sender string, m messages.Message, base string) []senderBlock {
	h := template.HTML(absoluteURLs(m.Rendered, base)) // the server's own sanitised rendering
	if n := len(blocks); n > 0 && blocks[n-1].Name == sender {
		blocks[n-1].Messages = append(blocks[n-1].Messages, h)
		return blocks
	}
	return append(blocks, senderBlock{Name: sender, Messages: []template.HTML{h}})
}

// absoluteURLs makes the relative links of rendered message HTML (uploads, avatars, emoji,
// narrows) absolute on the organization's URL base (ending in a slash), since an email has
// no page to be relative to (Zulip's relative_to_full_url).
func absoluteURLs(rendered, base string) string {
	r := strings.NewReplacer(`href="/`, `href="`+base, `src="/`, `src="`+base, `href="#`, `href="`+base+`#`)
	return r.Replace(rendered)
}

// render executes t with data.
func render(t *template.Template, data any) (string, error) {
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	return b.String(), nil
}
