package drafts

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/users"
)

// NavigationView is a user's configuration of one view of the left sidebar: a built-in view
// (inbox, recent, ...; no name) or a custom one (a named narrow).
type NavigationView struct {
	UserID   users.ID
	Fragment string // the URL hash; identifies the view among the user's
	IsPinned bool
	// Name is the custom view's name; nil for built-in views.
	Name *string
}

// Clone returns a copy of v that shares no memory with it.
func (v NavigationView) Clone() NavigationView {
	if v.Name != nil {
		n := *v.Name
		v.Name = &n
	}
	return v
}

// Limits of navigation views, in code points. Zulip bounds neither (it only strips
// whitespace); these bounds keep a fragment or a name of 4-byte characters within
// PostgreSQL's limit for a unique index entry (2,704 bytes).
const (
	MaxFragmentLength           = 600
	MaxNavigationViewNameLength = 600
	// MaxNavigationViews bounds the views of one user.
	MaxNavigationViews = 1000
)

// builtInFragments are the fragments of the web app's built-in views.
var builtInFragments = []string{
	"inbox", "recent", "feed", "drafts",
	"narrow/has/reaction/sender/me", "narrow/is/mentioned", "narrow/is/starred",
}

// IsBuiltInView reports whether fragment is one of the built-in views.
func IsBuiltInView(fragment string) bool { return slices.Contains(builtInFragments, fragment) }

// Refusals of the navigation-view rules, with the API's messages.
var (
	ErrBuiltInViewName   = errors.New("Built-in views cannot have a custom name.")
	ErrCustomViewName    = errors.New("Custom views must have a valid name.")
	ErrViewAlreadyExists = errors.New("Navigation view already exists.")
)

// CheckFragment strips a fragment and checks it: not blank, bounded, valid UTF-8.
func CheckFragment(fragment string) (string, error) {
	return checkViewText("fragment", fragment, MaxFragmentLength)
}

// CheckViewName strips a view name and checks it like CheckFragment.
func CheckViewName(name string) (string, error) {
	return checkViewText("name", name, MaxNavigationViewNameLength)
}

func checkViewText(param, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", fmt.Errorf("%s cannot be blank", param)
	case !utf8.ValidString(s) || strings.ContainsRune(s, 0):
		return "", fmt.Errorf("Invalid %s", param)
	case utf8.RuneCountInString(s) > max:
		return "", fmt.Errorf("%s is too long (limit: %d characters)", param, max)
	}
	return s, nil
}

// CheckNewView checks a view to add against the kind of its fragment: built-in views have no
// name, custom views need one.
func CheckNewView(v NavigationView) error {
	if IsBuiltInView(v.Fragment) {
		if v.Name != nil {
			return ErrBuiltInViewName
		}
		return nil
	}
	if v.Name == nil || *v.Name == "" {
		return ErrCustomViewName
	}
	return nil
}
