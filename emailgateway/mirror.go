package emailgateway

import (
	"bytes"
	"context"
	"net/mail"
	"regexp"
	"strings"
	"unicode"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/files"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// EmailMirrorMessageParams are an email for the gateway: the raw RFC 822 message and the
// address it was delivered to (the SMTP RCPT TO; empty: found in its headers).
type EmailMirrorMessageParams struct {
	Recipient string
	Message   []byte
}

// EmailMirrorMessageResult identifies the message the email became.
type EmailMirrorMessageResult struct {
	MessageID messages.ID `json:"message_id"`
	ChannelID channels.ID `json:"stream_id"`
	Topic     string      `json:"topic"`
}

// EmailMirrorMessage posts an email sent to a channel's email address, as Zulip's email
// mirror (email_mirror.py process_stream_message) does: the address's token names the channel
// and the sender (the Email Gateway bot, or the user or bot the address was made for); the
// creator of a gateway-bot address (else the sender) must still be able to post there. The
// subject, stripped of Re:/Fwd: prefixes, is the topic ("Email with no subject" when empty);
// the body is the text part (the HTML part made Markdown when there is no text, or with the
// prefer-html option), without the quoted message unless include-quotes (or a forwarded
// subject) and without a signature unless include-footer; show-sender starts it with the From
// line; the attachments, uploaded for the sender, are linked after the body. It is a trusted,
// server-side operation: no acting user.
func (s *Service) EmailMirrorMessage(ctx context.Context, p EmailMirrorMessageParams) (EmailMirrorMessageResult, error) {
	if s.cfg.Pattern == "" {
		return EmailMirrorMessageResult{}, engine.BadRequest("This server has no email gateway")
	}
	if len(p.Message) > MaxEmailMirrorBytes {
		return EmailMirrorMessageResult{}, engine.BadRequest("The email is too large")
	}
	msg, err := mail.ReadMessage(bytes.NewReader(p.Message))
	if err != nil {
		return EmailMirrorMessageResult{}, engine.BadRequest("The email cannot be read: %v", err)
	}
	to := p.Recipient
	if to == "" {
		if to = s.gatewayRecipient(msg.Header); to == "" {
			return EmailMirrorMessageResult{}, engine.BadRequest("Missing recipient in mirror email")
		}
	}
	token, opts, err := DecodeEmailAddress(s.cfg.Pattern, to)
	if err != nil {
		return EmailMirrorMessageResult{}, err
	}
	subject := decodeHeader(msg.Header.Get("Subject"))
	if !opts.IncludeQuotes {
		opts.IncludeQuotes = forwardedPrefix.MatchString(subject)
	}
	parts, err := readEmailParts(msg)
	if err != nil {
		return EmailMirrorMessageResult{}, engine.BadRequest("The email cannot be read: %v", err)
	}
	body, err := emailBody(parts, opts.IncludeQuotes, opts.PreferText == nil || *opts.PreferText)
	if err != nil {
		return EmailMirrorMessageResult{}, engine.RuleError(err)
	}
	links, err := s.emailAttachmentLinks(ctx, token, to, parts.attachments)
	if err != nil {
		return EmailMirrorMessageResult{}, err
	}
	content, err := messages.NormalizeContent(emailContent(body, decodeHeader(msg.Header.Get("From")), opts) + links)
	if err != nil {
		return EmailMirrorMessageResult{}, engine.RuleError(err)
	}
	res := EmailMirrorMessageResult{Topic: topics.Truncate(emailTopic(subject))}
	err = s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		w := o.World()
		addr, c, err := gatewayAddress(&o.ReadOp, token, to)
		if err != nil {
			return err
		}
		m := messages.Message{SenderID: addr.SenderID, ChannelID: c.ID, Topic: res.Topic, Content: content,
			Timestamp: o.Now.Unix(), Client: conversations.InternalClient}
		if err := conversations.DeliverMessage(w, o.Tx, o.Ev, &m, conversations.ActiveSubscribers(w, c.ID), conversations.ReadBy(addr.SenderID)); err != nil {
			return err
		}
		res.MessageID, res.ChannelID = m.ID, c.ID
		return nil
	})
	if err != nil {
		return EmailMirrorMessageResult{}, err
	}
	return res, nil
}

// gatewayAddress is the channel email address of token (to being the address it was read
// from) and the channel the email goes to, if the address is active and its sender may post
// there (gatewayChannel).
func gatewayAddress(o *engine.ReadOp, token, to string) (channels.EmailAddress, channels.Channel, error) {
	badToken := func() *engine.Error { return engine.BadRequest("Bad stream token from email recipient %s", to) }
	addr, err := o.Tx.Channels().EmailAddressByToken(token)
	if err := engine.NotFound(err, badToken); err != nil {
		return channels.EmailAddress{}, channels.Channel{}, err
	}
	if addr.Deactivated {
		return channels.EmailAddress{}, channels.Channel{}, badToken()
	}
	c, err := gatewayChannel(o.World(), addr)
	return addr, c, err
}

// emailAttachmentLinks is Zulip's extract_and_upload_attachments: each attachment uploaded
// for the address's sender through the files area (whose size limit and upload quota apply:
// a file past them refuses the email) and linked as [name](url), the name without square
// brackets; the links one a line, after a newline, or "" without attachments. Nothing is
// uploaded for an address that may not post (gatewayAddress).
func (s *Service) emailAttachmentLinks(ctx context.Context, token, to string, list []emailAttachment) (string, error) {
	if len(list) == 0 {
		return "", nil
	}
	if s.files == nil {
		return "", engine.BadRequest("File uploads are not enabled on this server")
	}
	var sender users.ID
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		addr, _, err := gatewayAddress(o, token, to)
		sender = addr.SenderID
		return err
	})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, a := range list {
		up, err := s.files.UploadFileFor(ctx, sender, files.UploadFileParams{Filename: a.name, ContentType: a.contentType, Content: bytes.NewReader(a.data)})
		if err != nil {
			return "", err
		}
		b.WriteString("\n[" + strings.NewReplacer("[", "", "]", "").Replace(up.Filename) + "](" + up.URL + ")")
	}
	return b.String(), nil
}

// gatewayChannel is Zulip's check_access_for_channel_email_address: the address's channel, if
// the user it checks (the creator of an address of the Email Gateway bot, else the sender) is
// active and may post there, and the sender is active.
func gatewayChannel(w *world.World, addr channels.EmailAddress) (channels.Channel, error) {
	refused := engine.BadRequest("Not authorized to send to channel")
	sender, ok := w.Lookup(addr.SenderID)
	if !ok || !sender.IsActive {
		return channels.Channel{}, refused
	}
	checked := sender
	if addr.SenderID == EmailGatewayBotID {
		if checked, ok = w.Lookup(addr.CreatorID); !ok || !checked.IsActive {
			return channels.Channel{}, refused
		}
	}
	c, ok := w.Channel(addr.ChannelID)
	if !ok || c.IsArchived || !w.Content(c, checked) || !channels.CanPost(w.Membership(), c, w.Viewer(c.ID, checked)) {
		return channels.Channel{}, refused
	}
	return c, nil
}

// emailContent is Zulip's construct_zulip_body: the body without null characters and, unless
// include-footer, without its signature; "(No email body)" when nothing is left; the From line
// first with show-sender.
func emailContent(body, from string, opts EmailAddressOptions) string {
	body = strings.ReplaceAll(body, "\x00", "")
	if !opts.IncludeFooter {
		body = filterFooter(body)
	}
	if !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	if strings.TrimRightFunc(body, pythonSpace) == "" {
		body = "(No email body)"
	}
	if opts.ShowSender {
		body = "From: " + from + "\n" + body
	}
	return body
}

// pythonSpace is Python's str.isspace for one character (what str.rstrip() strips): Go's
// unicode.IsSpace and the four separators U+001C-U+001F. A body of only such characters is
// an empty one (a form feed alone came through as a message).
func pythonSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// gatewayRecipient is Zulip's find_emailgateway_recipient: the first address of the gateway's
// pattern in the headers that name a recipient, most accurate first ("" when none does).
func (s *Service) gatewayRecipient(h mail.Header) string {
	before, after, _ := strings.Cut(s.cfg.Pattern, "%s")
	match := regexp.MustCompile(`(?i)^` + regexp.QuoteMeta(before) + `.*?` + regexp.QuoteMeta(after) + `$`)
	for _, name := range []string{"X-Gm-Original-To", "Delivered-To", "Envelope-To", "Resent-To", "Resent-Cc", "To", "Cc"} {
		for _, v := range h[name] {
			list, err := mail.ParseAddressList(v)
			if err != nil {
				list = []*mail.Address{{Address: strings.TrimSpace(v)}}
			}
			for _, a := range list {
				if match.MatchString(a.Address) {
					return a.Address
				}
			}
		}
	}
	return ""
}
