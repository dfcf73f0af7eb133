package storagetest

import (
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func (t faultyTx) BotStorage() storage.BotStorageWriter {
	return faultyBotStorage{t.Tx.BotStorage(), t.f}
}

type faultyBotStorage struct {
	storage.BotStorageWriter
	f *Faulty
}

func (w faultyBotStorage) Put(bot users.ID, entries map[string]string) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.BotStorageWriter.Put(bot, entries)
}

func (w faultyBotStorage) Delete(bot users.ID, keys []string) (int, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.BotStorageWriter.Delete(bot, keys)
}

func (t faultyTx) ServiceJobs() storage.ServiceJobWriter {
	return faultyServiceJobs{t.Tx.ServiceJobs(), t.f}
}

type faultyServiceJobs struct {
	storage.ServiceJobWriter
	f *Faulty
}

func (w faultyServiceJobs) Create(jobs []storage.ServiceJob) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ServiceJobWriter.Create(jobs)
}

func (w faultyServiceJobs) Update(j storage.ServiceJob) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ServiceJobWriter.Update(j)
}

func (w faultyServiceJobs) Delete(id int64) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ServiceJobWriter.Delete(id)
}
