package messages

import (
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// PropagateMode says which messages of a topic a topic or channel change applies to.
type PropagateMode string

// The propagate modes of PATCH /messages/{message_id}.
const (
	ChangeOne   PropagateMode = "change_one"
	ChangeLater PropagateMode = "change_later"
	ChangeAll   PropagateMode = "change_all"
)

// ParsePropagateMode reads an API value; "" is change_one.
func ParsePropagateMode(s string) (PropagateMode, bool) {
	switch p := PropagateMode(s); p {
	case "":
		return ChangeOne, true
	case ChangeOne, ChangeLater, ChangeAll:
		return p, true
	}
	return "", false
}

// emptyTopicFallbackName is the name the empty topic has in resolve checks, whatever the
// organization's display name.
const emptyTopicFallbackName = "general chat"

// IsUnresolvableTopic reports whether a requested topic would resolve the empty topic ("✔"
// alone, or the prefix before the general chat name), which is refused.
func IsUnresolvableTopic(topic string) bool {
	return topic == strings.TrimSpace(ResolvedPrefix) || topic == ResolvedPrefix+emptyTopicFallbackName
}

// ResolveChange says whether renaming topic from to to (before truncation: requested) marks
// it resolved or unresolved; a rename that does neither returns false for both.
func ResolveChange(from, to, requested string) (resolved, unresolved bool) {
	resolved = strings.HasPrefix(to, ResolvedPrefix) && !strings.HasPrefix(from, ResolvedPrefix) &&
		strings.TrimPrefix(requested, ResolvedPrefix) == from
	unresolved = strings.HasPrefix(from, ResolvedPrefix) && !strings.HasPrefix(to, ResolvedPrefix) &&
		strings.TrimLeft(from, ResolvedPrefix) == to
	return resolved, unresolved
}

// EditHistoryEntry is one edit of a message, as the API shows it in edit_history: who and when,
// and the fields the edit changed (content, topic and/or channel) with their previous values.
type EditHistoryEntry struct {
	UserID              users.ID     `json:"user_id"`
	Timestamp           int64        `json:"timestamp"`
	PrevContent         *string      `json:"prev_content,omitempty"`
	PrevRenderedContent *string      `json:"prev_rendered_content,omitempty"`
	PrevStream          *channels.ID `json:"prev_stream,omitempty"`
	Stream              *channels.ID `json:"stream,omitempty"`
	PrevTopic           *string      `json:"prev_topic,omitempty"`
	Topic               *string      `json:"topic,omitempty"`
}

// IsMove reports whether the entry changed the channel or the topic.
func (e EditHistoryEntry) IsMove() bool { return e.PrevStream != nil || e.PrevTopic != nil }

// EditHistoryPolicy says which edits users may see (realm message_edit_history_visibility_policy).
type EditHistoryPolicy string

// The edit-history visibility policies.
const (
	EditHistoryAll   EditHistoryPolicy = "all"
	EditHistoryMoves EditHistoryPolicy = "moves"
	EditHistoryNone  EditHistoryPolicy = "none"
)

// VisibleHistory is the part of a message's history (newest first) that policy shows: nil
// when none; under moves, only the channel and topic changes of move entries.
func VisibleHistory(history []EditHistoryEntry, policy EditHistoryPolicy) []EditHistoryEntry {
	switch policy {
	case EditHistoryNone:
		return nil
	case EditHistoryMoves:
		var out []EditHistoryEntry
		for _, e := range history {
			if e.IsMove() {
				e.PrevContent, e.PrevRenderedContent = nil, nil
				out = append(out, e)
			}
		}
		return out
	}
	return history
}

// cloneHistory copies a history so that no entry shares memory with the original.
func cloneHistory(h []EditHistoryEntry) []EditHistoryEntry {
	return slices.Clone(h)
}
