package channels

import "github.com/teamchat/chat/users"

// EmailAddress is one of a channel's email addresses (Zulip's ChannelEmailAddress): the
// address a creator asked for to post to the channel by email as a sender (the creator, a bot
// of theirs, or the Email Gateway bot). Token is the secret part of the address.
type EmailAddress struct {
	ID          int64
	ChannelID   ID
	CreatorID   users.ID
	SenderID    users.ID
	Token       string
	Created     int64
	Deactivated bool
}

// EmailTokenLength is the length of an email token: 32 hexadecimal digits, as Zulip's
// secrets.token_hex(16).
const EmailTokenLength = 32
