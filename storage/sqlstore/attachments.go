package sqlstore

import (
	"database/sql"
	"encoding/json"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// attachmentTx is the attachments accessor.
type attachmentTx struct{ t *txn }

const attachmentColumns = "id, owner_id, path_id, name, size, content_type, create_time, width, height, thumbnailed"

func scanAttachment(r *sql.Rows) (uploads.Attachment, error) {
	var a uploads.Attachment
	err := r.Scan(&a.ID, &a.OwnerID, &a.PathID, &a.Name, &a.Size, &a.ContentType, &a.CreateTime, &a.Width, &a.Height, &a.Thumbnailed)
	return a, err
}

func (a attachmentTx) one(where string, arg any, what string) (uploads.Attachment, error) {
	list, err := scanAll(a.t, scanAttachment, "SELECT "+attachmentColumns+" FROM attachments WHERE "+where, arg)
	if err != nil {
		return uploads.Attachment{}, err
	}
	if len(list) == 0 {
		return uploads.Attachment{}, notFound(what, arg)
	}
	return list[0], nil
}

func (a attachmentTx) Get(id uploads.ID) (uploads.Attachment, error) {
	return a.one("id = ?", id, "attachment")
}

func (a attachmentTx) GetByPath(p string) (uploads.Attachment, error) {
	return a.one("path_id = ?", p, "attachment path")
}

// stringSet is the subquery of a list of strings passed as one JSON parameter.
func (a attachmentTx) stringSet() string {
	if a.t.d.postgres {
		return "SELECT jsonb_array_elements_text(CAST(? AS jsonb))"
	}
	return "SELECT value FROM json_each(?)"
}

func (a attachmentTx) GetByPaths(paths []string) ([]uploads.Attachment, error) {
	if len(paths) == 0 {
		return []uploads.Attachment{}, nil
	}
	raw, _ := json.Marshal(paths) // cannot fail: strings only
	out, err := scanAll(a.t, scanAttachment, "SELECT "+attachmentColumns+" FROM attachments WHERE path_id IN ("+a.stringSet()+") ORDER BY id", string(raw))
	if out == nil && err == nil {
		out = []uploads.Attachment{}
	}
	return out, err
}

func (a attachmentTx) ListByOwner(u users.ID) ([]uploads.Attachment, error) {
	out, err := scanAll(a.t, scanAttachment, "SELECT "+attachmentColumns+" FROM attachments WHERE owner_id = ? ORDER BY id", u)
	if out == nil && err == nil {
		out = []uploads.Attachment{}
	}
	return out, err
}

func (a attachmentTx) TotalSize() (int64, error) {
	var n int64
	err := a.t.get("SELECT COALESCE(SUM(size), 0) FROM attachments", nil, &n)
	return n, err
}

func scanLink(r *sql.Rows) (uploads.Link, error) {
	var l uploads.Link
	err := r.Scan(&l.AttachmentID, &l.MessageID)
	return l, err
}

func (a attachmentTx) Links(list []uploads.ID) ([]uploads.Link, error) {
	out, err := scanAll(a.t, scanLink, "SELECT attachment_id, message_id FROM attachment_messages WHERE attachment_id IN ("+
		a.t.d.idSet+") ORDER BY attachment_id, message_id", ids(a.t.d, list))
	if out == nil && err == nil {
		out = []uploads.Link{}
	}
	return out, err
}

func (a attachmentTx) MessageLinks(msgIDs []messages.ID) ([]uploads.Link, error) {
	out, err := scanAll(a.t, scanLink, "SELECT attachment_id, message_id FROM attachment_messages WHERE message_id IN ("+
		a.t.d.idSet+") ORDER BY message_id, attachment_id", ids(a.t.d, msgIDs))
	if out == nil && err == nil {
		out = []uploads.Link{}
	}
	return out, err
}

func (a attachmentTx) URLKey() ([]byte, error) {
	var key []byte
	if err := a.t.get("SELECT secret FROM upload_url_key WHERE id = 1", nil, &key); err != nil {
		return nil, err
	}
	return key, nil
}

func (a attachmentTx) Create(r uploads.Attachment) (uploads.ID, error) {
	var id uploads.ID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO attachments (owner_id, path_id, name, size, content_type, create_time, width, height, thumbnailed)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			[]any{r.OwnerID, r.PathID, r.Name, r.Size, r.ContentType, r.CreateTime, r.Width, r.Height, r.Thumbnailed}, &id)
	})
	return id, err
}

func (a attachmentTx) Delete(list []uploads.ID) error {
	if len(list) == 0 {
		return nil
	}
	set := ids(a.t.d, list)
	if _, err := a.t.exec("DELETE FROM attachment_messages WHERE attachment_id IN ("+a.t.d.idSet+")", set); err != nil {
		return err
	}
	_, err := a.t.exec("DELETE FROM attachments WHERE id IN ("+a.t.d.idSet+")", set)
	return err
}

func (a attachmentTx) Link(links []uploads.Link) error {
	rows := make([][]any, len(links))
	for i, l := range links {
		rows[i] = []any{l.AttachmentID, l.MessageID}
	}
	return insertRows(a.t, "INSERT INTO attachment_messages (attachment_id, message_id)", 2, rows, "ON CONFLICT DO NOTHING")
}

func (a attachmentTx) Unlink(links []uploads.Link) error {
	// One statement per attachment, with its messages as one parameter.
	byAttachment := map[uploads.ID][]messages.ID{}
	var order []uploads.ID
	for _, l := range links {
		if _, ok := byAttachment[l.AttachmentID]; !ok {
			order = append(order, l.AttachmentID)
		}
		byAttachment[l.AttachmentID] = append(byAttachment[l.AttachmentID], l.MessageID)
	}
	for _, id := range order {
		if _, err := a.t.exec("DELETE FROM attachment_messages WHERE attachment_id = ? AND message_id IN ("+a.t.d.idSet+")",
			id, ids(a.t.d, byAttachment[id])); err != nil {
			return err
		}
	}
	return nil
}

func (a attachmentTx) PutURLKey(key []byte) error {
	return a.t.guarded(func() error {
		_, err := a.t.exec("INSERT INTO upload_url_key (id, secret) VALUES (1, ?)", key)
		return err
	})
}

func (r *readTx) Attachments() storage.AttachmentReader { return attachmentTx{r.t} }
func (w *tx) Attachments() storage.AttachmentWriter     { return attachmentTx{w.t} }
