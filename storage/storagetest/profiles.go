package storagetest

import (
	"testing"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func testProfileFields(t *testing.T, open Opener) {
	t.Run("Create, Get and List by order then id", func(t *testing.T) {
		s := open(t)
		a := users.ProfileField{Type: users.ProfileSelect, Name: "Team", Hint: "Which team", FieldData: `{"0":{"text":"A","order":"1"}}`,
			Order: 2, DisplayInProfileSummary: true, Required: true, EditableByUser: true}
		b := users.ProfileField{Type: users.ProfileShortText, Name: "Phone", Order: 1}
		c := users.ProfileField{Type: users.ProfileDate, Name: "Birthday", Order: 2}
		var ids []users.ProfileFieldID
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, f := range []users.ProfileField{a, b, c} {
				id, err := tx.ProfileFields().Create(f)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		a.ID, b.ID, c.ID = ids[0], ids[1], ids[2]
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.ProfileFields().Get(a.ID)
			if err != nil {
				return err
			}
			wantEqual(t, "Get", a, got)
			list, err := tx.ProfileFields().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List", []users.ProfileField{b, a, c}, list)
			_, err = tx.ProfileFields().Get(999)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			return nil
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.ProfileFields().Create(users.ProfileField{Type: users.ProfileShortText, Name: "Phone"})
			return err
		})
		wantIs(t, "Create with a taken name", err, storage.ErrConflict)
	})

	t.Run("values: put, replace, list by user and delete", func(t *testing.T) {
		s := open(t)
		var f1, f2 users.ProfileFieldID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if f1, err = tx.ProfileFields().Create(users.ProfileField{Type: users.ProfileShortText, Name: "One"}); err != nil {
				return err
			}
			f2, err = tx.ProfileFields().Create(users.ProfileField{Type: users.ProfileUser, Name: "Two"})
			return err
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.ProfileFields().PutValues([]users.ProfileValue{
				{UserID: 2, FieldID: f2, Value: "[1,3]"},
				{UserID: 1, FieldID: f1, Value: "old", RenderedValue: "<p>old</p>"},
				{UserID: 2, FieldID: f1, Value: "two"},
			})
		})
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.ProfileFields().PutValues([]users.ProfileValue{{UserID: 1, FieldID: f1, Value: "new", RenderedValue: "<p>new</p>"}})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			all, err := tx.ProfileFields().Values(nil)
			if err != nil {
				return err
			}
			wantEqual(t, "all values", []users.ProfileValue{
				{UserID: 1, FieldID: f1, Value: "new", RenderedValue: "<p>new</p>"},
				{UserID: 2, FieldID: f1, Value: "two"},
				{UserID: 2, FieldID: f2, Value: "[1,3]"},
			}, all)
			two, err := tx.ProfileFields().Values([]users.ID{2, 5})
			if err != nil {
				return err
			}
			wantEqual(t, "values of user 2", all[1:], two)
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.ProfileFields().DeleteValues(2, []users.ProfileFieldID{f1, 999}) })
		mustView(t, s, func(tx storage.ReadTx) error {
			two, err := tx.ProfileFields().Values([]users.ID{2})
			if err != nil {
				return err
			}
			wantEqual(t, "after delete", []users.ProfileValue{{UserID: 2, FieldID: f2, Value: "[1,3]"}}, two)
			return nil
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.ProfileFields().PutValues([]users.ProfileValue{{UserID: 1, FieldID: 999, Value: "x"}})
		})
		wantIs(t, "PutValues for an unknown field", err, storage.ErrNotFound)
	})
}
