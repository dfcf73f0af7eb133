package compose

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// DraftParams is a draft as a client sends it (POST /drafts, PATCH /drafts/{draft_id}). Type,
// To, Topic and Content are required; the pointers tell absent from empty.
type DraftParams struct {
	Type    *string  `json:"type"`
	To      *[]int64 `json:"to"`
	Topic   *string  `json:"topic"`
	Content *string  `json:"content"`
	// Timestamp is the UNIX time of the last edit (seconds, fractions allowed); nil means now.
	Timestamp *float64 `json:"timestamp"`
}

// DraftRecord is a draft as the API returns it.
type DraftRecord struct {
	ID        drafts.ID `json:"id"`
	Type      string    `json:"type"`
	To        []int64   `json:"to"`
	Topic     string    `json:"topic"`
	Content   string    `json:"content"`
	Timestamp int64     `json:"timestamp"`
}

func draftRecord(d drafts.Draft) DraftRecord {
	to := slices.Clone(d.To)
	if to == nil {
		to = []int64{}
	}
	return DraftRecord{ID: d.ID, Type: string(d.Type), To: to, Topic: d.Topic, Content: d.Content, Timestamp: d.Timestamp}
}

// DraftsEvent is a drafts event: op add (Drafts), update (Draft) or remove (DraftID).
type DraftsEvent struct {
	Type    string        `json:"type"`
	Op      string        `json:"op"`
	Drafts  []DraftRecord `json:"drafts,omitempty"`
	Draft   *DraftRecord  `json:"draft,omitempty"`
	DraftID drafts.ID     `json:"draft_id,omitempty"`
}

// maxDraftTimestamp is the last second of year 9999, the latest time Zulip can store.
const maxDraftTimestamp = 253402300799

// errDraftNotFound is Zulip's answer for an unknown draft or another user's.
func errDraftNotFound() *engine.Error {
	return &engine.Error{Code: engine.CodeBadRequest, Status: 404, Msg: "Draft does not exist"}
}

// errDraftsSyncDisabled refuses every draft operation of a user with synchronisation off.
func errDraftsSyncDisabled() *engine.Error {
	return engine.RuleError(drafts.ErrSyncDisabled)
}

// GetDraftsParams are the parameters of GET /drafts (none).
type GetDraftsParams struct{}

// GetDraftsResult lists the actor's drafts by last edit, oldest first.
type GetDraftsResult struct {
	Count  int           `json:"count"`
	Drafts []DraftRecord `json:"drafts"`
}

// GetDrafts returns the actor's drafts.
func (s *Service) GetDrafts(ctx context.Context, actor engine.Actor, _ GetDraftsParams) (GetDraftsResult, error) {
	res := GetDraftsResult{Drafts: []DraftRecord{}}
	err := s.eng.Read(ctx, actor, draftsUsers, func(o *engine.ReadOp) error {
		list, err := o.Tx.Drafts().ListForUser(o.Me.ID)
		if err != nil {
			return err
		}
		for _, d := range list {
			res.Drafts = append(res.Drafts, draftRecord(d))
		}
		res.Count = len(res.Drafts)
		return nil
	})
	if err != nil {
		return GetDraftsResult{}, err
	}
	return res, nil
}

// CreateDraftsParams are the parameters of POST /drafts.
type CreateDraftsParams struct {
	Drafts []DraftParams
}

// CreateDraftsResult holds the new drafts' ids, in the order given.
type CreateDraftsResult struct {
	IDs []drafts.ID `json:"ids"`
}

// CreateDrafts stores new drafts of the actor and sends one drafts add event to the actor.
// Either every draft is valid and stored, or none is.
func (s *Service) CreateDrafts(ctx context.Context, actor engine.Actor, p CreateDraftsParams) (CreateDraftsResult, error) {
	if len(p.Drafts) > drafts.MaxPerRequest {
		return CreateDraftsResult{}, engine.BadRequest("drafts is too long (limit: %d items)", drafts.MaxPerRequest)
	}
	var res CreateDraftsResult
	err := s.eng.Mutate(ctx, actor, draftsUsers, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		dc := draftChecker{owner: u, now: o.Now.Unix(), ur: tx.Users(), gr: tx.Groups(), cr: tx.Channels(), sr: tx.Subscriptions()}
		list := make([]drafts.Draft, len(p.Drafts))
		for i, dp := range p.Drafts {
			d, err := dc.check(dp, fmt.Sprintf("drafts[%d]", i))
			if err != nil {
				return err
			}
			list[i] = d
		}
		ids, err := tx.Drafts().Create(list)
		if err != nil {
			return err
		}
		records := make([]DraftRecord, len(list))
		for i := range list {
			list[i].ID = ids[i]
			records[i] = draftRecord(list[i])
		}
		res.IDs = ids
		ev.Emit(DraftsEvent{Type: "drafts", Op: "add", Drafts: records}, []int64{int64(u.ID)})
		return nil
	})
	if err != nil {
		return CreateDraftsResult{}, err
	}
	if res.IDs == nil {
		res.IDs = []drafts.ID{}
	}
	return res, nil
}

// EditDraftParams are the parameters of PATCH /drafts/{draft_id}: the draft replaces the
// stored one whole.
type EditDraftParams struct {
	DraftID drafts.ID
	Draft   DraftParams
}

// EditDraftResult is empty.
type EditDraftResult struct{}

// EditDraft replaces one of the actor's drafts and sends a drafts update event to the actor.
// An unknown id, or another user's draft, is "Draft does not exist" (404, BAD_REQUEST).
func (s *Service) EditDraft(ctx context.Context, actor engine.Actor, p EditDraftParams) (EditDraftResult, error) {
	err := s.eng.Mutate(ctx, actor, draftsUsers, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		if _, err := tx.Drafts().Get(u.ID, p.DraftID); err != nil {
			return engine.NotFound(err, errDraftNotFound)
		}
		dc := draftChecker{owner: u, now: o.Now.Unix(), ur: tx.Users(), gr: tx.Groups(), cr: tx.Channels(), sr: tx.Subscriptions()}
		d, err := dc.check(p.Draft, "draft")
		if err != nil {
			return err
		}
		d.ID = p.DraftID
		if err := tx.Drafts().Update(d); err != nil {
			return err
		}
		rec := draftRecord(d)
		ev.Emit(DraftsEvent{Type: "drafts", Op: "update", Draft: &rec}, []int64{int64(u.ID)})
		return nil
	})
	return EditDraftResult{}, err
}

// DeleteDraftParams are the parameters of DELETE /drafts/{draft_id}.
type DeleteDraftParams struct {
	DraftID drafts.ID
}

// DeleteDraftResult is empty.
type DeleteDraftResult struct{}

// DeleteDraft removes one of the actor's drafts and sends a drafts remove event to the actor.
func (s *Service) DeleteDraft(ctx context.Context, actor engine.Actor, p DeleteDraftParams) (DeleteDraftResult, error) {
	err := s.eng.Mutate(ctx, actor, draftsUsers, func(o *engine.WriteOp) error {
		if err := engine.NotFound(o.Tx.Drafts().Delete(o.Me.ID, p.DraftID), errDraftNotFound); err != nil {
			return err
		}
		o.Ev.Emit(DraftsEvent{Type: "drafts", Op: "remove", DraftID: p.DraftID}, []int64{int64(o.Me.ID)})
		return nil
	})
	return DeleteDraftResult{}, err
}

// draftsUsers is the gate of the drafts area: signed in, with draft synchronisation on.
func draftsUsers(tx storage.ReadTx, actor engine.Actor) (users.User, error) {
	u, err := engine.SignedIn(tx, actor)
	if err != nil {
		return users.User{}, err
	}
	off, err := tx.Drafts().SyncDisabled(u.ID)
	if err != nil {
		return users.User{}, err
	}
	if off {
		return users.User{}, errDraftsSyncDisabled()
	}
	return u, nil
}

// draftChecker validates submitted drafts of one owner inside a transaction.
type draftChecker struct {
	owner users.User
	now   int64
	ur    storage.UserReader
	gr    storage.GroupReader
	cr    storage.ChannelReader
	sr    storage.SubscriptionReader
	m     *users.Membership // loaded on first need
}

// check validates a submitted draft (name is its parameter path, drafts[0] or draft) and
// returns the record to store.
func (dc *draftChecker) check(p DraftParams, name string) (drafts.Draft, error) {
	owner, now := dc.owner.ID, dc.now
	for _, f := range []struct {
		key     string
		present bool
	}{{"type", p.Type != nil}, {"to", p.To != nil}, {"topic", p.Topic != nil}, {"content", p.Content != nil}} {
		if !f.present {
			return drafts.Draft{}, engine.BadRequest(`%s["%s"] field is missing`, name, f.key)
		}
	}
	d := drafts.Draft{UserID: owner, Type: drafts.Type(*p.Type), To: *p.To, Topic: *p.Topic, Content: *p.Content, Timestamp: now}
	if p.Timestamp != nil {
		ts := *p.Timestamp
		switch {
		case math.IsNaN(ts) || ts > maxDraftTimestamp:
			return drafts.Draft{}, engine.InvalidArgument(name+`["timestamp"]`, "")
		case ts < 0:
			return drafts.Draft{}, engine.BadRequest("Timestamp must not be negative.")
		}
		d.Timestamp = int64(ts)
	}
	d, err := drafts.Normalize(d, owner)
	var fe *drafts.FieldError
	if errors.As(err, &fe) {
		switch {
		case fe.Blank:
			return drafts.Draft{}, engine.BadRequest(`%s["%s"] cannot be blank`, name, fe.Field)
		case fe.Field == "type":
			return drafts.Draft{}, engine.InvalidArgument(fmt.Sprintf(`%s["type"]`, name), "")
		}
		return drafts.Draft{}, engine.BadRequest("%s", fe.Msg)
	}
	if err != nil {
		return drafts.Draft{}, err
	}
	switch d.Type {
	case drafts.TypeStream:
		if err := dc.checkChannel(d.To[0]); err != nil {
			return drafts.Draft{}, err
		}
	case drafts.TypePrivate:
		if err := checkDraftRecipients(dc.ur, d.To); err != nil {
			return drafts.Draft{}, err
		}
	}
	return d, nil
}

// checkDraftRecipients refuses user ids that name no user.
func checkDraftRecipients(ur storage.UserReader, ids []int64) error {
	want := make([]users.ID, len(ids))
	for i, id := range ids {
		want[i] = users.ID(id)
	}
	found, err := ur.GetMany(want)
	if err != nil {
		return err
	}
	have := make(map[users.ID]bool, len(found))
	for _, u := range found {
		have[u.ID] = true
	}
	for _, id := range want {
		if !have[id] {
			return engine.BadRequest("Invalid user ID %d", id)
		}
	}
	return nil
}

// checkChannel refuses a channel the owner has no content access to, with the same message
// as an unknown one ("Invalid channel ID").
func (dc *draftChecker) checkChannel(id int64) error {
	invalid := engine.BadRequest("Invalid channel ID")
	c, err := dc.cr.Get(channels.ID(id))
	if errors.Is(err, storage.ErrNotFound) {
		return invalid
	} else if err != nil {
		return err
	}
	sub, err := dc.sr.Get(dc.owner.ID, c.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	if dc.m == nil {
		groups, err := dc.gr.List()
		if err != nil {
			return err
		}
		all, err := dc.ur.List()
		if err != nil {
			return err
		}
		active := make(map[users.ID]bool, len(all))
		for _, u := range all {
			active[u.ID] = u.IsActive
		}
		dc.m = users.NewMembership(groups, active)
	}
	if !channels.HasContentAccess(dc.m, c, channels.Viewer{User: dc.owner, Subscribed: err == nil && sub.Active}) {
		return invalid
	}
	return nil
}

// registerDrafts is register's drafts: the newest drafts.MaxInRegister, newest first; none when
// synchronisation is off.
func registerDrafts(tx storage.ReadTx, viewer users.User) ([]DraftRecord, error) {
	out := []DraftRecord{}
	off, err := tx.Drafts().SyncDisabled(viewer.ID)
	if err != nil || off {
		return out, err
	}
	list, err := tx.Drafts().ListForUser(viewer.ID)
	if err != nil {
		return nil, err
	}
	for i := len(list) - 1; i >= 0 && len(out) < drafts.MaxInRegister; i-- {
		out = append(out, draftRecord(list[i]))
	}
	return out, nil
}
