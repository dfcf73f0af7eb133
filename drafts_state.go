package chat

import (
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// DraftsState holds register's keys of the drafts area (drafts, saved snippets, navigation
// views). Each is present only when its kind was fetched.
type DraftsState struct {
	Drafts          *[]DraftRecord          `json:"drafts,omitempty"`
	SavedSnippets   *[]SavedSnippetRecord   `json:"saved_snippets,omitempty"`
	NavigationViews *[]NavigationViewRecord `json:"navigation_views,omitempty"`
}

// draftsAreaState computes the sections of DraftsState that p fetches; nil when none.
// Spectators get empty lists.
func draftsAreaState(tx storage.ReadTx, viewer users.User, p RegisterQueueParams) (*DraftsState, error) {
	var st DraftsState
	fetched := false
	if p.fetches("drafts") {
		fetched = true
		list := []DraftRecord{}
		if viewer.ID != 0 {
			var err error
			if list, err = draftsState(tx, viewer); err != nil {
				return nil, err
			}
		}
		st.Drafts = &list
	}
	if p.fetches("saved_snippets") {
		fetched = true
		list, err := savedSnippetsState(tx.SavedSnippets(), viewer)
		if err != nil {
			return nil, err
		}
		st.SavedSnippets = &list
	}
	if p.fetches("navigation_views") {
		fetched = true
		list, err := navigationViewsState(tx.NavigationViews(), viewer)
		if err != nil {
			return nil, err
		}
		st.NavigationViews = &list
	}
	if !fetched {
		return nil, nil
	}
	return &st, nil
}
