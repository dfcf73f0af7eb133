package memory

import (
	"github.com/teamchat/chat/users"
)

// inviteTx is the invitations accessor; j is nil in a read-only transaction.
type inviteTx struct {
	t *readTx
	j *journal
}

func cloneInvite(i users.Invite) users.Invite { return i.Clone() }

func (a inviteTx) Get(id users.InviteID) (users.Invite, error) {
	if err := a.t.live(); err != nil {
		return users.Invite{}, err
	}
	i, ok := a.t.d.invites[id]
	if !ok {
		return users.Invite{}, notFound("invitation", id)
	}
	return i.Clone(), nil
}

func (a inviteTx) GetByKey(key string) (users.Invite, error) {
	if err := a.t.live(); err != nil {
		return users.Invite{}, err
	}
	for _, i := range a.t.d.invites {
		if i.Key == key {
			return i.Clone(), nil
		}
	}
	return users.Invite{}, notFound("invitation with key", "")
}

func (a inviteTx) List() ([]users.Invite, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.invites, cloneInvite), nil
}

func (a inviteTx) Create(i users.Invite) (users.InviteID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	for _, x := range a.t.d.invites {
		if x.Key == i.Key {
			return 0, conflict("invitation key")
		}
	}
	i = i.Clone()
	i.ID = nextID(a.j, &a.t.d.inviteSeq)
	setKey(a.j, a.t.d.invites, i.ID, i)
	return i.ID, nil
}

func (a inviteTx) Revoke(id users.InviteID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	i, ok := a.t.d.invites[id]
	if !ok {
		return notFound("invitation", id)
	}
	i = i.Clone()
	i.Revoked = true
	setKey(a.j, a.t.d.invites, id, i)
	return nil
}

func (a inviteTx) Update(u users.Invite) error {
	if err := a.t.live(); err != nil {
		return err
	}
	i, ok := a.t.d.invites[u.ID]
	if !ok {
		return notFound("invitation", u.ID)
	}
	for _, x := range a.t.d.invites {
		if x.Key == u.Key && x.ID != u.ID {
			return conflict("invitation key")
		}
	}
	i = i.Clone()
	i.Key, i.Created, i.ExpiresAt, i.Revoked, i.Used = u.Key, u.Created, u.ExpiresAt, u.Revoked, u.Used
	setKey(a.j, a.t.d.invites, i.ID, i)
	return nil
}

func (a inviteTx) Edit(u users.Invite) error {
	if err := a.t.live(); err != nil {
		return err
	}
	i, ok := a.t.d.invites[u.ID]
	if !ok {
		return notFound("invitation", u.ID)
	}
	u = u.Clone()
	i = i.Clone()
	i.InvitedAs, i.ChannelIDs, i.GroupIDs = u.InvitedAs, u.ChannelIDs, u.GroupIDs
	i.IncludeRealmDefaultSubscriptions, i.WelcomeMessageCustomText = u.IncludeRealmDefaultSubscriptions, u.WelcomeMessageCustomText
	setKey(a.j, a.t.d.invites, i.ID, i)
	return nil
}
