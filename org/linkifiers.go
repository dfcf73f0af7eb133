package org

import (
	"context"
	"errors"
	"strings"

	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/storage"
)

// LinkifierRecord is a linkifier as the API returns it.
type LinkifierRecord struct {
	ID                      linkifiers.ID `json:"id"`
	Pattern                 string        `json:"pattern"`
	URLTemplate             string        `json:"url_template"`
	ExampleInput            *string       `json:"example_input"`
	ReverseTemplate         *string       `json:"reverse_template"`
	AlternativeURLTemplates []string      `json:"alternative_url_templates"`
}

func linkifierRecord(l linkifiers.Linkifier) LinkifierRecord {
	l = l.Clone()
	return LinkifierRecord{
		ID: l.ID, Pattern: l.Pattern, URLTemplate: l.URLTemplate, ExampleInput: l.ExampleInput,
		ReverseTemplate: l.ReverseTemplate, AlternativeURLTemplates: l.AlternativeURLTemplates,
	}
}

// RealmLinkifiersEvent is a realm_linkifiers event: the organization's whole ordered list. Only
// clients that declared the linkifier_url_template capability receive it.
type RealmLinkifiersEvent struct {
	Type            string            `json:"type"`
	RealmLinkifiers []LinkifierRecord `json:"realm_linkifiers"`
}

func (e RealmLinkifiersEvent) ForClient(o clients.Options) (any, bool) {
	return e, o.Capabilities.LinkifierURLTemplate
}

// RealmFiltersEvent is the legacy realm_filters event, sent with an empty list on every
// linkifier change so that old clients drop their linkifiers instead of misusing the new
// templates.
type RealmFiltersEvent struct {
	Type         string `json:"type"`
	RealmFilters []any  `json:"realm_filters"`
}

// GetLinkifiersParams are the parameters of GET /realm/linkifiers (none).
type GetLinkifiersParams struct{}

// GetLinkifiersResult lists the organization's linkifiers in the order they apply.
type GetLinkifiersResult struct {
	Linkifiers []LinkifierRecord `json:"linkifiers"`
}

// GetLinkifiers returns the organization's linkifiers; any user may read them.
func (s *Service) GetLinkifiers(ctx context.Context, actor engine.Actor, _ GetLinkifiersParams) (GetLinkifiersResult, error) {
	var res GetLinkifiersResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx := o.Tx
		var err error
		res.Linkifiers, err = LinkifierRecords(tx.Linkifiers())
		return err
	})
	return res, err
}

// AddLinkifierParams are the parameters of POST /realm/filters. Empty ExampleInput and
// ReverseTemplate mean none.
type AddLinkifierParams struct {
	Pattern                 string
	URLTemplate             string
	ExampleInput            *string
	ReverseTemplate         *string
	AlternativeURLTemplates []string
}

// AddLinkifierResult holds the new linkifier's id.
type AddLinkifierResult struct {
	ID linkifiers.ID `json:"id"`
}

// AddLinkifier adds a linkifier after the existing ones (administrators only) and sends the
// new list to every active user.
func (s *Service) AddLinkifier(ctx context.Context, actor engine.Actor, p AddLinkifierParams) (AddLinkifierResult, error) {
	c, err := checkLinkifier(linkifiers.Linkifier{
		Pattern: strings.TrimSpace(p.Pattern), URLTemplate: strings.TrimSpace(p.URLTemplate),
		ExampleInput: p.ExampleInput, ReverseTemplate: p.ReverseTemplate, AlternativeURLTemplates: p.AlternativeURLTemplates,
	})
	if err != nil {
		return AddLinkifierResult{}, err
	}
	var res AddLinkifierResult
	err = s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		all, err := tx.Linkifiers().List()
		if err != nil {
			return err
		}
		if len(all) >= linkifiers.MaxLinkifiers {
			return engine.BadRequest("Too many linkifiers (limit: %d)", linkifiers.MaxLinkifiers)
		}
		id, err := tx.Linkifiers().Create(c.Linkifier)
		if errors.Is(err, storage.ErrConflict) {
			return errDuplicateLinkifier()
		} else if err != nil {
			return err
		}
		res.ID = id
		return notifyLinkifiers(tx, ev)
	})
	if err != nil {
		return AddLinkifierResult{}, err
	}
	return res, nil
}

// UpdateLinkifierParams are the parameters of PATCH /realm/filters/{filter_id}: the linkifier
// is replaced whole (absent optional fields become none).
type UpdateLinkifierParams struct {
	FilterID linkifiers.ID
	AddLinkifierParams
}

// UpdateLinkifierResult is empty.
type UpdateLinkifierResult struct{}

// UpdateLinkifier replaces a linkifier, keeping its place in the order (administrators only).
func (s *Service) UpdateLinkifier(ctx context.Context, actor engine.Actor, p UpdateLinkifierParams) (UpdateLinkifierResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		if _, err := tx.Linkifiers().Get(p.FilterID); err != nil {
			return engine.NotFound(err, errLinkifierNotFound)
		}
		c, err := checkLinkifier(linkifiers.Linkifier{
			ID: p.FilterID, Pattern: strings.TrimSpace(p.Pattern), URLTemplate: strings.TrimSpace(p.URLTemplate),
			ExampleInput: p.ExampleInput, ReverseTemplate: p.ReverseTemplate, AlternativeURLTemplates: p.AlternativeURLTemplates,
		})
		if err != nil {
			return err
		}
		if err := tx.Linkifiers().Update(c.Linkifier); errors.Is(err, storage.ErrConflict) {
			return errDuplicateLinkifier()
		} else if err != nil {
			return err
		}
		return notifyLinkifiers(tx, ev)
	})
	return UpdateLinkifierResult{}, err
}

// RemoveLinkifierParams are the parameters of DELETE /realm/filters/{filter_id}.
type RemoveLinkifierParams struct {
	FilterID linkifiers.ID
}

// RemoveLinkifierResult is empty.
type RemoveLinkifierResult struct{}

// RemoveLinkifier deletes a linkifier (administrators only).
func (s *Service) RemoveLinkifier(ctx context.Context, actor engine.Actor, p RemoveLinkifierParams) (RemoveLinkifierResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		if err := tx.Linkifiers().Delete(p.FilterID); err != nil {
			return engine.NotFound(err, errLinkifierNotFound)
		}
		return notifyLinkifiers(tx, ev)
	})
	return RemoveLinkifierResult{}, err
}

// ReorderLinkifiersParams are the parameters of PATCH /realm/linkifiers.
type ReorderLinkifiersParams struct {
	OrderedLinkifierIDs []linkifiers.ID
}

// ReorderLinkifiersResult is empty.
type ReorderLinkifiersResult struct{}

// ReorderLinkifiers sets the order in which linkifiers apply; the list must name every
// linkifier exactly once (administrators only). An empty list with no linkifiers changes
// nothing.
func (s *Service) ReorderLinkifiers(ctx context.Context, actor engine.Actor, p ReorderLinkifiersParams) (ReorderLinkifiersResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		all, err := tx.Linkifiers().List()
		if err != nil {
			return err
		}
		ids := make([]linkifiers.ID, len(all))
		for i, l := range all {
			ids[i] = l.ID
		}
		if err := linkifiers.CheckOrder(ids, p.OrderedLinkifierIDs); err != nil {
			return validationError(err)
		}
		if len(ids) == 0 {
			return nil
		}
		if err := tx.Linkifiers().Reorder(p.OrderedLinkifierIDs); err != nil {
			return err
		}
		return notifyLinkifiers(tx, ev)
	})
	return ReorderLinkifiersResult{}, err
}

// checkLinkifier runs the linkifier rules and turns a refusal into Zulip's validation error.
func checkLinkifier(l linkifiers.Linkifier) (*linkifiers.Compiled, error) {
	c, err := linkifiers.Check(l)
	if err != nil {
		return nil, validationError(err)
	}
	return c, nil
}

// validationError is Zulip's answer to a failed model validation: BAD_REQUEST with the first
// message and the errors object (field name → messages; __all__ for the whole record).
func validationError(err error) error {
	var ve *linkifiers.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	return engine.BadRequest("%s", ve.Msg).With("errors", map[string][]string{ve.Field: {ve.Msg}})
}

func errLinkifierNotFound() *engine.Error { return engine.BadRequest("Linkifier not found.") }

func errDuplicateLinkifier() error {
	return validationError(&linkifiers.ValidationError{Field: linkifiers.FieldAll, Msg: "Realm filter with this Realm and Pattern already exists."})
}

// LinkifierRecords lists the organization's linkifiers in order.
func LinkifierRecords(r storage.LinkifierReader) ([]LinkifierRecord, error) {
	all, err := r.List()
	if err != nil {
		return nil, err
	}
	out := make([]LinkifierRecord, len(all))
	for i, l := range all {
		out[i] = linkifierRecord(l)
	}
	return out, nil
}

// notifyLinkifiers sends the new list to every active user (realm_linkifiers, for clients with
// the linkifier_url_template capability) and the legacy empty realm_filters.
func notifyLinkifiers(tx storage.Tx, ev *engine.Events) error {
	list, err := LinkifierRecords(tx.Linkifiers())
	if err != nil {
		return err
	}
	to, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	ev.Emit(RealmLinkifiersEvent{Type: "realm_linkifiers", RealmLinkifiers: list}, to)
	ev.Emit(RealmFiltersEvent{Type: "realm_filters", RealmFilters: []any{}}, to)
	return nil
}
