package memory

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func (t *readTx) ScheduledMessages() storage.ScheduledMessageReader { return scheduledTx{t: t} }
func (t *tx) ScheduledMessages() storage.ScheduledMessageWriter {
	return scheduledTx{t: &t.readTx, j: t.j}
}

// scheduledTx is the scheduled messages accessor; j is nil in a read-only transaction. The
// store's single writer lock is what ClaimDue's row locks are elsewhere.
type scheduledTx struct {
	t *readTx
	j *journal
}

func (a scheduledTx) Get(sender users.ID, id messages.ScheduledID) (messages.Scheduled, error) {
	if err := a.t.live(); err != nil {
		return messages.Scheduled{}, err
	}
	m, ok := a.t.d.scheduled[id]
	if !ok || m.SenderID != sender {
		return messages.Scheduled{}, notFound("scheduled message", id)
	}
	return m.Clone(), nil
}

// byDeliverAt orders scheduled messages by delivery time, then id.
func byDeliverAt(x, y messages.Scheduled) int {
	return cmp.Or(cmp.Compare(x.DeliverAt, y.DeliverAt), cmp.Compare(x.ID, y.ID))
}

func (a scheduledTx) ListPending(sender users.ID, kind messages.ScheduledKind) ([]messages.Scheduled, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []messages.Scheduled{}
	for _, m := range a.t.d.scheduled {
		if m.SenderID == sender && m.Kind == kind && !m.Delivered {
			out = append(out, m.Clone())
		}
	}
	slices.SortFunc(out, byDeliverAt)
	return out, nil
}

func (a scheduledTx) NextDue() (int64, bool, error) {
	if err := a.t.live(); err != nil {
		return 0, false, err
	}
	var at int64
	found := false
	for _, m := range a.t.d.scheduled {
		if !m.Delivered && !m.Failed && (!found || m.DeliverAt < at) {
			at, found = m.DeliverAt, true
		}
	}
	return at, found, nil
}

func (a scheduledTx) Create(m messages.Scheduled) (messages.ScheduledID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if a.t.d.scheduled == nil {
		a.t.d.scheduled = map[messages.ScheduledID]messages.Scheduled{}
	}
	m = m.Clone()
	m.ID = nextID(a.j, &a.t.d.scheduledSeq)
	setKey(a.j, a.t.d.scheduled, m.ID, m)
	return m.ID, nil
}

func (a scheduledTx) Update(m messages.Scheduled) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.scheduled[m.ID]
	if !ok || old.SenderID != m.SenderID {
		return notFound("scheduled message", m.ID)
	}
	setKey(a.j, a.t.d.scheduled, m.ID, m.Clone())
	return nil
}

func (a scheduledTx) Delete(sender users.ID, id messages.ScheduledID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.scheduled[id]
	if !ok || old.SenderID != sender {
		return notFound("scheduled message", id)
	}
	deleteKey(a.j, a.t.d.scheduled, id)
	return nil
}

func (a scheduledTx) ClaimDue(now int64, limit int) ([]messages.Scheduled, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []messages.Scheduled{}
	for _, m := range a.t.d.scheduled {
		if !m.Delivered && !m.Failed && m.DeliverAt <= now {
			out = append(out, m.Clone())
		}
	}
	slices.SortFunc(out, byDeliverAt)
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (a scheduledTx) MarkDelivered(ids []messages.ScheduledID, sent []messages.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for i, id := range ids {
		m, ok := a.t.d.scheduled[id]
		if !ok {
			continue
		}
		m = m.Clone()
		m.Delivered, m.DeliveredMessageID = true, sent[i]
		setKey(a.j, a.t.d.scheduled, id, m)
	}
	return nil
}
