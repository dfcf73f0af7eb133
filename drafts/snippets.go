package drafts

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/users"
)

// SnippetID identifies a saved snippet.
type SnippetID int64

// SavedSnippet is a reusable piece of message text of one user.
type SavedSnippet struct {
	ID          SnippetID
	UserID      users.ID
	Title       string
	Content     string // Markdown
	DateCreated int64  // UNIX seconds
}

// Limits of saved snippets, in code points.
const (
	MaxSnippetTitleLength   = 60
	MaxSnippetContentLength = 10000
)

// CheckSnippetTitle strips the title and checks it: not blank, at most MaxSnippetTitleLength.
// The error is the API's message for the parameter "title".
func CheckSnippetTitle(title string) (string, error) {
	return checkSnippetText("title", title, MaxSnippetTitleLength)
}

// CheckSnippetContent is CheckSnippetTitle for the content (MaxSnippetContentLength).
func CheckSnippetContent(content string) (string, error) {
	return checkSnippetText("content", content, MaxSnippetContentLength)
}

func checkSnippetText(name, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", fmt.Errorf("%s cannot be blank", name)
	case !utf8.ValidString(s):
		return "", fmt.Errorf("Invalid %s", name)
	case utf8.RuneCountInString(s) > max:
		return "", fmt.Errorf("%s is too long (limit: %d characters)", name, max)
	}
	return s, nil
}
