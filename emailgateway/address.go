package emailgateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// EmailGatewayBotID is the id of the Email Gateway bot (world.EmailGatewayBotID), the default
// sender of the emails a channel's email address receives.
const EmailGatewayBotID = world.EmailGatewayBotID

// GetStreamEmailAddressParams are the parameters of GET /streams/{stream_id}/email_address.
type GetStreamEmailAddressParams struct {
	StreamID channels.ID
	// SenderID is who the emails are posted as: the Email Gateway bot (nil, or its id), the
	// actor, or a bot the actor administers.
	SenderID *users.ID
}

// GetStreamEmailAddressResult holds the channel's email address: empty on a server without an
// email gateway, as Zulip answers when EMAIL_GATEWAY_PATTERN is not set.
type GetStreamEmailAddressResult struct {
	Email string `json:"email"`
}

// GetStreamEmailAddress returns the address that posts to a channel by email, as Zulip's
// get_stream_email_address: the actor must be able to post to the channel, and the sender
// must be the Email Gateway bot (the default), the actor or a bot the actor administers. The
// address carries the token of (channel, actor, sender), created on first request, and the
// show-sender option; Config.Pattern forms it (none: the address is empty).
func (s *Service) GetStreamEmailAddress(ctx context.Context, actor engine.Actor, p GetStreamEmailAddressParams) (GetStreamEmailAddressResult, error) {
	token, err := newEmailToken()
	if err != nil {
		return GetStreamEmailAddressResult{}, engine.InternalError(err)
	}
	var res GetStreamEmailAddressResult
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, me, w := o.Tx, o.Me, o.World()
		c, ok := w.Channel(p.StreamID)
		if !ok || !w.Content(c, me) || c.IsArchived || !channels.CanPost(w.Membership(), c, w.Viewer(c.ID, me)) {
			return conversations.ErrInvalidChannelID
		}
		sender := EmailGatewayBotID
		if p.SenderID != nil && *p.SenderID != EmailGatewayBotID {
			sender = *p.SenderID
			if sender != me.ID {
				if _, err := people.AccessBot(tx.Users(), me, sender); err != nil {
					return err
				}
			}
		}
		res = GetStreamEmailAddressResult{}
		if s.cfg.Pattern == "" {
			return nil
		}
		addr, err := channelEmailAddress(tx, channels.EmailAddress{ChannelID: c.ID, CreatorID: me.ID, SenderID: sender, Token: token, Created: o.Now.Unix()})
		if err != nil {
			return err
		}
		res.Email = EncodeEmailAddress(s.cfg.Pattern, c.Name, addr.Token, true)
		return nil
	})
	if err != nil {
		return GetStreamEmailAddressResult{}, err
	}
	return res, nil
}

// channelEmailAddress returns the stored address of want's channel, creator and sender, or
// stores want (Zulip's get_or_create).
func channelEmailAddress(tx storage.Tx, want channels.EmailAddress) (channels.EmailAddress, error) {
	got, err := tx.Channels().EmailAddress(want.ChannelID, want.CreatorID, want.SenderID)
	if !errors.Is(err, storage.ErrNotFound) {
		return got, err
	}
	want.ID, err = tx.Channels().CreateEmailAddress(want)
	return want, err
}

// newEmailToken returns channels.EmailTokenLength hexadecimal digits.
func newEmailToken() (string, error) {
	var b [channels.EmailTokenLength / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// nonWord is Python's \W+ over Unicode: runs of characters that are neither letters, digits
// nor the underscore.
var nonWord = regexp.MustCompile(`[^\p{L}\p{N}_]+`)

// spacesHyphens are the runs slugify makes one hyphen.
var spacesHyphens = regexp.MustCompile(`[-\s]+`)

// EncodeEmailAddress is Zulip's encode_email_address: the pattern (one %s) filled with
// "{name}.{token}" (the channel name as a slug, or "channel" when the name has characters
// that do not reduce to ASCII), followed by ".show-sender" when showSender is set.
func EncodeEmailAddress(pattern, name, token string, showSender bool) string {
	if pattern == "" {
		return ""
	}
	name = nonWord.ReplaceAllString(name, "-")
	encoded := "channel"
	if slug := slugify(name); len(slug) == len([]rune(name)) && slug != "" {
		encoded = slug
	}
	local := encoded + "." + token
	if showSender {
		local += ".show-sender"
	}
	return strings.Replace(pattern, "%s", local, 1)
}

// slugify is Django's slugify: the string decomposed (NFKD) and reduced to ASCII, lowered,
// stripped of what is neither a word character, a space nor a hyphen, with runs of spaces and
// hyphens made one hyphen, and hyphens and underscores trimmed from both ends.
func slugify(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		if r >= unicode.MaxASCII {
			continue
		}
		r = unicode.ToLower(r)
		if r == '_' || r == '-' || unicode.IsSpace(r) || unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	out := spacesHyphens.ReplaceAllString(b.String(), "-")
	return strings.Trim(out, "-_")
}

// EmailAddressOptions are the options an address may carry after its token.
type EmailAddressOptions struct {
	ShowSender, IncludeFooter, IncludeQuotes bool
	// PreferText is nil unless prefer-text or prefer-html was given (the default prefers text).
	PreferText *bool
}

// errAddressNotRecognized is the gateway's answer to an address outside its pattern.
var errAddressNotRecognized = engine.BadRequest("Address not recognized by gateway.")

// DecodeEmailAddress is Zulip's decode_email_address: the token and options of an address the
// pattern forms. Dots and plus signs both separate the parts; of the parts that are no
// option, the token is the only one, or the second (after the channel's name).
func DecodeEmailAddress(pattern, address string) (string, EmailAddressOptions, error) {
	var opts EmailAddressOptions
	before, after, ok := strings.Cut(pattern, "%s")
	if pattern == "" || !ok {
		return "", opts, errAddressNotRecognized
	}
	re, err := regexp.Compile(`(?i)^` + regexp.QuoteMeta(before) + `(.*?)` + regexp.QuoteMeta(after) + `$`)
	if err != nil {
		return "", opts, errAddressNotRecognized
	}
	m := re.FindStringSubmatch(strings.TrimSpace(address))
	if m == nil {
		return "", opts, errAddressNotRecognized
	}
	var rest []string
	for _, part := range strings.Split(strings.ReplaceAll(m[1], ".", "+"), "+") {
		yes, no := true, false
		switch part {
		case "show-sender":
			opts.ShowSender = true
		case "include-footer":
			opts.IncludeFooter = true
		case "include-quotes":
			opts.IncludeQuotes = true
		case "prefer-text":
			opts.PreferText = &yes
		case "prefer-html":
			opts.PreferText = &no
		default:
			rest = append(rest, part)
		}
	}
	token := ""
	switch len(rest) {
	case 0:
	case 1:
		token = rest[0]
	default:
		token = rest[1]
	}
	if token == "" {
		return "", opts, errAddressNotRecognized
	}
	return token, opts, nil
}
