package storagetest

import (
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

type faultyInvites struct {
	storage.InviteWriter
	f *Faulty
}

func (w faultyInvites) Create(i users.Invite) (users.InviteID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.InviteWriter.Create(i)
}

func (w faultyInvites) Revoke(id users.InviteID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.InviteWriter.Revoke(id)
}

func (w faultyInvites) Update(i users.Invite) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.InviteWriter.Update(i)
}

func (w faultyInvites) Edit(i users.Invite) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.InviteWriter.Edit(i)
}
