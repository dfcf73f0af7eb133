package memory

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// attachmentData holds the attachments, their links to messages (indexed both ways) and the
// URL-signing secret.
type attachmentData struct {
	rows      map[uploads.ID]uploads.Attachment
	seq       uploads.ID
	byPath    map[string]uploads.ID
	links     map[uploads.Link]struct{}
	totalSize int64
	urlKey    []byte
}

func newAttachmentData() attachmentData {
	return attachmentData{rows: map[uploads.ID]uploads.Attachment{}, byPath: map[string]uploads.ID{}, links: map[uploads.Link]struct{}{}}
}

func (a attachmentData) clone() attachmentData {
	return attachmentData{
		rows: cloneMap(a.rows, same), seq: a.seq, byPath: cloneMap(a.byPath, same),
		links: cloneMap(a.links, same), totalSize: a.totalSize, urlKey: slices.Clone(a.urlKey),
	}
}

// attachmentTx is the attachments accessor; j is nil in a read-only transaction.
type attachmentTx struct {
	t *readTx
	j *journal
}

func (a attachmentTx) d() *attachmentData { return &a.t.d.attach }

func (a attachmentTx) Get(id uploads.ID) (uploads.Attachment, error) {
	if err := a.t.live(); err != nil {
		return uploads.Attachment{}, err
	}
	r, ok := a.d().rows[id]
	if !ok {
		return uploads.Attachment{}, notFound("attachment", id)
	}
	return r, nil
}

func (a attachmentTx) GetByPath(p string) (uploads.Attachment, error) {
	if err := a.t.live(); err != nil {
		return uploads.Attachment{}, err
	}
	id, ok := a.d().byPath[p]
	if !ok {
		return uploads.Attachment{}, notFound("attachment path", p)
	}
	return a.d().rows[id], nil
}

func (a attachmentTx) GetByPaths(paths []string) ([]uploads.Attachment, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []uploads.Attachment{}
	for _, p := range paths {
		if id, ok := a.d().byPath[p]; ok && !slices.ContainsFunc(out, func(x uploads.Attachment) bool { return x.ID == id }) {
			out = append(out, a.d().rows[id])
		}
	}
	slices.SortFunc(out, func(x, y uploads.Attachment) int { return cmp.Compare(x.ID, y.ID) })
	return out, nil
}

func (a attachmentTx) ListByOwner(u users.ID) ([]uploads.Attachment, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []uploads.Attachment{}
	for _, r := range sortedValues(a.d().rows, same) {
		if r.OwnerID == u {
			out = append(out, r)
		}
	}
	return out, nil
}

func (a attachmentTx) TotalSize() (int64, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	return a.d().totalSize, nil
}

// linksWhere lists the links keep accepts, ordered by less.
func (a attachmentTx) linksWhere(keep func(uploads.Link) bool, byMessage bool) []uploads.Link {
	out := []uploads.Link{}
	for l := range a.d().links {
		if keep(l) {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(x, y uploads.Link) int {
		if byMessage {
			return cmp.Or(cmp.Compare(x.MessageID, y.MessageID), cmp.Compare(x.AttachmentID, y.AttachmentID))
		}
		return cmp.Or(cmp.Compare(x.AttachmentID, y.AttachmentID), cmp.Compare(x.MessageID, y.MessageID))
	})
	return out
}

func (a attachmentTx) Links(ids []uploads.ID) ([]uploads.Link, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return a.linksWhere(func(l uploads.Link) bool { return slices.Contains(ids, l.AttachmentID) }, false), nil
}

func (a attachmentTx) MessageLinks(ids []messages.ID) ([]uploads.Link, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return a.linksWhere(func(l uploads.Link) bool { return slices.Contains(ids, l.MessageID) }, true), nil
}

func (a attachmentTx) URLKey() ([]byte, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	if a.d().urlKey == nil {
		return nil, notFound("upload URL key", 1)
	}
	return slices.Clone(a.d().urlKey), nil
}

func (a attachmentTx) Create(r uploads.Attachment) (uploads.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	d := a.d()
	if _, taken := d.byPath[r.PathID]; taken {
		return 0, conflict("attachment path " + r.PathID)
	}
	r.ID = nextID(a.j, &d.seq)
	setKey(a.j, d.rows, r.ID, r)
	setKey(a.j, d.byPath, r.PathID, r.ID)
	a.addSize(r.Size)
	return r.ID, nil
}

func (a attachmentTx) addSize(n int64) {
	d := a.d()
	d.totalSize += n
	a.j.undo = append(a.j.undo, func() { d.totalSize -= n })
}

func (a attachmentTx) Delete(ids []uploads.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	d := a.d()
	for _, id := range ids {
		r, ok := d.rows[id]
		if !ok {
			continue
		}
		deleteKey(a.j, d.rows, id)
		deleteKey(a.j, d.byPath, r.PathID)
		a.addSize(-r.Size)
	}
	for l := range d.links {
		if slices.Contains(ids, l.AttachmentID) {
			deleteKey(a.j, d.links, l)
		}
	}
	return nil
}

func (a attachmentTx) Link(links []uploads.Link) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, l := range links {
		if _, ok := a.d().links[l]; !ok {
			setKey(a.j, a.d().links, l, struct{}{})
		}
	}
	return nil
}

func (a attachmentTx) Unlink(links []uploads.Link) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, l := range links {
		deleteKey(a.j, a.d().links, l)
	}
	return nil
}

func (a attachmentTx) PutURLKey(key []byte) error {
	if err := a.t.live(); err != nil {
		return err
	}
	d := a.d()
	if d.urlKey != nil {
		return conflict("upload URL key")
	}
	d.urlKey = slices.Clone(key)
	a.j.undo = append(a.j.undo, func() { d.urlKey = nil })
	return nil
}

func (t *readTx) Attachments() storage.AttachmentReader { return attachmentTx{t: t} }
func (t *tx) Attachments() storage.AttachmentWriter     { return attachmentTx{t: &t.readTx, j: t.j} }
