package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/users"
)

// draftTx is the drafts accessor.
type draftTx struct{ t *txn }

const draftColumns = "id, user_id, type, to_ids, topic, content, timestamp"

func scanDraft(row *sql.Rows) (drafts.Draft, error) {
	var d drafts.Draft
	var to sql.NullString
	if err := row.Scan(&d.ID, &d.UserID, &d.Type, &to, &d.Topic, &d.Content, &d.Timestamp); err != nil {
		return d, err
	}
	var err error
	d.To, err = parseJSONIDs(to)
	return d, err
}

func (a draftTx) Get(user users.ID, id drafts.ID) (drafts.Draft, error) {
	list, err := scanAll(a.t, scanDraft, "SELECT "+draftColumns+" FROM drafts WHERE id = ? AND user_id = ?", id, user)
	if err != nil {
		return drafts.Draft{}, err
	}
	if len(list) == 0 {
		return drafts.Draft{}, notFound("draft", id)
	}
	return list[0], nil
}

func (a draftTx) ListForUser(user users.ID) ([]drafts.Draft, error) {
	list, err := scanAll(a.t, scanDraft, "SELECT "+draftColumns+" FROM drafts WHERE user_id = ? ORDER BY timestamp, id", user)
	if list == nil && err == nil {
		list = []drafts.Draft{}
	}
	return list, err
}

func (a draftTx) SyncDisabled(user users.ID) (bool, error) {
	var n int
	err := a.t.get("SELECT COUNT(*) FROM draft_sync_disabled WHERE user_id = ?", []any{user}, &n)
	return n > 0, err
}

func (a draftTx) Create(list []drafts.Draft) ([]drafts.ID, error) {
	out := make([]drafts.ID, len(list))
	for i, d := range list {
		if err := a.t.get(`INSERT INTO drafts (user_id, type, to_ids, topic, content, timestamp)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
			[]any{d.UserID, d.Type, jsonIDs(d.To), d.Topic, d.Content, d.Timestamp}, &out[i]); err != nil {
			return nil, fmt.Errorf("create draft: %w", err)
		}
	}
	return out, nil
}

func (a draftTx) Update(d drafts.Draft) error {
	res, err := a.t.exec(`UPDATE drafts SET type = ?, to_ids = ?, topic = ?, content = ?, timestamp = ?
		WHERE id = ? AND user_id = ?`, d.Type, jsonIDs(d.To), d.Topic, d.Content, d.Timestamp, d.ID, d.UserID)
	if err != nil {
		return err
	}
	return mustAffect(res, "draft", d.ID)
}

func (a draftTx) Delete(user users.ID, id drafts.ID) error {
	res, err := a.t.exec("DELETE FROM drafts WHERE id = ? AND user_id = ?", id, user)
	if err != nil {
		return err
	}
	return mustAffect(res, "draft", id)
}

func (a draftTx) DeleteForUser(user users.ID) error {
	_, err := a.t.exec("DELETE FROM drafts WHERE user_id = ?", user)
	return err
}

func (a draftTx) SetSyncDisabled(user users.ID, disabled bool) error {
	var err error
	if disabled {
		_, err = a.t.exec("INSERT INTO draft_sync_disabled (user_id) VALUES (?) ON CONFLICT DO NOTHING", user)
	} else {
		_, err = a.t.exec("DELETE FROM draft_sync_disabled WHERE user_id = ?", user)
	}
	return err
}

// snippetTx is the saved-snippets accessor.
type snippetTx struct{ t *txn }

const snippetColumns = "id, user_id, title, content, date_created"

func scanSnippet(row *sql.Rows) (drafts.SavedSnippet, error) {
	var s drafts.SavedSnippet
	err := row.Scan(&s.ID, &s.UserID, &s.Title, &s.Content, &s.DateCreated)
	return s, err
}

func (a snippetTx) Get(user users.ID, id drafts.SnippetID) (drafts.SavedSnippet, error) {
	list, err := scanAll(a.t, scanSnippet, "SELECT "+snippetColumns+" FROM saved_snippets WHERE id = ? AND user_id = ?", id, user)
	if err != nil {
		return drafts.SavedSnippet{}, err
	}
	if len(list) == 0 {
		return drafts.SavedSnippet{}, notFound("saved snippet", id)
	}
	return list[0], nil
}

func (a snippetTx) ListForUser(user users.ID) ([]drafts.SavedSnippet, error) {
	return scanAll(a.t, scanSnippet, "SELECT "+snippetColumns+" FROM saved_snippets WHERE user_id = ? ORDER BY id", user)
}

func (a snippetTx) Create(s drafts.SavedSnippet) (drafts.SnippetID, error) {
	var id drafts.SnippetID
	err := a.t.get(`INSERT INTO saved_snippets (user_id, title, content, date_created) VALUES (?, ?, ?, ?) RETURNING id`,
		[]any{s.UserID, s.Title, s.Content, s.DateCreated}, &id)
	if err != nil {
		return 0, fmt.Errorf("create saved snippet: %w", err)
	}
	return id, nil
}

func (a snippetTx) Update(s drafts.SavedSnippet) error {
	res, err := a.t.exec("UPDATE saved_snippets SET title = ?, content = ? WHERE id = ? AND user_id = ?",
		s.Title, s.Content, s.ID, s.UserID)
	if err != nil {
		return err
	}
	return mustAffect(res, "saved snippet", s.ID)
}

func (a snippetTx) Delete(user users.ID, id drafts.SnippetID) error {
	res, err := a.t.exec("DELETE FROM saved_snippets WHERE id = ? AND user_id = ?", id, user)
	if err != nil {
		return err
	}
	return mustAffect(res, "saved snippet", id)
}

// navViewTx is the navigation-views accessor; seq keeps the order views were added in.
type navViewTx struct{ t *txn }

func scanNavView(row *sql.Rows) (drafts.NavigationView, error) {
	var v drafts.NavigationView
	var name sql.NullString
	err := row.Scan(&v.UserID, &v.Fragment, &v.IsPinned, &name)
	if name.Valid {
		v.Name = &name.String
	}
	return v, err
}

func nullableString(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func (a navViewTx) Get(user users.ID, fragment string) (drafts.NavigationView, error) {
	list, err := scanAll(a.t, scanNavView, "SELECT user_id, fragment, is_pinned, name FROM navigation_views WHERE user_id = ? AND fragment = ?", user, fragment)
	if err != nil {
		return drafts.NavigationView{}, err
	}
	if len(list) == 0 {
		return drafts.NavigationView{}, notFound("navigation view", fragment)
	}
	return list[0], nil
}

func (a navViewTx) ListForUser(user users.ID) ([]drafts.NavigationView, error) {
	return scanAll(a.t, scanNavView, "SELECT user_id, fragment, is_pinned, name FROM navigation_views WHERE user_id = ? ORDER BY seq", user)
}

func (a navViewTx) Create(v drafts.NavigationView) error {
	err := a.t.guarded(func() error {
		_, err := a.t.exec("INSERT INTO navigation_views (user_id, fragment, is_pinned, name) VALUES (?, ?, ?, ?)",
			v.UserID, v.Fragment, v.IsPinned, nullableString(v.Name))
		return err
	})
	if err != nil {
		return fmt.Errorf("create navigation view %q: %w", v.Fragment, err)
	}
	return nil
}

func (a navViewTx) Update(v drafts.NavigationView) error {
	var res sql.Result
	err := a.t.guarded(func() (err error) {
		res, err = a.t.exec("UPDATE navigation_views SET is_pinned = ?, name = ? WHERE user_id = ? AND fragment = ?",
			v.IsPinned, nullableString(v.Name), v.UserID, v.Fragment)
		return err
	})
	if err != nil {
		return fmt.Errorf("update navigation view %q: %w", v.Fragment, err)
	}
	return mustAffect(res, "navigation view", v.Fragment)
}

func (a navViewTx) Delete(user users.ID, fragment string) error {
	res, err := a.t.exec("DELETE FROM navigation_views WHERE user_id = ? AND fragment = ?", user, fragment)
	if err != nil {
		return err
	}
	return mustAffect(res, "navigation view", fragment)
}
