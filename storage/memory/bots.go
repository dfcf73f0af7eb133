package memory

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// botStoreKey names one entry of a bot's storage.
type botStoreKey struct {
	bot users.ID
	key string
}

func (t *readTx) BotStorage() storage.BotStorageReader { return botStorageTx{t: t} }
func (t *tx) BotStorage() storage.BotStorageWriter     { return botStorageTx{t: &t.readTx, j: t.j} }

// botStorageTx is the bot storage accessor; j is nil in a read-only transaction.
type botStorageTx struct {
	t *readTx
	j *journal
}

func (a botStorageTx) Get(bot users.ID, keys []string) (map[string]string, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := map[string]string{}
	if len(keys) == 0 {
		for k, v := range a.t.d.botStorage {
			if k.bot == bot {
				out[k.key] = v
			}
		}
		return out, nil
	}
	for _, key := range keys {
		if v, ok := a.t.d.botStorage[botStoreKey{bot, key}]; ok {
			out[key] = v
		}
	}
	return out, nil
}

func (a botStorageTx) Size(bot users.ID) (int64, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	var n int64
	for k, v := range a.t.d.botStorage {
		if k.bot == bot {
			n += int64(utf8.RuneCountInString(k.key) + utf8.RuneCountInString(v))
		}
	}
	return n, nil
}

func (a botStorageTx) Put(bot users.ID, entries map[string]string) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if a.t.d.botStorage == nil {
		a.t.d.botStorage = map[botStoreKey]string{}
	}
	for k, v := range entries {
		setKey(a.j, a.t.d.botStorage, botStoreKey{bot, k}, v)
	}
	return nil
}

func (a botStorageTx) Delete(bot users.ID, keys []string) (int, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	var gone []botStoreKey
	if len(keys) == 0 {
		for k := range a.t.d.botStorage {
			if k.bot == bot {
				gone = append(gone, k)
			}
		}
	} else {
		for _, key := range keys {
			k := botStoreKey{bot, key}
			if _, ok := a.t.d.botStorage[k]; ok && !slices.Contains(gone, k) {
				gone = append(gone, k)
			}
		}
	}
	for _, k := range gone {
		deleteKey(a.j, a.t.d.botStorage, k)
	}
	return len(gone), nil
}

func (t *readTx) ServiceJobs() storage.ServiceJobReader { return serviceJobTx{t: t} }
func (t *tx) ServiceJobs() storage.ServiceJobWriter     { return serviceJobTx{t: &t.readTx, j: t.j} }

// serviceJobTx is the service jobs accessor; j is nil in a read-only transaction. The store's
// single writer lock is what ClaimDue's row locks are elsewhere.
type serviceJobTx struct {
	t *readTx
	j *journal
}

func (a serviceJobTx) List() ([]storage.ServiceJob, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.serviceJobs, same), nil
}

func (a serviceJobTx) Create(jobs []storage.ServiceJob) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if a.t.d.serviceJobs == nil {
		a.t.d.serviceJobs = map[int64]storage.ServiceJob{}
	}
	for _, j := range jobs {
		j.ID = nextID(a.j, &a.t.d.serviceJobSeq)
		setKey(a.j, a.t.d.serviceJobs, j.ID, j)
	}
	return nil
}

func (a serviceJobTx) ClaimDue(now int64, limit int) ([]storage.ServiceJob, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []storage.ServiceJob{}
	for _, j := range a.t.d.serviceJobs {
		if j.DueAt <= now {
			out = append(out, j)
		}
	}
	slices.SortFunc(out, func(x, y storage.ServiceJob) int {
		return cmp.Or(cmp.Compare(x.DueAt, y.DueAt), cmp.Compare(x.ID, y.ID))
	})
	if len(out) > limit {
		out = out[:max(limit, 0)]
	}
	return out, nil
}

func (a serviceJobTx) Update(j storage.ServiceJob) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.serviceJobs[j.ID]
	if !ok {
		return notFound("service job", j.ID)
	}
	old.DueAt, old.Attempts = j.DueAt, j.Attempts
	setKey(a.j, a.t.d.serviceJobs, j.ID, old)
	return nil
}

func (a serviceJobTx) Delete(id int64) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.serviceJobs[id]; !ok {
		return notFound("service job", id)
	}
	deleteKey(a.j, a.t.d.serviceJobs, id)
	return nil
}
