package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

const channelEmailColumns = `id, channel_id, creator_id, sender_id, email_token, created, deactivated`

func scanChannelEmail(row *sql.Rows) (channels.EmailAddress, error) {
	var e channels.EmailAddress
	err := row.Scan(&e.ID, &e.ChannelID, &e.CreatorID, &e.SenderID, &e.Token, &e.Created, &e.Deactivated)
	return e, err
}

func (a channelTx) oneEmail(key any, where string, args ...any) (channels.EmailAddress, error) {
	list, err := scanAll(a.t, scanChannelEmail, "SELECT "+channelEmailColumns+" FROM channel_email_addresses WHERE "+where, args...)
	if err != nil {
		return channels.EmailAddress{}, err
	}
	if len(list) == 0 {
		return channels.EmailAddress{}, notFound("channel email address", key)
	}
	return list[0], nil
}

func (a channelTx) EmailAddress(c channels.ID, creator, sender users.ID) (channels.EmailAddress, error) {
	return a.oneEmail(c, "channel_id = ? AND creator_id = ? AND sender_id = ?", c, creator, sender)
}

func (a channelTx) EmailAddressByToken(token string) (channels.EmailAddress, error) {
	return a.oneEmail("", "email_token = ?", token)
}

func (a channelTx) CreateEmailAddress(e channels.EmailAddress) (int64, error) {
	var id int64
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO channel_email_addresses (channel_id, creator_id, sender_id, email_token, created, deactivated)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
			[]any{e.ChannelID, e.CreatorID, e.SenderID, e.Token, e.Created, e.Deactivated}, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create channel email address: %w", err)
	}
	return id, nil
}
