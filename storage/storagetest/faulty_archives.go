package storagetest

import (
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
)

func (t faultyTx) Archives() storage.ArchiveWriter {
	return faultyArchives{t.Tx.Archives(), t.f}
}

type faultyArchives struct {
	storage.ArchiveWriter
	f *Faulty
}

func (w faultyArchives) Create(a storage.Archive) (storage.ArchiveID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.ArchiveWriter.Create(a)
}

func (w faultyArchives) Delete(ids []storage.ArchiveID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ArchiveWriter.Delete(ids)
}

func (w faultyArchives) Reinsert(msgs []messages.Message, rows []messages.UserMessage, reactions []messages.Reaction) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ArchiveWriter.Reinsert(msgs, rows, reactions)
}
