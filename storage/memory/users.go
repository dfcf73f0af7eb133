package memory

import (
	"slices"

	"github.com/teamchat/chat/users"
)

// userTx is the users accessor; j is nil in a read-only transaction.
type userTx struct {
	t *readTx
	j *journal
}

func (a userTx) Get(id users.ID) (users.User, error) {
	if err := a.t.live(); err != nil {
		return users.User{}, err
	}
	u, ok := a.t.d.users[id]
	if !ok {
		return users.User{}, notFound("user", id)
	}
	return u, nil
}

func (a userTx) GetByEmail(email string) (users.User, error) {
	if err := a.t.live(); err != nil {
		return users.User{}, err
	}
	id, ok := a.t.d.userByEmail[users.NormalizeEmail(email)]
	if !ok {
		return users.User{}, notFound("user with email", email)
	}
	return a.t.d.users[id], nil
}

func (a userTx) GetByAPIKey(key string) (users.User, error) {
	if err := a.t.live(); err != nil {
		return users.User{}, err
	}
	id, ok := a.t.d.userByKey[key]
	if !ok {
		return users.User{}, notFound("user with API key", "")
	}
	return a.t.d.users[id], nil
}

func (a userTx) GetMany(ids []users.ID) ([]users.User, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	// The ids sorted and deduplicated, then looked up: no map of the users (a send reads
	// every subscriber of its channel: 1,000 users).
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	out := make([]users.User, 0, len(sorted))
	for _, id := range sorted {
		if u, ok := a.t.d.users[id]; ok {
			out = append(out, u)
		}
	}
	return out, nil
}

func (a userTx) List() ([]users.User, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return slices.Clone(keptSorted(&a.t.d.userList, a.t.d.users)), nil
}

func (a userTx) ListShared() ([]users.User, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return keptSorted(&a.t.d.userList, a.t.d.users), nil
}

func (a userTx) Create(u users.User) (users.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if err := a.checkUnique(u, 0); err != nil {
		return 0, err
	}
	u.ID = nextID(a.j, &a.t.d.userSeq)
	a.put(u)
	return u.ID, nil
}

func (a userTx) Update(u users.User) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.users[u.ID]
	if !ok {
		return notFound("user", u.ID)
	}
	if err := a.checkUnique(u, u.ID); err != nil {
		return err
	}
	deleteKey(a.j, a.t.d.userByEmail, users.NormalizeEmail(old.Email))
	deleteKey(a.j, a.t.d.userByKey, old.APIKey)
	a.put(u)
	if u.IsActive != old.IsActive {
		// The user's active subscriptions start or stop counting.
		subs := subscriptionTx{t: a.t, j: a.j}
		for c := range a.t.d.subsByUser[u.ID] {
			if a.t.d.subsByChannel[c][u.ID].Active {
				subs.addCount(u.ID, c, u.IsActive)
			}
		}
	}
	return nil
}

// checkUnique refuses an email or API key held by a user other than self.
func (a userTx) checkUnique(u users.User, self users.ID) error {
	if id, ok := a.t.d.userByEmail[users.NormalizeEmail(u.Email)]; ok && id != self {
		return conflict("email")
	}
	if id, ok := a.t.d.userByKey[u.APIKey]; ok && id != self && u.APIKey != "" {
		return conflict("API key")
	}
	return nil
}

func (a userTx) put(u users.User) {
	// The cached list goes stale now and again if the write is rolled back.
	a.t.d.userList.Store(nil)
	a.j.undo = append(a.j.undo, func() { a.t.d.userList.Store(nil) })
	setKey(a.j, a.t.d.users, u.ID, u)
	setKey(a.j, a.t.d.userByEmail, users.NormalizeEmail(u.Email), u.ID)
	if u.APIKey != "" {
		setKey(a.j, a.t.d.userByKey, u.APIKey, u.ID)
	}
}

func (a userTx) ActiveSince(t int64) ([]users.ID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var out []users.ID
	for id, last := range a.t.d.lastActive {
		if last >= t {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (a userTx) ReserveIDs(through users.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if seq := &a.t.d.userSeq; *seq < through {
		old := *seq
		*seq = through
		a.j.undo = append(a.j.undo, func() { *seq = old })
	}
	return nil
}

func (a userTx) SetLastActive(t int64, ids ...users.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, id := range ids {
		if old, ok := a.t.d.lastActive[id]; !ok || t > old {
			setKey(a.j, a.t.d.lastActive, id, t)
		}
	}
	return nil
}
