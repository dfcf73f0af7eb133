package memory

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

func (a channelTx) EmailAddress(c channels.ID, creator, sender users.ID) (channels.EmailAddress, error) {
	if err := a.t.live(); err != nil {
		return channels.EmailAddress{}, err
	}
	for _, e := range a.t.d.channelEmails {
		if e.ChannelID == c && e.CreatorID == creator && e.SenderID == sender {
			return e, nil
		}
	}
	return channels.EmailAddress{}, notFound("channel email address of channel", c)
}

func (a channelTx) EmailAddressByToken(token string) (channels.EmailAddress, error) {
	if err := a.t.live(); err != nil {
		return channels.EmailAddress{}, err
	}
	for _, e := range a.t.d.channelEmails {
		if e.Token == token {
			return e, nil
		}
	}
	return channels.EmailAddress{}, notFound("channel email address with token", "")
}

func (a channelTx) CreateEmailAddress(e channels.EmailAddress) (int64, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	for _, x := range a.t.d.channelEmails {
		if x.Token == e.Token || x.ChannelID == e.ChannelID && x.CreatorID == e.CreatorID && x.SenderID == e.SenderID {
			return 0, conflict("channel email address")
		}
	}
	e.ID = nextID(a.j, &a.t.d.channelEmailSeq)
	setKey(a.j, a.t.d.channelEmails, e.ID, e)
	return e.ID, nil
}
