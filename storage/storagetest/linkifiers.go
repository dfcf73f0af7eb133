package storagetest

import (
	"testing"

	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/storage"
)

func testLinkifiers(t *testing.T, open Opener) {
	str := func(s string) *string { return &s }
	t.Run("Create, Get and List in order of creation", func(t *testing.T) {
		s := open(t)
		in := []linkifiers.Linkifier{
			{Pattern: `#(?P<id>\d+)`, URLTemplate: "https://x/{id}", ExampleInput: str("#1"), ReverseTemplate: str("#{id}"),
				AlternativeURLTemplates: []string{"https://y/{id}", "https://z/{id}"}, Order: 99},
			{Pattern: `RFC(?P<n>\d+)`, URLTemplate: "https://rfc/{n}", AlternativeURLTemplates: []string{}},
		}
		ids := make([]linkifiers.ID, len(in))
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			for i, l := range in {
				if ids[i], err = tx.Linkifiers().Create(l); err != nil {
					return err
				}
			}
			return nil
		})
		in[0].AlternativeURLTemplates[0] = "changed by the caller"
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Linkifiers().Get(ids[0])
			if err != nil {
				return err
			}
			want := linkifiers.Linkifier{ID: ids[0], Pattern: `#(?P<id>\d+)`, URLTemplate: "https://x/{id}", ExampleInput: str("#1"), ReverseTemplate: str("#{id}"),
				AlternativeURLTemplates: []string{"https://y/{id}", "https://z/{id}"}, Order: got.Order}
			wantEqual(t, "Get", want, got)
			_, err = tx.Linkifiers().Get(ids[1] + 10)
			wantIs(t, "Get(unknown)", err, storage.ErrNotFound)
			list, err := tx.Linkifiers().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List ids (creation order)", []linkifiers.ID{ids[0], ids[1]}, linkifierIDs(list))
			wantEqual(t, "empty alternatives", []string{}, list[1].AlternativeURLTemplates)
			return nil
		})
	})

	t.Run("patterns are unique; Update keeps the order; Delete", func(t *testing.T) {
		s := open(t)
		var a, b linkifiers.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a, err = tx.Linkifiers().Create(linkifiers.Linkifier{Pattern: "a", URLTemplate: "https://a"}); err != nil {
				return err
			}
			b, err = tx.Linkifiers().Create(linkifiers.Linkifier{Pattern: "b", URLTemplate: "https://b"})
			return err
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error {
			_, err := tx.Linkifiers().Create(linkifiers.Linkifier{Pattern: "a", URLTemplate: "https://other"})
			return err
		})
		wantIs(t, "Create with a taken pattern", err, storage.ErrConflict)
		err = s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Linkifiers().Update(linkifiers.Linkifier{ID: b, Pattern: "a", URLTemplate: "https://b"})
		})
		wantIs(t, "Update onto a taken pattern", err, storage.ErrConflict)
		err = s.Update(t.Context(), func(tx storage.Tx) error {
			return tx.Linkifiers().Update(linkifiers.Linkifier{ID: 999, Pattern: "z", URLTemplate: "https://z"})
		})
		wantIs(t, "Update(unknown)", err, storage.ErrNotFound)
		mustUpdate(t, s, func(tx storage.Tx) error {
			return tx.Linkifiers().Update(linkifiers.Linkifier{ID: a, Pattern: "a2", URLTemplate: "https://a2", ExampleInput: str("a2"), Order: 1000})
		})
		mustView(t, s, func(tx storage.ReadTx) error {
			list, err := tx.Linkifiers().List()
			if err != nil {
				return err
			}
			wantEqual(t, "order kept after Update", []linkifiers.ID{a, b}, linkifierIDs(list))
			wantEqual(t, "updated", []any{"a2", "https://a2", "a2"}, []any{list[0].Pattern, list[0].URLTemplate, *list[0].ExampleInput})
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Linkifiers().Delete(a) })
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.Linkifiers().Delete(a) })
		wantIs(t, "Delete twice", err, storage.ErrNotFound)
		// A deleted pattern may be used again.
		mustUpdate(t, s, func(tx storage.Tx) error {
			_, err := tx.Linkifiers().Create(linkifiers.Linkifier{Pattern: "a2", URLTemplate: "https://a2"})
			return err
		})
	})

	t.Run("Reorder and creation after it", func(t *testing.T) {
		s := open(t)
		var ids []linkifiers.ID
		mustUpdate(t, s, func(tx storage.Tx) error {
			for _, p := range []string{"a", "b", "c"} {
				id, err := tx.Linkifiers().Create(linkifiers.Linkifier{Pattern: p, URLTemplate: "https://" + p})
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Linkifiers().Reorder([]linkifiers.ID{ids[2], ids[0], ids[1]}) })
		var d linkifiers.ID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			d, err = tx.Linkifiers().Create(linkifiers.Linkifier{Pattern: "d", URLTemplate: "https://d"})
			return err
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.Linkifiers().Reorder([]linkifiers.ID{ids[0], 999}) })
		wantIs(t, "Reorder with an unknown id", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			list, err := tx.Linkifiers().List()
			if err != nil {
				return err
			}
			wantEqual(t, "order after Reorder and Create", []linkifiers.ID{ids[2], ids[0], ids[1], d}, linkifierIDs(list))
			return nil
		})
	})
}

func linkifierIDs(l []linkifiers.Linkifier) []linkifiers.ID {
	out := []linkifiers.ID{}
	for _, x := range l {
		out = append(out, x.ID)
	}
	return out
}

func testPlaygrounds(t *testing.T, open Opener) {
	t.Run("Create, Get, List, Delete; language and name unique together", func(t *testing.T) {
		s := open(t)
		py := linkifiers.Playground{Name: "Python playground", Language: "Python", URLTemplate: "https://py/?c={code}"}
		var a, b linkifiers.PlaygroundID
		mustUpdate(t, s, func(tx storage.Tx) (err error) {
			if a, err = tx.Playgrounds().Create(py); err != nil {
				return err
			}
			// Same name for another language is fine.
			b, err = tx.Playgrounds().Create(linkifiers.Playground{Name: "Python playground", Language: "Python3", URLTemplate: "https://py3/?c={code}"})
			return err
		})
		err := s.Update(t.Context(), func(tx storage.Tx) error { _, err := tx.Playgrounds().Create(py); return err })
		wantIs(t, "Create a duplicate", err, storage.ErrConflict)
		mustView(t, s, func(tx storage.ReadTx) error {
			got, err := tx.Playgrounds().Get(a)
			if err != nil {
				return err
			}
			py.ID = a
			wantEqual(t, "Get", py, got)
			list, err := tx.Playgrounds().List()
			if err != nil {
				return err
			}
			wantEqual(t, "List length", 2, len(list))
			wantEqual(t, "List order", []linkifiers.PlaygroundID{a, b}, []linkifiers.PlaygroundID{list[0].ID, list[1].ID})
			return nil
		})
		mustUpdate(t, s, func(tx storage.Tx) error { return tx.Playgrounds().Delete(a) })
		err = s.Update(t.Context(), func(tx storage.Tx) error { return tx.Playgrounds().Delete(a) })
		wantIs(t, "Delete twice", err, storage.ErrNotFound)
		mustView(t, s, func(tx storage.ReadTx) error {
			_, err := tx.Playgrounds().Get(a)
			wantIs(t, "Get after Delete", err, storage.ErrNotFound)
			return nil
		})
	})
}
