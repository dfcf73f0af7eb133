package org

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// UpdateRealmParams are the organization settings of PATCH /realm; nil fields and absent
// names are left alone.
type UpdateRealmParams struct {
	// NewStreamAnnouncementsStreamID, SignupAnnouncementsStreamID,
	// ZulipUpdateAnnouncementsStreamID and ModerationRequestChannelID are the channels of the
	// server's notices; -1 (any negative value) turns one off.
	NewStreamAnnouncementsStreamID   *int64
	SignupAnnouncementsStreamID      *int64
	ZulipUpdateAnnouncementsStreamID *int64
	ModerationRequestChannelID       *int64
	// Message editing and moving (see RealmEditingParams).
	RealmEditingParams
	// Settings are scalar settings by name (realms.SettingsTable): bool, int64 or string
	// values, nil for null (an "unlimited" limit, the "default" Jitsi server).
	Settings map[string]any
	// GroupSettings changes group permissions (realms.GroupSettingNames).
	GroupSettings map[string]GroupSettingChange
	// AuthenticationMethods enables or disables authentication methods by Zulip's names
	// (the keys of register's realm_authentication_methods). Owners only.
	AuthenticationMethods map[string]bool
}

// UpdateRealmResult echoes the settings that changed, as Zulip's response does.
type UpdateRealmResult struct {
	// Changed maps each changed setting to its new value (strings: "updated").
	Changed map[string]any
}

// MarshalJSON writes the changed settings as the response's keys.
func (r UpdateRealmResult) MarshalJSON() ([]byte, error) {
	if r.Changed == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(r.Changed)
}

// realmChange is one UpdateRealm in progress: the organization being changed, the events and
// the response.
type realmChange struct {
	w       *world.World
	me      users.User
	realm   *realms.Realm
	ev      *engine.Events
	to      []int64
	changed map[string]any
}

// update records a realm update event and the response key.
func (c *realmChange) update(name string, value, echo any) {
	c.ev.Emit(RealmUpdateEvent{Type: "realm", Op: "update", Property: name, Value: value}, c.to)
	c.changed[name] = echo
}

// dict records a realm update_dict event of the "default" dictionary and the response key.
func (c *realmChange) dict(name string, value any) {
	c.ev.Emit(RealmDictEvent{Type: "realm", Op: "update_dict", Property: "default", Data: map[string]any{name: value}}, c.to)
	c.changed[name] = value
}

// UpdateRealm changes organization settings: administrators only, and owners only for the
// settings Zulip reserves to them. Each changed setting sends a realm update (or update_dict)
// event to every active user; nothing changes when any value is refused.
func (s *Service) UpdateRealm(ctx context.Context, actor engine.Actor, p UpdateRealmParams) (UpdateRealmResult, error) {
	res := UpdateRealmResult{Changed: map[string]any{}}
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		clear(res.Changed)
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		if err := p.checkOwnerOnly(me); err != nil {
			return err
		}
		realm := w.Org().Clone()
		c := &realmChange{w: w, me: me, realm: &realm, ev: ev, to: w.ActiveUserIDs(), changed: res.Changed}
		if err := c.applyChannels(p); err != nil {
			return err
		}
		if err := applyEditingSettings(w, c, p.RealmEditingParams); err != nil {
			return err
		}
		if err := c.applyScalars(p.Settings); err != nil {
			return err
		}
		if err := c.applyGroups(p.GroupSettings); err != nil {
			return err
		}
		if err := s.applyAuthMethods(c, p.AuthenticationMethods); err != nil {
			return err
		}
		if len(res.Changed) == 0 {
			return nil
		}
		return tx.Realm().Put(realm)
	})
	if err != nil {
		return UpdateRealmResult{}, err
	}
	return res, nil
}

// checkOwnerOnly refuses a non-owner any setting Zulip reserves to owners.
func (p UpdateRealmParams) checkOwnerOnly(me users.User) error {
	if me.Role == users.RoleOwner {
		return nil
	}
	if p.AuthenticationMethods != nil {
		return engine.ErrMustBeOwner()
	}
	for name := range p.Settings {
		if st, ok := realms.LookupSetting(name); ok && st.OwnerOnly {
			return engine.ErrMustBeOwner()
		}
	}
	var r realms.Realm
	for _, ns := range r.GroupSettings() {
		if _, ok := p.GroupSettings[ns.Name]; ok && ns.OwnerOnly {
			return engine.ErrMustBeOwner()
		}
	}
	return nil
}

// applyChannels sets the channels of the server's notices.
func (c *realmChange) applyChannels(p UpdateRealmParams) error {
	for _, ch := range []struct {
		name  string
		given *int64
		dst   *int64
	}{
		{"moderation_request_channel_id", p.ModerationRequestChannelID, &c.realm.ModerationRequestChannelID},
		{"new_stream_announcements_stream_id", p.NewStreamAnnouncementsStreamID, &c.realm.NewStreamAnnouncementsStreamID},
		{"signup_announcements_stream_id", p.SignupAnnouncementsStreamID, &c.realm.SignupAnnouncementsStreamID},
		{"zulip_update_announcements_stream_id", p.ZulipUpdateAnnouncementsStreamID, &c.realm.ZulipUpdateAnnouncementsStreamID},
	} {
		if ch.given == nil {
			continue
		}
		id := max(*ch.given, -1)
		if id >= 0 {
			if _, err := engine.ChannelRef(c.w, c.me, channels.ID(id)); err != nil {
				return err
			}
		}
		if id == ChannelOrNone(*ch.dst) {
			continue
		}
		*ch.dst = max(id, 0)
		c.update(ch.name, id, id)
	}
	return nil
}

// ChannelOrNone is a stored channel id as the API shows it: -1 for none.
func ChannelOrNone(id int64) int64 {
	if id == 0 {
		return -1
	}
	return id
}

// applyScalars checks and stores the scalar settings, in name order.
func (c *realmChange) applyScalars(given map[string]any) error {
	for _, name := range slices.Sorted(maps.Keys(given)) {
		st, ok := realms.LookupSetting(name)
		if !ok {
			return engine.InvalidArgument(name, "")
		}
		v, err := st.Check(given[name])
		var ce *realms.CheckError
		if errors.As(err, &ce) {
			return engine.BadRequest("%s", ce.Msg)
		} else if err != nil {
			return err
		}
		if v == c.realm.Value(name) {
			continue
		}
		before := c.derived()
		c.realm.SetValue(name, v)
		echo := v
		if _, isString := v.(string); isString {
			echo = "updated"
		}
		value := v
		if name == "description" {
			value = RenderedDescription(*c.realm)
		}
		if st.Dict {
			c.dict(name, value)
		} else {
			c.update(name, value, echo)
		}
		c.announceDerived(before)
	}
	return nil
}

// applyGroups checks and stores the group permissions, in name order. An empty anonymous
// group is stored as role:nobody, as Zulip does.
func (c *realmChange) applyGroups(given map[string]GroupSettingChange) error {
	if len(given) == 0 {
		return nil
	}
	byName := map[string]realms.NamedSetting{}
	for _, ns := range c.realm.GroupSettings() {
		byName[ns.Name] = ns
	}
	w := c.w
	for _, name := range slices.Sorted(maps.Keys(given)) {
		ch := given[name]
		ns, ok := byName[name]
		if !ok || ch.New == nil {
			return engine.InvalidArgument(name, "")
		}
		next := *ch.New
		if next.IsNobody() {
			next = users.Named(w.GroupID(users.GroupNobody))
		}
		if ch.Old != nil && !users.SameGroupSetting(*ch.Old, *ns.Value) {
			return engine.BadRequest("'old' value does not match the expected value.")
		}
		if err := checkRealmGroupSetting(w, ns, next); err != nil {
			return err
		}
		if users.SameGroupSetting(next, *ns.Value) {
			continue
		}
		before := c.derived()
		*ns.Value = next
		c.dict(name, next)
		c.announceDerived(before)
	}
	return nil
}

// checkRealmGroupSetting applies Zulip's rules of one organization permission to a value.
func checkRealmGroupSetting(w *world.World, ns realms.NamedSetting, v users.GroupSetting) error {
	if err := w.Membership().CheckSetting(v, func(id users.ID) bool { _, ok := w.Lookup(id); return ok }); err != nil {
		return engine.RuleError(err)
	}
	if !v.IsNamed() {
		if ns.RequireSystemGroup() {
			return engine.BadRequest("'%s' must be a system user group.", ns.Name)
		}
		return nil
	}
	group := w.GroupNameOf(v.Group)
	switch {
	case group == users.GroupInternet:
		return engine.BadRequest("'%s' setting cannot be set to 'role:internet' group.", ns.Name)
	case group == users.GroupNobody && !ns.AllowNobody:
		return engine.BadRequest("'%s' setting cannot be set to 'role:nobody' group.", ns.Name)
	case group == users.GroupEveryone && !ns.AllowEveryone:
		return engine.BadRequest("'%s' setting cannot be set to 'role:everyone' group.", ns.Name)
	case ns.RequireSystemGroup() && !slices.Contains(ns.AllowedSystemGroups, group):
		if !isSystemGroup(w, v.Group) {
			return engine.BadRequest("'%s' must be a system user group.", ns.Name)
		}
		return engine.BadRequest("'%s' setting cannot be set to '%s' group.", ns.Name, group)
	}
	return nil
}

// isSystemGroup reports whether id is one of the organization's system groups.
func isSystemGroup(w *world.World, id users.GroupID) bool {
	i := slices.IndexFunc(w.AllGroups(), func(g users.Group) bool { return g.ID == id })
	return i >= 0 && w.AllGroups()[i].IsSystemGroup
}

// derivedSettings are the deprecated register keys computed from other settings, which Zulip
// announces with their own realm update events when they change.
type derivedSettings struct {
	WildcardMentionPolicy int64
	mandatoryTopics       bool
}

func (c *realmChange) derived() derivedSettings {
	return derivedSettings{
		WildcardMentionPolicy: WildcardMentionPolicy(*c.realm, func(id users.GroupID) string { return c.w.GroupNameOf(id) }),
		mandatoryTopics:       c.realm.String("topics_policy") == realms.TopicsDisableEmpty,
	}
}

// announceDerived sends realm update events for the derived settings that changed since before.
func (c *realmChange) announceDerived(before derivedSettings) {
	after := c.derived()
	if after.WildcardMentionPolicy != before.WildcardMentionPolicy {
		c.ev.Emit(RealmUpdateEvent{Type: "realm", Op: "update", Property: "wildcard_mention_policy", Value: after.WildcardMentionPolicy}, c.to)
	}
	if after.mandatoryTopics != before.mandatoryTopics {
		c.ev.Emit(RealmUpdateEvent{Type: "realm", Op: "update", Property: "mandatory_topics", Value: after.mandatoryTopics}, c.to)
	}
}

// WildcardMentionPolicy is the deprecated wildcard_mention_policy matching
// can_mention_many_users_group: the system group's policy, else members (2).
func WildcardMentionPolicy(r realms.Realm, groupName func(users.GroupID) string) int64 {
	s := r.CanMentionManyUsersGroup
	if !s.IsNamed() {
		return 2
	}
	switch groupName(s.Group) {
	case users.GroupEveryone:
		return 1
	case users.GroupMembers:
		return 2
	case users.GroupFullMembers:
		return 3
	case users.GroupAdministrators, users.GroupOwners:
		return 5
	case users.GroupNobody:
		return 6
	case users.GroupModerators:
		return 7
	}
	return 2
}

// GroupSettingChange is a permission change of PATCH /user_groups/{id}: the new value and,
// optionally, the value the client believes current.
type GroupSettingChange struct {
	New *users.GroupSetting `json:"new"`
	Old *users.GroupSetting `json:"old,omitempty"`
}
