package memory

import (
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func (t *readTx) Archives() storage.ArchiveReader { return archiveTx{t: t} }
func (t *tx) Archives() storage.ArchiveWriter     { return archiveTx{t: &t.readTx, j: t.j} }

// archiveTx is the archives accessor; j is nil in a read-only transaction. Archives are
// stored whole and copied in and out.
type archiveTx struct {
	t *readTx
	j *journal
}

func (a archiveTx) Get(id storage.ArchiveID) (storage.Archive, error) {
	if err := a.t.live(); err != nil {
		return storage.Archive{}, err
	}
	ar, ok := a.t.d.archives[id]
	if !ok {
		return storage.Archive{}, notFound("archive", id)
	}
	return cloneArchive(ar), nil
}

func (a archiveTx) List(before int64, limit int) ([]storage.ArchiveID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []storage.ArchiveID{}
	for id, ar := range a.t.d.archives {
		if before == 0 || ar.ArchivedAt < before {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (a archiveTx) Expired(q storage.ExpiredQuery) ([]messages.ID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []messages.ID{}
	if q.Limit <= 0 {
		return out, nil
	}
	md := &a.t.d.msgs
	for _, c := range q.ChannelIDs {
		if x := md.byChannel[c]; x != nil {
			for _, id := range x.ids {
				if md.messages[id].Timestamp < q.Before {
					out = append(out, id)
				}
			}
		}
	}
	if q.Direct {
		for id, m := range md.messages {
			if m.IsDirect() && m.Timestamp < q.Before {
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	if len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

func (a archiveTx) Create(ar storage.Archive) (storage.ArchiveID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if a.t.d.archives == nil {
		a.t.d.archives = map[storage.ArchiveID]storage.Archive{}
	}
	ar = cloneArchive(ar)
	ar.ID = nextID(a.j, &a.t.d.archiveSeq)
	setKey(a.j, a.t.d.archives, ar.ID, ar)
	return ar.ID, nil
}

func (a archiveTx) Delete(ids []storage.ArchiveID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, id := range ids {
		deleteKey(a.j, a.t.d.archives, id)
	}
	return nil
}

func (a archiveTx) Reinsert(msgs []messages.Message, rows []messages.UserMessage, reactions []messages.Reaction) error {
	if err := a.t.live(); err != nil {
		return err
	}
	m := messageTx{t: a.t, j: a.j}
	for _, msg := range msgs {
		if _, ok := m.md().messages[msg.ID]; ok {
			return conflict("message")
		}
	}
	byMessage := map[messages.ID]map[users.ID]messages.Flags{}
	for _, r := range rows {
		if byMessage[r.MessageID] == nil {
			byMessage[r.MessageID] = map[users.ID]messages.Flags{}
		}
		byMessage[r.MessageID][r.UserID] = r.Flags
	}
	for _, msg := range msgs {
		msg = msg.Clone()
		m.replaceMessage(msg)
		m.index(msg.ID, messages.SearchDocOf(msg))
		flags := byMessage[msg.ID]
		if flags == nil {
			flags = map[users.ID]messages.Flags{}
		}
		setKey(a.j, m.md().rows, msg.ID, flags)
		for u := range flags {
			addToList(a.j, listOf(m.md().idx.byUser, u), msg.ID)
		}
		if msg.ID > m.md().msgSeq {
			// Cannot happen (archived ids were taken), but keep the sequence above every id.
			old := m.md().msgSeq
			m.md().msgSeq = msg.ID
			a.j.undo = append(a.j.undo, func() { m.md().msgSeq = old })
		}
	}
	for _, r := range reactions {
		if err := m.AddReaction(r); err != nil {
			return err
		}
	}
	return nil
}

// cloneArchive copies an archive's lists.
func cloneArchive(ar storage.Archive) storage.Archive {
	ar.Messages = slices.Clone(ar.Messages)
	for i, m := range ar.Messages {
		ar.Messages[i] = m.Clone()
	}
	ar.Rows = slices.Clone(ar.Rows)
	ar.Reactions = slices.Clone(ar.Reactions)
	ar.Attachments = slices.Clone(ar.Attachments)
	ar.Links = slices.Clone(ar.Links)
	return ar
}
