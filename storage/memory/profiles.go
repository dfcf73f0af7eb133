package memory

import (
	"slices"

	"github.com/teamchat/chat/users"
)

// profileKey identifies one user's value of one field.
type profileKey struct {
	user  users.ID
	field users.ProfileFieldID
}

// profileTx is the custom-profile-fields accessor; j is nil in a read-only transaction.
type profileTx struct {
	t *readTx
	j *journal
}

func (a profileTx) List() ([]users.ProfileField, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := sortedValues(a.t.d.profileFields, same)
	slices.SortStableFunc(out, users.ProfileFieldOrder)
	return out, nil
}

func (a profileTx) Get(id users.ProfileFieldID) (users.ProfileField, error) {
	if err := a.t.live(); err != nil {
		return users.ProfileField{}, err
	}
	f, ok := a.t.d.profileFields[id]
	if !ok {
		return users.ProfileField{}, notFound("profile field", id)
	}
	return f, nil
}

func (a profileTx) Values(ids []users.ID) ([]users.ProfileValue, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var want map[users.ID]bool
	if ids != nil {
		want = make(map[users.ID]bool, len(ids))
		for _, id := range ids {
			want[id] = true
		}
	}
	out := []users.ProfileValue{}
	for k, v := range a.t.d.profileValues {
		if want == nil || want[k.user] {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(x, y users.ProfileValue) int {
		if x.UserID != y.UserID {
			return int(x.UserID - y.UserID)
		}
		return int(x.FieldID - y.FieldID)
	})
	return out, nil
}

func (a profileTx) Create(f users.ProfileField) (users.ProfileFieldID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	for _, o := range a.t.d.profileFields {
		if o.Name == f.Name {
			return 0, conflict("profile field name")
		}
	}
	f.ID = nextID(a.j, &a.t.d.profileFieldSeq)
	setKey(a.j, a.t.d.profileFields, f.ID, f)
	return f.ID, nil
}

func (a profileTx) PutValues(vals []users.ProfileValue) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, v := range vals {
		if _, ok := a.t.d.profileFields[v.FieldID]; !ok {
			return notFound("profile field", v.FieldID)
		}
		setKey(a.j, a.t.d.profileValues, profileKey{v.UserID, v.FieldID}, v)
	}
	return nil
}

func (a profileTx) DeleteValues(user users.ID, fields []users.ProfileFieldID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, f := range fields {
		deleteKey(a.j, a.t.d.profileValues, profileKey{user, f})
	}
	return nil
}

func (a profileTx) Update(f users.ProfileField) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.profileFields[f.ID]; !ok {
		return notFound("profile field", f.ID)
	}
	for _, o := range a.t.d.profileFields {
		if o.Name == f.Name && o.ID != f.ID {
			return conflict("profile field name")
		}
	}
	setKey(a.j, a.t.d.profileFields, f.ID, f)
	return nil
}

func (a profileTx) Delete(id users.ProfileFieldID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.profileFields[id]; !ok {
		return notFound("profile field", id)
	}
	for k := range a.t.d.profileValues {
		if k.field == id {
			deleteKey(a.j, a.t.d.profileValues, k)
		}
	}
	deleteKey(a.j, a.t.d.profileFields, id)
	return nil
}
