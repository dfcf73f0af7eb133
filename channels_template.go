package chat

import (
	"maps"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// resolvePrincipals finds the users a request acts on. Unknown and deactivated users are
// "No such user".
func resolvePrincipals(w *world, me users.User, p Principals, none bool) ([]users.User, error) {
	if none {
		return nil, nil
	}
	if p.empty() {
		return []users.User{me}, nil
	}
	if len(p.IDs)+len(p.Emails) > MaxPrincipals {
		return nil, badRequest("principals is too long (limit: %d items)", MaxPrincipals)
	}
	seen := map[users.ID]bool{}
	var out []users.User
	add := func(u users.User, ok bool) error {
		if !ok || !u.IsActive {
			return badRequest("No such user")
		}
		if !seen[u.ID] {
			seen[u.ID] = true
			out = append(out, u)
		}
		return nil
	}
	for _, id := range p.IDs {
		u, ok := w.lookup(id)
		if err := add(u, ok); err != nil {
			return nil, err
		}
	}
	if len(p.Emails) > 0 && len(p.Emails) <= lazyUserReads {
		for _, e := range p.Emails {
			u, ok := w.userByEmail(users.NormalizeEmail(e))
			if err := add(u, ok); err != nil {
				return nil, err
			}
		}
	} else if len(p.Emails) > 0 {
		all := w.allUsers()
		byEmail := make(map[string]users.User, len(all))
		for _, u := range all {
			byEmail[users.NormalizeEmail(u.Email)] = u
			byEmail[users.NormalizeEmail(apiEmail(w.org(), u))] = u
		}
		for _, e := range p.Emails {
			u, ok := byEmail[users.NormalizeEmail(e)]
			if err := add(u, ok); err != nil {
				return nil, err
			}
		}
	}
	slices.SortFunc(out, func(a, b users.User) int { return int(a.ID - b.ID) })
	return out, nil
}

// newChannelTemplate checks the creation settings and the actor's right to create such a
// channel, and returns the channel to create (without name, description or date).
func (s *Service) newChannelTemplate(w *world, me users.User, st NewChannelSettings) (channels.Channel, error) {
	c := channels.Channel{CreatorID: me.ID, InviteOnly: st.InviteOnly, IsWebPublic: st.IsWebPublic, IsDefault: st.IsDefaultStream, TopicsPolicy: channels.TopicsInherit}
	if st.IsWebPublic {
		if !w.org().EnableSpectatorAccess {
			return c, badRequest("Web-public channels are not enabled.")
		}
		if st.InviteOnly || (st.HistoryPublicToSubscribers != nil && !*st.HistoryPublicToSubscribers) {
			return c, badRequest("Invalid parameters")
		}
		if !w.membership().Allows(w.org().CanCreateWebPublicChannelGroup, me.ID) {
			return c, errInsufficientPermission()
		}
	} else if st.InviteOnly {
		if !w.membership().Allows(w.org().CanCreatePrivateChannelGroup, me.ID) {
			return c, errInsufficientPermission()
		}
	} else if !w.membership().Allows(w.org().CanCreatePublicChannelGroup, me.ID) {
		return c, errInsufficientPermission()
	}
	c.HistoryPublicToSubscribers = !st.InviteOnly || (st.HistoryPublicToSubscribers != nil && *st.HistoryPublicToSubscribers)
	if st.IsDefaultStream {
		if !me.Role.IsAdmin() {
			return c, errInsufficientPermission()
		}
		if st.InviteOnly {
			return c, badRequest("A default channel cannot be private.")
		}
	}
	if st.MessageRetentionDays != nil {
		r, err := channels.ParseRetention(*st.MessageRetentionDays)
		if err != nil {
			return c, badRequest("%s", err.Error())
		}
		if r.Days != nil && me.Role != users.RoleOwner {
			return c, errMustBeOwner()
		}
		c.MessageRetentionDays = r.Days
	}
	if st.TopicsPolicy != nil {
		tp, ok := channels.ParseTopicsPolicy(*st.TopicsPolicy)
		if !ok {
			return c, InvalidArgument("topics_policy", "")
		}
		if tp != channels.TopicsInherit && !me.Role.AtLeast(users.RoleModerator) {
			return c, errInsufficientPermission()
		}
		c.TopicsPolicy = tp
	}
	if st.FolderID != nil {
		c.FolderID = *st.FolderID // checked by the caller
	}
	if err := applyGroupSettings(w, me, &c, st.GroupSettings); err != nil {
		return c, err
	}
	c.ApplyDefaults(w.groupID)
	if !c.HistoryPublicToSubscribers && !(c.CanCreateTopicGroup.IsNamed() && c.CanCreateTopicGroup.Group == w.groupID(users.GroupEveryone)) {
		return c, badRequest("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group")
	}
	return c, nil
}

// applyGroupSettings validates the given group settings and stores them in c.
func applyGroupSettings(w *world, me users.User, c *channels.Channel, given map[string]users.GroupSetting) error {
	if len(given) == 0 {
		return nil
	}
	byName := map[string]channels.NamedSetting{}
	for _, ns := range c.GroupSettings() {
		byName[ns.Name] = ns
	}
	names := slices.Sorted(maps.Keys(given))
	for _, name := range names {
		v := given[name]
		ns, ok := byName[name]
		if !ok {
			return InvalidArgument(name, "")
		}
		if err := w.membership().CheckSetting(v, func(id users.ID) bool { _, ok := w.lookup(id); return ok }); err != nil {
			return badRequest("%s", err.Error())
		}
		if v.IsNamed() {
			switch w.groupNameOf(v.Group) {
			case users.GroupInternet:
				return badRequest("'%s' setting cannot be set to 'role:internet' group.", name)
			case users.GroupEveryone:
				if !ns.AllowEveryone {
					return badRequest("'%s' setting cannot be set to 'role:everyone' group.", name)
				}
			}
		}
		if (name == "can_delete_any_message_group" || name == "can_delete_own_message_group") && !me.Role.IsAdmin() &&
			!(v.IsNamed() && v.Group == w.groupID(users.GroupNobody)) {
			return errInsufficientPermission()
		}
		if v.Members == nil && !v.IsNamed() {
			v.Members = []users.ID{}
		}
		if v.Subgroups == nil && !v.IsNamed() {
			v.Subgroups = []users.GroupID{}
		}
		*ns.Value = v
	}
	return nil
}
