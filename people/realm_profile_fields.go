package people

import (
	"context"
	"errors"
	"strings"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// UpdateCustomProfileFieldParams are the parameters of PATCH /realm/profile_fields/{field_id}.
// Absent fields (nil) are left unchanged; the type cannot change.
type UpdateCustomProfileFieldParams struct {
	FieldID                 users.ProfileFieldID
	Name                    *string
	Hint                    *string
	FieldData               *string
	DisplayInProfileSummary *bool
	Required                *bool
	EditableByUser          *bool
}

// errFieldNotFound is Zulip's refusal of an unknown custom profile field.
func errFieldNotFound(id users.ProfileFieldID) *engine.Error {
	return engine.BadRequest("Field id %d not found.", id)
}

// UpdateCustomProfileFieldResult is UpdateCustomProfileField's answer: nothing beyond success.
type UpdateCustomProfileFieldResult struct{}

// UpdateCustomProfileField changes a custom profile field (administrators). The name and hint
// of Zulip's default external account fields are fixed; at most two fields are shown in the
// profile summary. Everyone gets custom_profile_fields with the new list.
func (s *Service) UpdateCustomProfileField(ctx context.Context, actor engine.Actor, p UpdateCustomProfileFieldParams) (UpdateCustomProfileFieldResult, error) {
	return UpdateCustomProfileFieldResult{}, s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		old, err := tx.ProfileFields().Get(p.FieldID)
		if err != nil {
			return engine.NotFound(err, func() *engine.Error { return errFieldNotFound(p.FieldID) })
		}
		f := old
		setIf(&f.Name, p.Name)
		setIf(&f.Hint, p.Hint)
		setIf(&f.FieldData, p.FieldData)
		setIf(&f.DisplayInProfileSummary, p.DisplayInProfileSummary)
		setIf(&f.Required, p.Required)
		setIf(&f.EditableByUser, p.EditableByUser)
		renamed := strings.TrimSpace(f.Name) != old.Name || strings.TrimSpace(f.Hint) != old.Hint
		if f, err = users.CheckProfileField(f); err != nil {
			return engine.RuleError(err)
		}
		if old.IsDefaultExternalAccount() && !renamed {
			f.Name, f.Hint = old.Name, old.Hint // as stored, whatever the kind's defaults are now
		}
		if old.IsDefaultExternalAccount() && (renamed || f.FieldData != old.FieldData) {
			return engine.BadRequest("Default custom field cannot be updated.")
		}
		if f.DisplayInProfileSummary && !old.DisplayInProfileSummary {
			if err := checkSummaryRoom(tx.ProfileFields(), f.ID); err != nil {
				return err
			}
		}
		if err := tx.ProfileFields().Update(f); errors.Is(err, storage.ErrConflict) {
			return engine.BadRequest("A field with that label already exists.")
		} else if err != nil {
			return err
		}
		return announceProfileFields(tx, ev)
	})
}

// setIf sets *dst to *v when v is given.
func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// checkSummaryRoom refuses a field for the profile summary when other fields fill it.
func checkSummaryRoom(r storage.ProfileFieldReader, except users.ProfileFieldID) error {
	fields, err := r.List()
	if err != nil {
		return err
	}
	n := 0
	for _, o := range fields {
		if o.DisplayInProfileSummary && o.ID != except {
			n++
		}
	}
	if n >= users.MaxProfileSummaryFields {
		return engine.BadRequest("Only %d custom profile fields can be displayed in the profile summary.", users.MaxProfileSummaryFields)
	}
	return nil
}

// announceProfileFields sends every active user the organization's fields.
func announceProfileFields(tx storage.Tx, ev *engine.Events) error {
	fields, err := profileFieldRecords(tx.ProfileFields())
	if err != nil {
		return err
	}
	recipients, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	ev.Emit(CustomProfileFieldsEvent{Type: "custom_profile_fields", Fields: fields}, recipients)
	return nil
}

// RemoveCustomProfileFieldParams are the parameters of DELETE /realm/profile_fields/{field_id}.
type RemoveCustomProfileFieldParams struct {
	FieldID users.ProfileFieldID
}

// RemoveCustomProfileFieldResult is RemoveCustomProfileField's answer: nothing beyond success.
type RemoveCustomProfileFieldResult struct{}

// RemoveCustomProfileField deletes a custom profile field and every user's value of it
// (administrators). Everyone gets custom_profile_fields; clients drop the values themselves.
func (s *Service) RemoveCustomProfileField(ctx context.Context, actor engine.Actor, p RemoveCustomProfileFieldParams) (RemoveCustomProfileFieldResult, error) {
	return RemoveCustomProfileFieldResult{}, s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		if err := o.Tx.ProfileFields().Delete(p.FieldID); err != nil {
			return engine.NotFound(err, func() *engine.Error { return errFieldNotFound(p.FieldID) })
		}
		return announceProfileFields(o.Tx, o.Ev)
	})
}

// ReorderCustomProfileFieldsParams are the parameters of PATCH /realm/profile_fields: every
// field's id, in the new order.
type ReorderCustomProfileFieldsParams struct {
	Order []users.ProfileFieldID
}

// ReorderCustomProfileFieldsResult is ReorderCustomProfileFields's answer: nothing beyond success.
type ReorderCustomProfileFieldsResult struct{}

// ReorderCustomProfileFields puts the fields in the given order (administrators); the list must
// name every field. Everyone gets custom_profile_fields.
func (s *Service) ReorderCustomProfileFields(ctx context.Context, actor engine.Actor, p ReorderCustomProfileFieldsParams) (ReorderCustomProfileFieldsResult, error) {
	if len(p.Order) > users.MaxProfileFields {
		return ReorderCustomProfileFieldsResult{}, engine.BadRequest("order is too long (limit: %d items)", users.MaxProfileFields)
	}
	return ReorderCustomProfileFieldsResult{}, s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		place := make(map[users.ProfileFieldID]int, len(p.Order))
		for i, id := range p.Order {
			place[id] = i
		}
		fields, err := tx.ProfileFields().List()
		if err != nil {
			return err
		}
		for _, f := range fields {
			if _, ok := place[f.ID]; !ok {
				return engine.BadRequest("Invalid order mapping.")
			}
		}
		for _, f := range fields {
			if f.Order == place[f.ID] {
				continue
			}
			f.Order = place[f.ID]
			if err := tx.ProfileFields().Update(f); err != nil {
				return err
			}
		}
		return announceProfileFields(tx, ev)
	})
}
