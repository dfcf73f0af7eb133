package storagetest

import (
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

type faultyDrafts struct {
	storage.DraftWriter
	f *Faulty
}

func (w faultyDrafts) Create(d []drafts.Draft) ([]drafts.ID, error) {
	if err := w.f.write(); err != nil {
		return nil, err
	}
	return w.DraftWriter.Create(d)
}

func (w faultyDrafts) Update(d drafts.Draft) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.DraftWriter.Update(d)
}

func (w faultyDrafts) Delete(u users.ID, id drafts.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.DraftWriter.Delete(u, id)
}

func (w faultyDrafts) DeleteForUser(u users.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.DraftWriter.DeleteForUser(u)
}

func (w faultyDrafts) SetSyncDisabled(u users.ID, disabled bool) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.DraftWriter.SetSyncDisabled(u, disabled)
}

type faultySnippets struct {
	storage.SnippetWriter
	f *Faulty
}

func (w faultySnippets) Create(s drafts.SavedSnippet) (drafts.SnippetID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.SnippetWriter.Create(s)
}

func (w faultySnippets) Update(s drafts.SavedSnippet) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.SnippetWriter.Update(s)
}

func (w faultySnippets) Delete(u users.ID, id drafts.SnippetID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.SnippetWriter.Delete(u, id)
}

type faultyNavViews struct {
	storage.NavigationViewWriter
	f *Faulty
}

func (w faultyNavViews) Create(v drafts.NavigationView) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.NavigationViewWriter.Create(v)
}

func (w faultyNavViews) Update(v drafts.NavigationView) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.NavigationViewWriter.Update(v)
}

func (w faultyNavViews) Delete(u users.ID, fragment string) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.NavigationViewWriter.Delete(u, fragment)
}
