package storagetest

import (
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func (t faultyTx) ScheduledMessages() storage.ScheduledMessageWriter {
	return faultyScheduled{t.Tx.ScheduledMessages(), t.f}
}

type faultyScheduled struct {
	storage.ScheduledMessageWriter
	f *Faulty
}

func (w faultyScheduled) Create(m messages.Scheduled) (messages.ScheduledID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.ScheduledMessageWriter.Create(m)
}

func (w faultyScheduled) Update(m messages.Scheduled) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ScheduledMessageWriter.Update(m)
}

func (w faultyScheduled) Delete(u users.ID, id messages.ScheduledID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ScheduledMessageWriter.Delete(u, id)
}

func (w faultyScheduled) MarkDelivered(ids []messages.ScheduledID, sent []messages.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ScheduledMessageWriter.MarkDelivered(ids, sent)
}
