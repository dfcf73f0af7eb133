package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/users"
)

// inviteTx is the invitations accessor.
type inviteTx struct{ t *txn }

const inviteColumns = `id, invite_key, invited_by, invited_as, channel_ids, group_ids,
	include_realm_default_subscriptions, welcome_message_custom_text, created, expires_at, revoked,
	email, used, notify_referrer_on_join`

func scanInvite(row *sql.Rows) (users.Invite, error) {
	var i users.Invite
	var chans, groups, welcome sql.NullString
	err := row.Scan(&i.ID, &i.Key, &i.InvitedBy, &i.InvitedAs, &chans, &groups,
		&i.IncludeRealmDefaultSubscriptions, &welcome, &i.Created, &i.ExpiresAt, &i.Revoked,
		&i.Email, &i.Used, &i.NotifyReferrerOnJoin)
	if err != nil {
		return i, err
	}
	if welcome.Valid {
		i.WelcomeMessageCustomText = &welcome.String
	}
	if i.ChannelIDs, err = parseJSONIDs(chans); err != nil {
		return i, fmt.Errorf("invitation %d channels: %w", i.ID, err)
	}
	list, err := parseJSONIDs(groups)
	if err != nil {
		return i, fmt.Errorf("invitation %d groups: %w", i.ID, err)
	}
	if list != nil {
		i.GroupIDs = make([]users.GroupID, len(list))
		for k, id := range list {
			i.GroupIDs[k] = users.GroupID(id)
		}
	}
	return i, nil
}

func (a inviteTx) one(what string, key any, where string, args ...any) (users.Invite, error) {
	list, err := scanAll(a.t, scanInvite, "SELECT "+inviteColumns+" FROM invites WHERE "+where, args...)
	if err != nil {
		return users.Invite{}, err
	}
	if len(list) == 0 {
		return users.Invite{}, notFound(what, key)
	}
	return list[0], nil
}

func (a inviteTx) Get(id users.InviteID) (users.Invite, error) {
	return a.one("invitation", id, "id = ?", id)
}

func (a inviteTx) GetByKey(key string) (users.Invite, error) {
	return a.one("invitation with key", "", "invite_key = ?", key)
}

func (a inviteTx) List() ([]users.Invite, error) {
	return scanAll(a.t, scanInvite, "SELECT "+inviteColumns+" FROM invites ORDER BY id")
}

// inviteGroupIDs are an invitation's groups as the JSON column stores them.
func inviteGroupIDs(i users.Invite) []int64 {
	var groups []int64
	if i.GroupIDs != nil {
		groups = make([]int64, len(i.GroupIDs))
		for k, id := range i.GroupIDs {
			groups[k] = int64(id)
		}
	}
	return groups
}

func (a inviteTx) Create(i users.Invite) (users.InviteID, error) {
	groups := inviteGroupIDs(i)
	var id users.InviteID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO invites (invite_key, invited_by, invited_as, channel_ids, group_ids,
			include_realm_default_subscriptions, welcome_message_custom_text, created, expires_at, revoked,
			email, used, notify_referrer_on_join)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			[]any{i.Key, i.InvitedBy, i.InvitedAs, jsonIDs(i.ChannelIDs), jsonIDs(groups),
				i.IncludeRealmDefaultSubscriptions, nullableString(i.WelcomeMessageCustomText),
				i.Created, i.ExpiresAt, i.Revoked, i.Email, i.Used, i.NotifyReferrerOnJoin}, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create invitation: %w", err)
	}
	return id, nil
}

func (a inviteTx) Revoke(id users.InviteID) error {
	res, err := a.t.exec("UPDATE invites SET revoked = ? WHERE id = ?", true, id)
	if err != nil {
		return err
	}
	return mustAffect(res, "invitation", id)
}

func (a inviteTx) Update(i users.Invite) error {
	return a.t.guarded(func() error {
		res, err := a.t.exec("UPDATE invites SET invite_key = ?, created = ?, expires_at = ?, revoked = ?, used = ? WHERE id = ?",
			i.Key, i.Created, i.ExpiresAt, i.Revoked, i.Used, i.ID)
		if err != nil {
			return err
		}
		return mustAffect(res, "invitation", i.ID)
	})
}

func (a inviteTx) Edit(i users.Invite) error {
	res, err := a.t.exec(`UPDATE invites SET invited_as = ?, channel_ids = ?, group_ids = ?,
		include_realm_default_subscriptions = ?, welcome_message_custom_text = ? WHERE id = ?`,
		i.InvitedAs, jsonIDs(i.ChannelIDs), jsonIDs(inviteGroupIDs(i)), i.IncludeRealmDefaultSubscriptions,
		nullableString(i.WelcomeMessageCustomText), i.ID)
	if err != nil {
		return err
	}
	return mustAffect(res, "invitation", i.ID)
}
