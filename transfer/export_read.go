package transfer

import (
	"errors"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// orgTables are the organization's tables other than the messages: what realm.json and
// attachment.json hold, read in one transaction. Their size grows with users, channels and
// files, not with messages.
type orgTables struct {
	hasRealm    bool
	realm       realms.Realm
	users       []users.User
	settings    map[users.ID]users.Settings
	channels    []channels.Channel
	subs        []channels.Subscription
	groups      []users.Group
	emoji       []emoji.Custom
	fields      []users.ProfileField
	values      []users.ProfileValue
	attachments []uploads.Attachment
	links       []uploads.Link
	drafts      []drafts.Draft
	scheduled   []messages.Scheduled
	extra       extraTables
	exports     []storage.Export
	folders     []folderRecord
}

func (o *orgTables) read(tx storage.ReadTx) error {
	var err error
	o.realm, err = tx.Realm().Get()
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	o.hasRealm = true
	if o.users, err = tx.Users().List(); err != nil {
		return err
	}
	if o.settings, err = tx.UserSettings().List(); err != nil {
		return err
	}
	if o.channels, err = tx.Channels().List(); err != nil {
		return err
	}
	ids := make([]users.ID, len(o.users))
	for i, u := range o.users {
		ids[i] = u.ID
	}
	if o.subs, err = tx.Subscriptions().ListForUsers(ids); err != nil {
		return err
	}
	if o.groups, err = tx.Groups().List(); err != nil {
		return err
	}
	if o.emoji, err = tx.Realm().ListEmoji(); err != nil {
		return err
	}
	if o.fields, err = tx.ProfileFields().List(); err != nil {
		return err
	}
	if o.values, err = tx.ProfileFields().Values(nil); err != nil {
		return err
	}
	if o.folders, err = folderRecords(tx); err != nil {
		return err
	}
	if o.exports, err = tx.Exports().List(); err != nil {
		return err
	}
	if err := o.extra.read(tx, ids); err != nil {
		return err
	}
	return o.readPerUser(tx, ids)
}

// readPerUser reads what the store keeps per user: files, drafts, scheduled messages.
func (o *orgTables) readPerUser(tx storage.ReadTx, ids []users.ID) error {
	var attIDs []uploads.ID
	for _, id := range ids {
		list, err := tx.Attachments().ListByOwner(id)
		if err != nil {
			return err
		}
		for _, a := range list {
			attIDs = append(attIDs, a.ID)
		}
		o.attachments = append(o.attachments, list...)
		ds, err := tx.Drafts().ListForUser(id)
		if err != nil {
			return err
		}
		o.drafts = append(o.drafts, ds...)
		for _, kind := range []messages.ScheduledKind{messages.SendLater, messages.Remind} {
			ss, err := tx.ScheduledMessages().ListPending(id, kind)
			if err != nil {
				return err
			}
			o.scheduled = append(o.scheduled, ss...)
		}
	}
	var err error
	if len(attIDs) > 0 {
		o.links, err = tx.Attachments().Links(attIDs)
	}
	return err
}
