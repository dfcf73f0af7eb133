package org

import (
	"strconv"
	"strings"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
)

// RealmEditingParams are the message editing and moving settings of PATCH /realm; nil fields
// are left alone.
type RealmEditingParams struct {
	AllowMessageEditing *bool
	// The time limits are the JSON text of the value: a positive integer of seconds, or
	// "unlimited".
	MessageContentEditLimitSeconds         *string
	MoveMessagesWithinStreamLimitSeconds   *string
	MoveMessagesBetweenStreamsLimitSeconds *string
	// MessageEditHistoryVisibilityPolicy is "all", "moves" or "none".
	MessageEditHistoryVisibilityPolicy *string
}

// RealmDictEvent is a realm update_dict event: settings of the "default" dictionary changed.
type RealmDictEvent struct {
	Type     string         `json:"type"`
	Op       string         `json:"op"`
	Property string         `json:"property"`
	Data     map[string]any `json:"data"`
}

// parseLimit reads a time limit: a positive integer, or "unlimited" (0).
func parseLimit(name, raw string) (int, error) {
	s := strings.TrimSpace(raw)
	if s == `"unlimited"` || s == "unlimited" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, engine.InvalidArgument(name, "")
	}
	return n, nil
}

// applyEditingSettings applies the editing settings of p (validating all of them first) and
// records their realm events.
func applyEditingSettings(w *world.World, c *realmChange, p RealmEditingParams) error {
	realm := c.realm
	limits := []struct {
		name string
		raw  *string
		dst  *int
		dict bool
	}{
		{"message_content_edit_limit_seconds", p.MessageContentEditLimitSeconds, &realm.MessageContentEditLimitSeconds, true},
		{"move_messages_within_stream_limit_seconds", p.MoveMessagesWithinStreamLimitSeconds, &realm.MoveMessagesWithinStreamLimitSeconds, false},
		{"move_messages_between_streams_limit_seconds", p.MoveMessagesBetweenStreamsLimitSeconds, &realm.MoveMessagesBetweenStreamsLimitSeconds, false},
	}
	parsed := make([]int, len(limits))
	for i, l := range limits {
		if l.raw == nil {
			continue
		}
		n, err := parseLimit(l.name, *l.raw)
		if err != nil {
			return err
		}
		parsed[i] = n
	}
	if p := p.MessageEditHistoryVisibilityPolicy; p != nil {
		switch messages.EditHistoryPolicy(*p) {
		case messages.EditHistoryAll, messages.EditHistoryMoves, messages.EditHistoryNone:
		default:
			return engine.InvalidArgument("message_edit_history_visibility_policy", "")
		}
	}
	if p.AllowMessageEditing != nil && *p.AllowMessageEditing != realm.AllowMessageEditing {
		realm.AllowMessageEditing = *p.AllowMessageEditing
		c.dict("allow_message_editing", realm.AllowMessageEditing)
	}
	for i, l := range limits {
		if l.raw == nil || parsed[i] == *l.dst {
			continue
		}
		*l.dst = parsed[i]
		var v any
		if n := LimitOrNull(parsed[i]); n != nil {
			v = *n
		}
		if l.dict {
			c.dict(l.name, v)
		} else {
			c.update(l.name, v, v)
		}
	}
	if p := p.MessageEditHistoryVisibilityPolicy; p != nil && *p != realm.MessageEditHistoryVisibilityPolicy {
		realm.MessageEditHistoryVisibilityPolicy = *p
		c.update("message_edit_history_visibility_policy", *p, *p)
	}
	return nil
}
