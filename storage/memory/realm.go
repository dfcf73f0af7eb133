package memory

import (
	"slices"

	"github.com/teamchat/chat/realms"
)

// realmTx is the organization accessor; j is nil in a read-only transaction.
type realmTx struct {
	t *readTx
	j *journal
}

func cloneRealm(r realms.Realm) realms.Realm {
	for _, s := range r.GroupSettings() {
		s.Members = slices.Clone(s.Members)
		s.Subgroups = slices.Clone(s.Subgroups)
	}
	return r
}

func (a realmTx) Get() (realms.Realm, error) {
	if err := a.t.live(); err != nil {
		return realms.Realm{}, err
	}
	if a.t.d.realm == nil {
		return realms.Realm{}, notFound("realm", "")
	}
	return cloneRealm(*a.t.d.realm), nil
}

func (a realmTx) Put(r realms.Realm) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old := a.t.d.realm
	a.j.undo = append(a.j.undo, func() { a.t.d.realm = old })
	r = cloneRealm(r)
	a.t.d.realm = &r
	return nil
}
