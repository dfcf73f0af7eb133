package people

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// profileRenderer adds profile_data to user records when the client asked for it.
type profileRenderer struct {
	include bool
	values  map[users.ID]ProfileData
	// none is the profile_data of users without values, one map shared by their records
	// (records are never modified after rendering).
	none ProfileData
}

// profileRenderer prepares the custom profile data of every user when include is set.
func (s *Service) profileRenderer(tx storage.ReadTx, include bool) (*profileRenderer, error) {
	pr := &profileRenderer{include: include}
	if !include {
		return pr, nil
	}
	var err error
	pr.values, err = loadProfileData(tx.ProfileFields())
	return pr, err
}

// record renders u for viewer, with profile_data for humans when requested.
func (pr *profileRenderer) record(domain string, viewer, u users.User, o recordOptions) UserRecord {
	rec := userRecord(domain, viewer, u, o)
	if pr.include && !u.IsBot() {
		data := pr.values[u.ID]
		if data == nil {
			if pr.none == nil {
				pr.none = ProfileData{}
			}
			data = pr.none
		}
		rec.ProfileData = &data
	}
	return rec
}

// loadProfileData reads every user's custom profile field values.
func loadProfileData(r storage.ProfileFieldReader) (map[users.ID]ProfileData, error) {
	fields, err := r.List()
	if err != nil {
		return nil, err
	}
	types := make(map[users.ProfileFieldID]users.ProfileFieldType, len(fields))
	for _, f := range fields {
		types[f.ID] = f.Type
	}
	vals, err := r.Values(nil)
	if err != nil {
		return nil, err
	}
	out := map[users.ID]ProfileData{}
	for _, v := range vals {
		if out[v.UserID] == nil {
			out[v.UserID] = ProfileData{}
		}
		out[v.UserID][itoa64(int64(v.FieldID))] = profileDataValue(types[v.FieldID], v)
	}
	return out, nil
}

func profileDataValue(t users.ProfileFieldType, v users.ProfileValue) ProfileDataValue {
	pv := ProfileDataValue{Value: v.Value}
	if t.Rendered() {
		r := v.RenderedValue
		pv.RenderedValue = &r
	}
	return pv
}

// ProfileDataUpdate sets one custom profile field: Value is a JSON string, a JSON list of user
// ids (Users fields) or null (clears the value). Value is required: an item without it (an
// empty RawMessage) is refused, as Zulip refuses it.
type ProfileDataUpdate struct {
	ID    int64           `json:"id"`
	Value json.RawMessage `json:"value"`
}

// checkProfileDataItems refuses, before anything is read, an item of the list named param
// that has no value: Zulip's request parser requires the key (null is the way to clear).
func checkProfileDataItems(param string, data []ProfileDataUpdate) error {
	for i, d := range data {
		if len(d.Value) == 0 {
			return engine.BadRequest(`%s[%d]["value"] field is missing: Field required`, param, i)
		}
	}
	return nil
}

// setProfileData validates and stores custom profile values of target, with a realm_user
// update (custom_profile_field) per changed value; asAdmin lifts the editable_by_user
// restriction.
func (s *Service) setProfileData(tx storage.Tx, ev *engine.Events, actor, target users.User, data []ProfileDataUpdate, asAdmin bool) error {
	if len(data) > users.MaxProfileFields {
		return engine.BadRequest("data is too long (limit: %d items)", users.MaxProfileFields)
	}
	fields, err := tx.ProfileFields().List()
	if err != nil {
		return err
	}
	byID := make(map[users.ProfileFieldID]users.ProfileField, len(fields))
	for _, f := range fields {
		byID[f.ID] = f
	}
	current, err := tx.ProfileFields().Values([]users.ID{target.ID})
	if err != nil {
		return err
	}
	have := map[users.ProfileFieldID]users.ProfileValue{}
	for _, v := range current {
		have[v.FieldID] = v
	}
	all, err := tx.Users().List()
	if err != nil {
		return err
	}
	exists := make(map[users.ID]bool, len(all))
	for _, u := range all {
		exists[u.ID] = true
	}
	var put []users.ProfileValue
	var del []users.ProfileFieldID
	var changes []person
	for _, d := range data {
		f, ok := byID[users.ProfileFieldID(d.ID)]
		if !ok {
			return engine.BadRequest("Field id %d not found.", d.ID)
		}
		if !asAdmin && !f.EditableByUser {
			return engine.BadRequest("You are not allowed to change this field. Contact an administrator to update it.")
		}
		old, had := have[f.ID]
		if users.IsEmptyProfileValue(d.Value) {
			if had {
				del = append(del, f.ID)
				delete(have, f.ID)
				changes = append(changes, person{"user_id": target.ID, "custom_profile_field": map[string]any{"id": f.ID, "value": nil}})
			}
			continue
		}
		value, err := f.CheckProfileValue(d.Value, func(id users.ID) bool { return exists[id] })
		if err != nil {
			return engine.RuleError(err)
		}
		if had && old.Value == value {
			continue
		}
		v := users.ProfileValue{UserID: target.ID, FieldID: f.ID, Value: value}
		change := map[string]any{"id": f.ID, "value": value}
		if f.Type.Rendered() {
			v.RenderedValue = markdown.Render(value)
			change["rendered_value"] = v.RenderedValue
		}
		put = append(put, v)
		have[f.ID] = v
		changes = append(changes, person{"user_id": target.ID, "custom_profile_field": change})
	}
	if len(put) > 0 {
		if err := tx.ProfileFields().PutValues(put); err != nil {
			return err
		}
	}
	if len(del) > 0 {
		if err := tx.ProfileFields().DeleteValues(target.ID, del); err != nil {
			return err
		}
	}
	for _, p := range changes {
		if err := announceUserUpdate(tx.Users(), ev, p); err != nil {
			return err
		}
	}
	return nil
}

// UpdateProfileDataParams are the parameters of PATCH /users/me/profile_data.
type UpdateProfileDataParams struct {
	Data []ProfileDataUpdate
}

// UpdateProfileDataResult is UpdateProfileData's answer: nothing beyond success.
type UpdateProfileDataResult struct{}

// UpdateProfileData sets the actor's own custom profile values (human users only). Fields
// not editable by users are refused unless the actor is an administrator.
func (s *Service) UpdateProfileData(ctx context.Context, actor engine.Actor, p UpdateProfileDataParams) (UpdateProfileDataResult, error) {
	return UpdateProfileDataResult{}, s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		// After the engine.Gate, as Zulip refuses bots before it parses data.
		if err := checkProfileDataItems("data", p.Data); err != nil {
			return err
		}
		return s.setProfileData(tx, ev, me, me, p.Data, me.Role.IsAdmin())
	})
}

// RemoveProfileDataParams are the parameters of DELETE /users/me/profile_data.
type RemoveProfileDataParams struct {
	Data []int64
}

// RemoveProfileDataResult is RemoveProfileData's answer: nothing beyond success.
type RemoveProfileDataResult struct{}

// RemoveProfileData clears some of the actor's own custom profile values.
func (s *Service) RemoveProfileData(ctx context.Context, actor engine.Actor, p RemoveProfileDataParams) (RemoveProfileDataResult, error) {
	data := make([]ProfileDataUpdate, len(p.Data))
	for i, id := range p.Data {
		data[i] = ProfileDataUpdate{ID: id, Value: json.RawMessage("null")}
	}
	_, err := s.UpdateProfileData(ctx, actor, UpdateProfileDataParams{Data: data})
	return RemoveProfileDataResult{}, err
}

// CustomProfileFieldRecord is a custom profile field as the API shows it.
type CustomProfileFieldRecord struct {
	ID                      users.ProfileFieldID   `json:"id"`
	Type                    users.ProfileFieldType `json:"type"`
	Order                   int                    `json:"order"`
	Name                    string                 `json:"name"`
	Hint                    string                 `json:"hint"`
	FieldData               string                 `json:"field_data"`
	DisplayInProfileSummary bool                   `json:"display_in_profile_summary,omitempty"`
	Required                bool                   `json:"required"`
	EditableByUser          bool                   `json:"editable_by_user"`
}

func profileFieldRecords(r storage.ProfileFieldReader) ([]CustomProfileFieldRecord, error) {
	fields, err := r.List()
	if err != nil {
		return nil, err
	}
	out := make([]CustomProfileFieldRecord, len(fields))
	for i, f := range fields {
		out[i] = CustomProfileFieldRecord{ID: f.ID, Type: f.Type, Order: f.Order, Name: f.Name, Hint: f.Hint,
			FieldData: f.FieldData, DisplayInProfileSummary: f.DisplayInProfileSummary, Required: f.Required,
			EditableByUser: f.EditableByUser}
	}
	return out, nil
}

// CustomProfileFieldsEvent is custom_profile_fields: the whole list after a change.
type CustomProfileFieldsEvent struct {
	Type   string                     `json:"type"`
	Fields []CustomProfileFieldRecord `json:"fields"`
}

// ProfileFieldTypeRecord is one entry of custom_profile_field_types.
type ProfileFieldTypeRecord struct {
	ID   users.ProfileFieldType `json:"id"`
	Name string                 `json:"name"`
}

// CustomProfileFieldsState is register's "custom_profile_fields" section.
type CustomProfileFieldsState struct {
	CustomProfileFields     []CustomProfileFieldRecord        `json:"custom_profile_fields"`
	CustomProfileFieldTypes map[string]ProfileFieldTypeRecord `json:"custom_profile_field_types"`
}

func CustomProfileFieldsStateOf(r storage.ProfileFieldReader) (*CustomProfileFieldsState, error) {
	fields, err := profileFieldRecords(r)
	if err != nil {
		return nil, err
	}
	types := map[string]ProfileFieldTypeRecord{}
	for _, t := range users.ProfileFieldTypes() {
		types[t.Key] = ProfileFieldTypeRecord{ID: t.Type, Name: t.Name}
	}
	return &CustomProfileFieldsState{CustomProfileFields: fields, CustomProfileFieldTypes: types}, nil
}

// GetCustomProfileFieldsResult lists the organization's fields.
type GetCustomProfileFieldsResult struct {
	CustomFields []CustomProfileFieldRecord `json:"custom_fields"`
}

// GetCustomProfileFields lists the custom profile fields, in display order.
func (s *Service) GetCustomProfileFields(ctx context.Context, actor engine.Actor) (GetCustomProfileFieldsResult, error) {
	var res GetCustomProfileFieldsResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx := o.Tx
		var err error
		res.CustomFields, err = profileFieldRecords(tx.ProfileFields())
		return err
	})
	return res, err
}

// CreateCustomProfileFieldParams are the parameters of POST /realm/profile_fields.
type CreateCustomProfileFieldParams struct {
	Name      string
	Hint      string
	FieldType users.ProfileFieldType // default short text
	// FieldData is the JSON text of the options (SELECT, EXTERNAL_ACCOUNT).
	FieldData               string
	DisplayInProfileSummary bool
	Required                bool
	// EditableByUser defaults to true.
	EditableByUser *bool
}

// CreateCustomProfileFieldResult identifies the new field.
type CreateCustomProfileFieldResult struct {
	ID users.ProfileFieldID `json:"id"`
}

// CreateCustomProfileField adds a field at the end of the list (administrators). Everyone
// gets custom_profile_fields with the new list.
func (s *Service) CreateCustomProfileField(ctx context.Context, actor engine.Actor, p CreateCustomProfileFieldParams) (CreateCustomProfileFieldResult, error) {
	if p.FieldType == 0 {
		p.FieldType = users.ProfileShortText
	}
	editable := p.EditableByUser == nil || *p.EditableByUser
	var res CreateCustomProfileFieldResult
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		f, err := users.CheckProfileField(users.ProfileField{Type: p.FieldType, Name: p.Name, Hint: p.Hint, FieldData: p.FieldData,
			DisplayInProfileSummary: p.DisplayInProfileSummary, Required: p.Required, EditableByUser: editable})
		if err != nil {
			return engine.RuleError(err)
		}
		existing, err := tx.ProfileFields().List()
		if err != nil {
			return err
		}
		if len(existing) >= users.MaxProfileFields {
			return engine.BadRequest("Too many custom profile fields (limit: %d)", users.MaxProfileFields)
		}
		for _, o := range existing {
			f.Order = max(f.Order, o.Order+1)
		}
		if f.DisplayInProfileSummary {
			if err := checkSummaryRoom(tx.ProfileFields(), 0); err != nil {
				return err
			}
		}
		id, err := tx.ProfileFields().Create(f)
		if errors.Is(err, storage.ErrConflict) {
			return engine.BadRequest("A field with that label already exists.")
		}
		if err != nil {
			return err
		}
		res.ID = id
		return announceProfileFields(tx, ev)
	})
	if err != nil {
		return CreateCustomProfileFieldResult{}, err
	}
	return res, nil
}

func itoa64(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
