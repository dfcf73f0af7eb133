package chat

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
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
	// GroupSettings changes can_move_messages_between_topics_group,
	// can_move_messages_between_channels_group and can_resolve_topics_group.
	GroupSettings map[string]GroupSettingChange
}

// RealmEditingResult echoes the editing settings that changed (a limit of null: unlimited).
type RealmEditingResult struct {
	AllowMessageEditing                    *bool                         `json:"allow_message_editing,omitempty"`
	MessageContentEditLimitSeconds         *any                          `json:"message_content_edit_limit_seconds,omitempty"`
	MoveMessagesWithinStreamLimitSeconds   *any                          `json:"move_messages_within_stream_limit_seconds,omitempty"`
	MoveMessagesBetweenStreamsLimitSeconds *any                          `json:"move_messages_between_streams_limit_seconds,omitempty"`
	MessageEditHistoryVisibilityPolicy     *string                       `json:"message_edit_history_visibility_policy,omitempty"`
	GroupSettings                          map[string]users.GroupSetting `json:"-"`
}

// RealmDictEvent is a realm update_dict event: settings of the "default" dictionary changed.
type RealmDictEvent struct {
	Type     string         `json:"type"`
	Op       string         `json:"op"`
	Property string         `json:"property"`
	Data     map[string]any `json:"data"`
}

// realmMoveSettings are the organization's group settings of moving and resolving, with
// whether role:everyone is allowed.
func realmMoveSettings(r *realms.Realm) map[string]struct {
	value         *users.GroupSetting
	allowEveryone bool
} {
	type entry = struct {
		value         *users.GroupSetting
		allowEveryone bool
	}
	return map[string]entry{
		"can_move_messages_between_topics_group":   {&r.CanMoveMessagesBetweenTopicsGroup, true},
		"can_move_messages_between_channels_group": {&r.CanMoveMessagesBetweenChannelsGroup, false},
		"can_resolve_topics_group":                 {&r.CanResolveTopicsGroup, true},
	}
}

// parseLimit reads a time limit: a positive integer, or "unlimited" (0).
func parseLimit(name, raw string) (int, error) {
	s := strings.TrimSpace(raw)
	if s == `"unlimited"` || s == "unlimited" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, InvalidArgument(name, "")
	}
	return n, nil
}

// applyEditingSettings applies the editing settings of p to realm (validating all of them
// first) and records their realm events; it reports whether anything changed.
func (w *world) applyEditingSettings(ev *events, realm *realms.Realm, p RealmEditingParams, res *RealmEditingResult) (bool, error) {
	limits := []struct {
		name string
		raw  *string
		dst  *int
		echo **any
		dict bool
	}{
		{"message_content_edit_limit_seconds", p.MessageContentEditLimitSeconds, &realm.MessageContentEditLimitSeconds, &res.MessageContentEditLimitSeconds, true},
		{"move_messages_within_stream_limit_seconds", p.MoveMessagesWithinStreamLimitSeconds, &realm.MoveMessagesWithinStreamLimitSeconds, &res.MoveMessagesWithinStreamLimitSeconds, false},
		{"move_messages_between_streams_limit_seconds", p.MoveMessagesBetweenStreamsLimitSeconds, &realm.MoveMessagesBetweenStreamsLimitSeconds, &res.MoveMessagesBetweenStreamsLimitSeconds, false},
	}
	parsed := make([]int, len(limits))
	for i, l := range limits {
		if l.raw == nil {
			continue
		}
		n, err := parseLimit(l.name, *l.raw)
		if err != nil {
			return false, err
		}
		parsed[i] = n
	}
	if p := p.MessageEditHistoryVisibilityPolicy; p != nil {
		switch messages.EditHistoryPolicy(*p) {
		case messages.EditHistoryAll, messages.EditHistoryMoves, messages.EditHistoryNone:
		default:
			return false, InvalidArgument("message_edit_history_visibility_policy", "")
		}
	}
	settings := realmMoveSettings(realm)
	for _, name := range slices.Sorted(maps.Keys(p.GroupSettings)) {
		c := p.GroupSettings[name]
		st, ok := settings[name]
		if !ok || c.New == nil {
			return false, InvalidArgument(name, "")
		}
		if c.Old != nil && !sameChannelSetting(*c.Old, *st.value) {
			return false, badRequest("'old' value does not match the expected value.")
		}
		if err := w.membership().CheckSetting(*c.New, func(id users.ID) bool { _, ok := w.lookup(id); return ok }); err != nil {
			return false, badRequest("%s", err.Error())
		}
		if c.New.IsNamed() {
			switch w.groupNameOf(c.New.Group) {
			case users.GroupInternet:
				return false, badRequest("'%s' setting cannot be set to 'role:internet' group.", name)
			case users.GroupEveryone:
				if !st.allowEveryone {
					return false, badRequest("'%s' setting cannot be set to 'role:everyone' group.", name)
				}
			}
		}
	}
	to := w.activeIDs()
	changed := false
	dict := func(name string, value any) {
		changed = true
		ev.add("realm", RealmDictEvent{Type: "realm", Op: "update_dict", Property: "default", Data: map[string]any{name: value}}, to)
	}
	if p.AllowMessageEditing != nil && *p.AllowMessageEditing != realm.AllowMessageEditing {
		realm.AllowMessageEditing = *p.AllowMessageEditing
		res.AllowMessageEditing = p.AllowMessageEditing
		dict("allow_message_editing", realm.AllowMessageEditing)
	}
	for i, l := range limits {
		if l.raw == nil || parsed[i] == *l.dst {
			continue
		}
		*l.dst = parsed[i]
		var v any
		if n := limitOrNull(parsed[i]); n != nil {
			v = *n
		}
		*l.echo = &v
		if l.dict {
			dict(l.name, v)
			continue
		}
		changed = true
		ev.add("realm", RealmUpdateEvent{Type: "realm", Op: "update", Property: l.name, Value: v}, to)
	}
	if p := p.MessageEditHistoryVisibilityPolicy; p != nil && *p != realm.MessageEditHistoryVisibilityPolicy {
		realm.MessageEditHistoryVisibilityPolicy = *p
		res.MessageEditHistoryVisibilityPolicy = p
		changed = true
		ev.add("realm", RealmUpdateEvent{Type: "realm", Op: "update", Property: "message_edit_history_visibility_policy", Value: *p}, to)
	}
	for _, name := range slices.Sorted(maps.Keys(p.GroupSettings)) {
		st, next := settings[name], *p.GroupSettings[name].New
		if sameChannelSetting(next, *st.value) {
			continue
		}
		*st.value = next
		if res.GroupSettings == nil {
			res.GroupSettings = map[string]users.GroupSetting{}
		}
		res.GroupSettings[name] = next
		dict(name, next)
	}
	return changed, nil
}

// withDefaultMoveGroups fills the move and resolve settings an organization stored before they
// existed (the zero setting) with their default system groups, as register shows them.
func withDefaultMoveGroups(gr storage.GroupReader, r *realms.Realm) error {
	settings := []*users.GroupSetting{&r.CanMoveMessagesBetweenTopicsGroup, &r.CanMoveMessagesBetweenChannelsGroup, &r.CanResolveTopicsGroup}
	if !slices.ContainsFunc(settings, func(s *users.GroupSetting) bool { return channels.IsZeroSetting(*s) }) {
		return nil
	}
	groups, err := gr.List()
	if err != nil {
		return err
	}
	for i, s := range settings {
		if !channels.IsZeroSetting(*s) {
			continue
		}
		for _, g := range groups {
			if g.Name == realms.DefaultMoveGroups[i] {
				*s = users.Named(g.ID)
			}
		}
	}
	return nil
}
