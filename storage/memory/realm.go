package memory

import (
	"github.com/teamchat/chat/realms"
)

// realmTx is the organization accessor; j is nil in a read-only transaction.
type realmTx struct {
	t *readTx
	j *journal
}

func (a realmTx) Get() (realms.Realm, error) {
	if err := a.t.live(); err != nil {
		return realms.Realm{}, err
	}
	if a.t.d.realm == nil {
		return realms.Realm{}, notFound("realm", "")
	}
	return realms.Realm.Clone(*a.t.d.realm), nil
}

func (a realmTx) Put(r realms.Realm) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if note(a.j, struct{}{}, r); a.j.invalid != nil {
		return a.j.invalid
	}
	old := a.t.d.realm
	a.j.undo = append(a.j.undo, func() { a.t.d.realm = old })
	r = realms.Realm.Clone(r)
	a.t.d.realm = &r
	return nil
}
