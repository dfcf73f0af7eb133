package files

import (
	"context"
	"errors"
	"slices"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// AttachmentMessage is one message that links an attachment: its id and when it was sent
// (milliseconds since the epoch).
type AttachmentMessage struct {
	ID       messages.ID `json:"id"`
	DateSent int64       `json:"date_sent"`
}

// AttachmentRecord is an uploaded file as GET /attachments and attachment events show it.
type AttachmentRecord struct {
	ID         uploads.ID          `json:"id"`
	Name       string              `json:"name"`
	PathID     string              `json:"path_id"`
	Size       int64               `json:"size"`
	CreateTime int64               `json:"create_time"`
	Messages   []AttachmentMessage `json:"messages"`
}

// AttachmentEvent is the attachment event (op add, update or remove), sent to the file's
// owner. Attachment is an AttachmentRecord, or only the id for remove.
type AttachmentEvent struct {
	Type            string `json:"type"`
	Op              string `json:"op"`
	Attachment      any    `json:"attachment"`
	UploadSpaceUsed int64  `json:"upload_space_used"`
}

// attachmentID is the attachment of a remove event.
type attachmentID struct {
	ID uploads.ID `json:"id"`
}

// GetAttachmentsParams are the parameters of GET /attachments (none).
type GetAttachmentsParams struct{}

// GetAttachmentsResult lists the actor's uploaded files and the organization's upload space
// used, in bytes.
type GetAttachmentsResult struct {
	Attachments     []AttachmentRecord `json:"attachments"`
	UploadSpaceUsed int64              `json:"upload_space_used"`
}

// GetAttachments lists the files the actor uploaded, each with the messages that link it.
func (s *Service) GetAttachments(ctx context.Context, actor engine.Actor, _ GetAttachmentsParams) (GetAttachmentsResult, error) {
	res := GetAttachmentsResult{Attachments: []AttachmentRecord{}}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx := o.Tx
		list, err := tx.Attachments().ListByOwner(actor.UserID)
		if err != nil {
			return err
		}
		if res.Attachments, err = attachmentRecords(tx.Attachments(), tx.Messages(), list); err != nil {
			return err
		}
		res.UploadSpaceUsed, err = tx.Attachments().TotalSize()
		return err
	})
	if err != nil {
		return GetAttachmentsResult{}, err
	}
	return res, nil
}

// RemoveAttachmentParams are the parameters of DELETE /attachments/{attachment_id}.
type RemoveAttachmentParams struct {
	AttachmentID uploads.ID
}

var errInvalidAttachment = engine.BadRequest("Invalid attachment")

// RemoveAttachmentResult is RemoveAttachment's answer: nothing beyond success.
type RemoveAttachmentResult struct{}

// RemoveAttachment deletes a file the actor uploaded: its row and links in one transaction,
// its bytes after the commit. Messages that linked it keep their content. The actor gets an
// attachment remove event.
func (s *Service) RemoveAttachment(ctx context.Context, actor engine.Actor, p RemoveAttachmentParams) (RemoveAttachmentResult, error) {
	var gone uploads.Attachment
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		a, err := tx.Attachments().Get(p.AttachmentID)
		if err != nil || a.OwnerID != actor.UserID {
			return notFoundAs(err, errInvalidAttachment)
		}
		gone = a
		return s.deleteAttachments(tx, ev, []uploads.Attachment{a})
	})
	if err != nil {
		return RemoveAttachmentResult{}, err
	}
	s.DeleteAttachmentBlobs(context.WithoutCancel(ctx), gone)
	return RemoveAttachmentResult{}, nil
}

// notFoundAs maps a storage miss (or a nil error: a record the caller may not see) to the
// refusal given; other errors pass through.
func notFoundAs(err error, refusal error) error {
	if err == nil || isNotFound(err) {
		return refusal
	}
	return err
}

// deleteAttachments deletes attachments' rows and links and tells their owners; the caller
// deletes their bytes after the commit (ev.afterCommit would run them too late to report).
func (s *Service) deleteAttachments(tx storage.Tx, ev *engine.Events, list []uploads.Attachment) error {
	ids := make([]uploads.ID, len(list))
	for i, a := range list {
		ids[i] = a.ID
	}
	if err := tx.Attachments().Delete(ids); err != nil {
		return err
	}
	used, err := tx.Attachments().TotalSize()
	if err != nil {
		return err
	}
	for _, a := range list {
		ev.Emit(AttachmentEvent{Type: "attachment", Op: "remove", Attachment: attachmentID{a.ID}, UploadSpaceUsed: used},
			[]int64{int64(a.OwnerID)})
	}
	return nil
}

// attachmentRecords builds the records of attachments with the messages linking them.
func attachmentRecords(ar storage.AttachmentReader, mr storage.MessageReader, list []uploads.Attachment) ([]AttachmentRecord, error) {
	out := make([]AttachmentRecord, 0, len(list))
	if len(list) == 0 {
		return out, nil
	}
	ids := make([]uploads.ID, len(list))
	for i, a := range list {
		ids[i] = a.ID
	}
	links, err := ar.Links(ids)
	if err != nil {
		return nil, err
	}
	var msgIDs []messages.ID
	for _, l := range links {
		msgIDs = append(msgIDs, l.MessageID)
	}
	slices.Sort(msgIDs)
	msgs, err := mr.GetMany(slices.Compact(msgIDs))
	if err != nil {
		return nil, err
	}
	sent := map[messages.ID]int64{}
	for _, m := range msgs {
		sent[m.ID] = m.Timestamp * 1000
	}
	for _, a := range list {
		rec := AttachmentRecord{ID: a.ID, Name: a.Name, PathID: a.PathID, Size: a.Size, CreateTime: a.CreateTime, Messages: []AttachmentMessage{}}
		for _, l := range links {
			if l.AttachmentID == a.ID {
				rec.Messages = append(rec.Messages, AttachmentMessage{ID: l.MessageID, DateSent: sent[l.MessageID]})
			}
		}
		out = append(out, rec)
	}
	return out, nil
}

// addAttachmentEvent tells a's owner of an added or changed attachment.
func addAttachmentEvent(ar storage.AttachmentReader, mr storage.MessageReader, ev *engine.Events, op string, a uploads.Attachment) error {
	recs, err := attachmentRecords(ar, mr, []uploads.Attachment{a})
	if err != nil {
		return err
	}
	used, err := ar.TotalSize()
	if err != nil {
		return err
	}
	ev.Emit(AttachmentEvent{Type: "attachment", Op: op, Attachment: recs[0], UploadSpaceUsed: used}, []int64{int64(a.OwnerID)})
	return nil
}

// mayReadAttachment reports whether u may read a: u uploaded it, or may read a message that
// links it (received it, or reads the channel's shared history).
func mayReadAttachment(w *world.World, ar storage.AttachmentReader, mr storage.MessageReader, u users.User, a uploads.Attachment) (bool, error) {
	if a.OwnerID == u.ID && u.ID != 0 {
		return true, nil
	}
	links, err := ar.Links([]uploads.ID{a.ID})
	if err != nil || len(links) == 0 {
		return false, err
	}
	ids := make([]messages.ID, len(links))
	for i, l := range links {
		ids[i] = l.MessageID
	}
	msgs, err := mr.GetMany(ids)
	if err != nil {
		return false, err
	}
	received := map[messages.ID]bool{}
	if u.ID != 0 {
		rows, err := mr.UserRows(u.ID, ids)
		if err != nil {
			return false, err
		}
		for _, r := range rows {
			received[r.MessageID] = true
		}
	}
	for _, m := range msgs {
		if w.CanRead(u, m, received[m.ID]) {
			return true, nil
		}
	}
	return false, nil
}

// LinkAttachments ties message m to the uploads its content links and that its sender may
// read (links to anything else are left alone, as Zulip does), unties it from those its
// content no longer links (after an edit), and tells the owners of the attachments whose
// messages changed.
func LinkAttachments(w *world.World, tx storage.Tx, ev *engine.Events, m messages.Message) error {
	paths := uploads.LinkedPathIDs(m.Content)
	old, err := tx.Attachments().MessageLinks([]messages.ID{m.ID})
	if err != nil {
		return err
	}
	if len(paths) == 0 && len(old) == 0 {
		return nil
	}
	found, err := tx.Attachments().GetByPaths(paths)
	if err != nil {
		return err
	}
	sender := w.User(m.SenderID)
	keep := map[uploads.ID]bool{}
	var add []uploads.Link
	changed := map[uploads.ID]uploads.Attachment{}
	for _, a := range found {
		linked := slices.ContainsFunc(old, func(l uploads.Link) bool { return l.AttachmentID == a.ID })
		if !linked {
			ok, err := mayReadAttachment(w, tx.Attachments(), tx.Messages(), sender, a)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			add = append(add, uploads.Link{AttachmentID: a.ID, MessageID: m.ID})
			changed[a.ID] = a
		}
		keep[a.ID] = true
	}
	var drop []uploads.Link
	var dropped []uploads.ID
	for _, l := range old {
		if !keep[l.AttachmentID] {
			drop = append(drop, l)
			dropped = append(dropped, l.AttachmentID)
		}
	}
	if err := tx.Attachments().Link(add); err != nil {
		return err
	}
	if err := tx.Attachments().Unlink(drop); err != nil {
		return err
	}
	for _, id := range dropped {
		a, err := tx.Attachments().Get(id)
		if err != nil {
			if isNotFound(err) {
				continue
			}
			return err
		}
		changed[a.ID] = a
	}
	for _, id := range sortedKeys(changed) {
		if err := addAttachmentEvent(tx.Attachments(), tx.Messages(), ev, "update", changed[id]); err != nil {
			return err
		}
	}
	return nil
}

// ReleaseAttachments unties messages about to be deleted from their attachments and deletes
// the attachments no other message links any more; it returns those, whose bytes the caller
// deletes after the commit.
func (s *Service) ReleaseAttachments(tx storage.Tx, ev *engine.Events, ids []messages.ID) ([]uploads.Attachment, error) {
	links, err := tx.Attachments().MessageLinks(ids)
	if err != nil || len(links) == 0 {
		return nil, err
	}
	if err := tx.Attachments().Unlink(links); err != nil {
		return nil, err
	}
	var touched []uploads.ID
	for _, l := range links {
		touched = append(touched, l.AttachmentID)
	}
	slices.Sort(touched)
	touched = slices.Compact(touched)
	remaining, err := tx.Attachments().Links(touched)
	if err != nil {
		return nil, err
	}
	var orphaned, updated []uploads.Attachment
	for _, id := range touched {
		a, err := tx.Attachments().Get(id)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(remaining, func(l uploads.Link) bool { return l.AttachmentID == id }) {
			updated = append(updated, a)
		} else {
			orphaned = append(orphaned, a)
		}
	}
	for _, a := range updated {
		if err := addAttachmentEvent(tx.Attachments(), tx.Messages(), ev, "update", a); err != nil {
			return nil, err
		}
	}
	if len(orphaned) > 0 {
		if err := s.deleteAttachments(tx, ev, orphaned); err != nil {
			return nil, err
		}
	}
	return orphaned, nil
}

func isNotFound(err error) bool { return errors.Is(err, storage.ErrNotFound) }

// sortedKeys returns the keys of m, ascending.
func sortedKeys[V any](m map[uploads.ID]V) []uploads.ID {
	out := make([]uploads.ID, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
