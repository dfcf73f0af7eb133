package compose

import (
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// DraftsState holds register's keys of this area and the organization's lists that clients
// keep beside them (drafts, saved snippets, navigation views, linkifiers, code playgrounds).
// Each is present only when its kind was fetched.
type DraftsState struct {
	Drafts          *[]DraftRecord          `json:"drafts,omitempty"`
	SavedSnippets   *[]SavedSnippetRecord   `json:"saved_snippets,omitempty"`
	NavigationViews *[]NavigationViewRecord `json:"navigation_views,omitempty"`
	// RealmLinkifiers is empty for clients without the linkifier_url_template capability.
	RealmLinkifiers *[]org.LinkifierRecord `json:"realm_linkifiers,omitempty"`
	// RealmFilters is the legacy key, always empty.
	RealmFilters     *[]any                  `json:"realm_filters,omitempty"`
	RealmPlaygrounds *[]org.PlaygroundRecord `json:"realm_playgrounds,omitempty"`
}

// DraftsStateOf computes the sections of DraftsState that p fetches; nil when none.
// Spectators get empty lists.
func DraftsStateOf(tx storage.ReadTx, viewer users.User, p clients.Register) (*DraftsState, error) {
	var st DraftsState
	fetched := false
	if p.Fetches("drafts") {
		fetched = true
		list := []DraftRecord{}
		if viewer.ID != 0 {
			var err error
			if list, err = registerDrafts(tx, viewer); err != nil {
				return nil, err
			}
		}
		st.Drafts = &list
	}
	if p.Fetches("saved_snippets") {
		fetched = true
		list, err := registerSavedSnippets(tx.SavedSnippets(), viewer)
		if err != nil {
			return nil, err
		}
		st.SavedSnippets = &list
	}
	if p.Fetches("navigation_views") {
		fetched = true
		list, err := registerNavigationViews(tx.NavigationViews(), viewer)
		if err != nil {
			return nil, err
		}
		st.NavigationViews = &list
	}
	if p.Fetches("realm_linkifiers") {
		fetched = true
		list := []org.LinkifierRecord{}
		if p.ClientCapabilities.LinkifierURLTemplate {
			var err error
			if list, err = org.LinkifierRecords(tx.Linkifiers()); err != nil {
				return nil, err
			}
		}
		st.RealmLinkifiers = &list
	}
	if p.Fetches("realm_filters") {
		fetched = true
		st.RealmFilters = &[]any{}
	}
	if p.Fetches("realm_playgrounds") {
		fetched = true
		list, err := org.PlaygroundRecords(tx.Playgrounds())
		if err != nil {
			return nil, err
		}
		st.RealmPlaygrounds = &list
	}
	if !fetched {
		return nil, nil
	}
	return &st, nil
}
