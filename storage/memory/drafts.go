package memory

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/users"
)

// draftTx is the drafts accessor; j is nil in a read-only transaction.
type draftTx struct {
	t *readTx
	j *journal
}

func (a draftTx) Get(user users.ID, id drafts.ID) (drafts.Draft, error) {
	if err := a.t.live(); err != nil {
		return drafts.Draft{}, err
	}
	d, ok := a.t.d.drafts[id]
	if !ok || d.UserID != user {
		return drafts.Draft{}, notFound("draft", id)
	}
	return d.Clone(), nil
}

func (a draftTx) ListForUser(user users.ID) ([]drafts.Draft, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := []drafts.Draft{}
	for _, d := range a.t.d.drafts {
		if d.UserID == user {
			out = append(out, d.Clone())
		}
	}
	slices.SortFunc(out, func(x, y drafts.Draft) int {
		return cmp.Or(cmp.Compare(x.Timestamp, y.Timestamp), cmp.Compare(x.ID, y.ID))
	})
	return out, nil
}

func (a draftTx) SyncDisabled(user users.ID) (bool, error) {
	if err := a.t.live(); err != nil {
		return false, err
	}
	return a.t.d.draftSyncOff[user], nil
}

func (a draftTx) Create(list []drafts.Draft) ([]drafts.ID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids := make([]drafts.ID, len(list))
	for i, d := range list {
		d = d.Clone()
		d.ID = nextID(a.j, &a.t.d.draftSeq)
		setKey(a.j, a.t.d.drafts, d.ID, d)
		ids[i] = d.ID
	}
	return ids, nil
}

func (a draftTx) Update(d drafts.Draft) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.drafts[d.ID]
	if !ok || old.UserID != d.UserID {
		return notFound("draft", d.ID)
	}
	setKey(a.j, a.t.d.drafts, d.ID, d.Clone())
	return nil
}

func (a draftTx) Delete(user users.ID, id drafts.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	d, ok := a.t.d.drafts[id]
	if !ok || d.UserID != user {
		return notFound("draft", id)
	}
	deleteKey(a.j, a.t.d.drafts, id)
	return nil
}

func (a draftTx) DeleteForUser(user users.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for id, d := range a.t.d.drafts {
		if d.UserID == user {
			deleteKey(a.j, a.t.d.drafts, id)
		}
	}
	return nil
}

func (a draftTx) SetSyncDisabled(user users.ID, disabled bool) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if disabled {
		setKey(a.j, a.t.d.draftSyncOff, user, true)
	} else {
		deleteKey(a.j, a.t.d.draftSyncOff, user)
	}
	return nil
}

// snippetTx is the saved-snippets accessor; j is nil in a read-only transaction.
type snippetTx struct {
	t *readTx
	j *journal
}

func (a snippetTx) Get(user users.ID, id drafts.SnippetID) (drafts.SavedSnippet, error) {
	if err := a.t.live(); err != nil {
		return drafts.SavedSnippet{}, err
	}
	s, ok := a.t.d.snippets[id]
	if !ok || s.UserID != user {
		return drafts.SavedSnippet{}, notFound("saved snippet", id)
	}
	return s, nil
}

func (a snippetTx) ListForUser(user users.ID) ([]drafts.SavedSnippet, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	mine := map[drafts.SnippetID]drafts.SavedSnippet{}
	for id, s := range a.t.d.snippets {
		if s.UserID == user {
			mine[id] = s
		}
	}
	return sortedValues(mine, same), nil
}

func (a snippetTx) Create(s drafts.SavedSnippet) (drafts.SnippetID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	s.ID = nextID(a.j, &a.t.d.snippetSeq)
	setKey(a.j, a.t.d.snippets, s.ID, s)
	return s.ID, nil
}

func (a snippetTx) Update(s drafts.SavedSnippet) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.snippets[s.ID]
	if !ok || old.UserID != s.UserID {
		return notFound("saved snippet", s.ID)
	}
	old.Title, old.Content = s.Title, s.Content
	setKey(a.j, a.t.d.snippets, s.ID, old)
	return nil
}

func (a snippetTx) Delete(user users.ID, id drafts.SnippetID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	s, ok := a.t.d.snippets[id]
	if !ok || s.UserID != user {
		return notFound("saved snippet", id)
	}
	deleteKey(a.j, a.t.d.snippets, id)
	return nil
}

// navKey identifies a navigation view.
type navKey struct {
	user     users.ID
	fragment string
}

// navEntry is a stored view with its insertion sequence (the list order).
type navEntry struct {
	view drafts.NavigationView
	seq  int64
}

// navViewTx is the navigation-views accessor; j is nil in a read-only transaction.
type navViewTx struct {
	t *readTx
	j *journal
}

func (a navViewTx) Get(user users.ID, fragment string) (drafts.NavigationView, error) {
	if err := a.t.live(); err != nil {
		return drafts.NavigationView{}, err
	}
	e, ok := a.t.d.navViews[navKey{user, fragment}]
	if !ok {
		return drafts.NavigationView{}, notFound("navigation view", fragment)
	}
	return e.view.Clone(), nil
}

func (a navViewTx) ListForUser(user users.ID) ([]drafts.NavigationView, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var entries []navEntry
	for k, e := range a.t.d.navViews {
		if k.user == user {
			entries = append(entries, e)
		}
	}
	slices.SortFunc(entries, func(x, y navEntry) int { return cmp.Compare(x.seq, y.seq) })
	out := make([]drafts.NavigationView, len(entries))
	for i, e := range entries {
		out[i] = e.view.Clone()
	}
	return out, nil
}

// nameTaken reports whether another view of the user than fragment has the name.
func (a navViewTx) nameTaken(user users.ID, fragment string, name *string) bool {
	if name == nil {
		return false
	}
	for k, e := range a.t.d.navViews {
		if k.user == user && k.fragment != fragment && e.view.Name != nil && *e.view.Name == *name {
			return true
		}
	}
	return false
}

func (a navViewTx) Create(v drafts.NavigationView) error {
	if err := a.t.live(); err != nil {
		return err
	}
	k := navKey{v.UserID, v.Fragment}
	if _, ok := a.t.d.navViews[k]; ok {
		return conflict("navigation view fragment")
	}
	if a.nameTaken(v.UserID, v.Fragment, v.Name) {
		return conflict("navigation view name")
	}
	seq := nextID(a.j, &a.t.d.navSeq)
	setKey(a.j, a.t.d.navViews, k, navEntry{view: v.Clone(), seq: seq})
	return nil
}

func (a navViewTx) Update(v drafts.NavigationView) error {
	if err := a.t.live(); err != nil {
		return err
	}
	k := navKey{v.UserID, v.Fragment}
	e, ok := a.t.d.navViews[k]
	if !ok {
		return notFound("navigation view", v.Fragment)
	}
	if a.nameTaken(v.UserID, v.Fragment, v.Name) {
		return conflict("navigation view name")
	}
	e.view = v.Clone()
	setKey(a.j, a.t.d.navViews, k, e)
	return nil
}

func (a navViewTx) Delete(user users.ID, fragment string) error {
	if err := a.t.live(); err != nil {
		return err
	}
	k := navKey{user, fragment}
	if _, ok := a.t.d.navViews[k]; !ok {
		return notFound("navigation view", fragment)
	}
	deleteKey(a.j, a.t.d.navViews, k)
	return nil
}
