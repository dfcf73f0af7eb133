package memory

import (
	"slices"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// alertWordTx is the alert-words accessor; j is nil in a read-only transaction.
type alertWordTx struct {
	t *readTx
	j *journal
}

func (a alertWordTx) Get(id users.ID) ([]string, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return append([]string{}, a.t.d.alertWords[id]...), nil
}

func (a alertWordTx) All() (map[users.ID][]string, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := map[users.ID][]string{}
	for id, w := range a.t.d.alertWords {
		if len(w) > 0 {
			out[id] = slices.Clone(w)
		}
	}
	return out, nil
}

func (a alertWordTx) Set(id users.ID, words []string) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if len(words) == 0 {
		deleteKey(a.j, a.t.d.alertWords, id)
		return nil
	}
	setKey(a.j, a.t.d.alertWords, id, slices.Clone(words))
	return nil
}

// presenceTx is the presence accessor; j is nil in a read-only transaction.
type presenceTx struct {
	t *readTx
	j *journal
}

func (a presenceTx) Get(id users.ID) (users.Presence, error) {
	if err := a.t.live(); err != nil {
		return users.Presence{}, err
	}
	p, ok := a.t.d.presence[id]
	if !ok {
		return users.Presence{}, notFound("presence of user", id)
	}
	return p, nil
}

func (a presenceTx) List(f storage.PresenceFilter) ([]users.Presence, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []users.Presence{}
	for _, p := range sortedValues(a.t.d.presence, same) {
		if p.LastUpdateID <= f.AfterUpdateID {
			continue
		}
		if !f.ConnectedSince.IsZero() && (p.LastConnectedTime.IsZero() || p.LastConnectedTime.Before(f.ConnectedSince)) {
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

func (a presenceTx) Put(p users.Presence) (int64, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	p.LastUpdateID = nextID(a.j, &a.t.d.presenceSeq)
	setKey(a.j, a.t.d.presence, p.UserID, p)
	return p.LastUpdateID, nil
}

func (t *readTx) AlertWords() storage.AlertWordReader { return alertWordTx{t: t} }
func (t *readTx) Presence() storage.PresenceReader    { return presenceTx{t: t} }
func (t *tx) AlertWords() storage.AlertWordWriter     { return alertWordTx{t: &t.readTx, j: t.j} }
func (t *tx) Presence() storage.PresenceWriter        { return presenceTx{t: &t.readTx, j: t.j} }

// onboardingTx is the onboarding-steps accessor; j is nil in a read-only transaction.
type onboardingTx struct {
	t *readTx
	j *journal
}

func (o onboardingTx) Seen(id users.ID) ([]string, error) {
	if err := o.t.live(); err != nil {
		return nil, err
	}
	return append([]string{}, o.t.d.onboarding[id]...), nil
}

func (o onboardingTx) MarkSeen(id users.ID, step string) error {
	if err := o.t.live(); err != nil {
		return err
	}
	seen := o.t.d.onboarding[id]
	i, found := slices.BinarySearch(seen, step)
	if found {
		return nil
	}
	setKey(o.j, o.t.d.onboarding, id, slices.Insert(slices.Clone(seen), i, step))
	return nil
}

func (t *readTx) OnboardingSteps() storage.OnboardingStepReader { return onboardingTx{t: t} }
func (t *tx) OnboardingSteps() storage.OnboardingStepWriter {
	return onboardingTx{t: &t.readTx, j: t.j}
}
