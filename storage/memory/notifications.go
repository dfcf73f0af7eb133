package memory

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func (t *readTx) PendingEmails() storage.PendingEmailReader { return pendingEmailTx{t: t} }
func (t *tx) PendingEmails() storage.PendingEmailWriter     { return pendingEmailTx{t: &t.readTx, j: t.j} }

// pendingEmailTx is the pending email notifications accessor; j is nil in a read-only
// transaction. The store's single writer lock is what ClaimDue's row locks are elsewhere.
type pendingEmailTx struct {
	t *readTx
	j *journal
}

func (a pendingEmailTx) List() ([]storage.PendingEmail, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.pendingEmails, same), nil
}

func (a pendingEmailTx) ListForUser(u users.ID) ([]storage.PendingEmail, error) {
	all, err := a.List()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(p storage.PendingEmail) bool { return p.UserID != u }), nil
}

func (a pendingEmailTx) Create(list []storage.PendingEmail) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if a.t.d.pendingEmails == nil {
		a.t.d.pendingEmails = map[int64]storage.PendingEmail{}
	}
	for _, p := range list {
		p.ID = nextID(a.j, &a.t.d.pendingEmailSeq)
		setKey(a.j, a.t.d.pendingEmails, p.ID, p)
	}
	return nil
}

func (a pendingEmailTx) ClaimDue(now int64, limit int) ([]storage.PendingEmail, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []storage.PendingEmail{}
	for _, p := range a.t.d.pendingEmails {
		if p.DueAt <= now {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(x, y storage.PendingEmail) int {
		return cmp.Or(cmp.Compare(x.DueAt, y.DueAt), cmp.Compare(x.ID, y.ID))
	})
	if len(out) > limit {
		out = out[:max(limit, 0)]
	}
	return out, nil
}

func (a pendingEmailTx) Update(p storage.PendingEmail) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.pendingEmails[p.ID]
	if !ok {
		return notFound("pending email", p.ID)
	}
	old.DueAt, old.Attempts = p.DueAt, p.Attempts
	setKey(a.j, a.t.d.pendingEmails, p.ID, old)
	return nil
}

func (a pendingEmailTx) Delete(ids []int64) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := a.t.d.pendingEmails[id]; ok {
			deleteKey(a.j, a.t.d.pendingEmails, id)
		}
	}
	return nil
}

func (a pendingEmailTx) ClaimDigestDay(day int64) (bool, error) {
	if err := a.t.live(); err != nil {
		return false, err
	}
	if _, ok := a.t.d.digestDays[day]; ok {
		return false, nil
	}
	if a.t.d.digestDays == nil {
		a.t.d.digestDays = map[int64]struct{}{}
	}
	setKey(a.j, a.t.d.digestDays, day, struct{}{})
	return true, nil
}
