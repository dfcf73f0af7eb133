package storagetest

import (
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
)

func (t faultyTx) Attachments() storage.AttachmentWriter {
	return faultyAttachments{t.Tx.Attachments(), t.f}
}

type faultyAttachments struct {
	storage.AttachmentWriter
	f *Faulty
}

func (w faultyAttachments) Create(a uploads.Attachment) (uploads.ID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.AttachmentWriter.Create(a)
}

func (w faultyAttachments) Delete(ids []uploads.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.AttachmentWriter.Delete(ids)
}

func (w faultyAttachments) Link(l []uploads.Link) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.AttachmentWriter.Link(l)
}

func (w faultyAttachments) Unlink(l []uploads.Link) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.AttachmentWriter.Unlink(l)
}

func (w faultyAttachments) PutURLKey(k []byte) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.AttachmentWriter.PutURLKey(k)
}
