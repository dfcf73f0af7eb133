package storagetest

import (
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/storage"
)

type faultyLinkifiers struct {
	storage.LinkifierWriter
	f *Faulty
}

func (w faultyLinkifiers) Create(l linkifiers.Linkifier) (linkifiers.ID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.LinkifierWriter.Create(l)
}

func (w faultyLinkifiers) Update(l linkifiers.Linkifier) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.LinkifierWriter.Update(l)
}

func (w faultyLinkifiers) Delete(id linkifiers.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.LinkifierWriter.Delete(id)
}

func (w faultyLinkifiers) Reorder(ids []linkifiers.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.LinkifierWriter.Reorder(ids)
}

type faultyPlaygrounds struct {
	storage.PlaygroundWriter
	f *Faulty
}

func (w faultyPlaygrounds) Create(p linkifiers.Playground) (linkifiers.PlaygroundID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.PlaygroundWriter.Create(p)
}

func (w faultyPlaygrounds) Delete(id linkifiers.PlaygroundID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.PlaygroundWriter.Delete(id)
}
