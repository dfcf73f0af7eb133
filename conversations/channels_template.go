package conversations

import (
	"maps"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/users"
)

// resolvePrincipals finds the users a request acts on. Unknown and deactivated users are
// "No such user".
func resolvePrincipals(w *world.World, me users.User, p Principals, none bool) ([]users.User, error) {
	if none {
		return nil, nil
	}
	if p.empty() {
		return []users.User{me}, nil
	}
	if len(p.IDs)+len(p.Emails) > MaxPrincipals {
		return nil, engine.BadRequest("principals is too long (limit: %d items)", MaxPrincipals)
	}
	seen := map[users.ID]bool{}
	var out []users.User
	add := func(u users.User, ok bool) error {
		if !ok || !u.IsActive {
			return engine.BadRequest("No such user")
		}
		if !seen[u.ID] {
			seen[u.ID] = true
			out = append(out, u)
		}
		return nil
	}
	for _, id := range p.IDs {
		u, ok := w.Lookup(id)
		if err := add(u, ok); err != nil {
			return nil, err
		}
	}
	if len(p.Emails) > 0 && len(p.Emails) <= world.LazyUserReads {
		for _, e := range p.Emails {
			u, ok := w.UserByEmail(users.NormalizeEmail(e))
			if err := add(u, ok); err != nil {
				return nil, err
			}
		}
	} else if len(p.Emails) > 0 {
		all := w.AllUsers()
		byEmail := make(map[string]users.User, len(all))
		for _, u := range all {
			byEmail[users.NormalizeEmail(u.Email)] = u
			byEmail[users.NormalizeEmail(w.APIEmail(u))] = u
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
func (s *Service) newChannelTemplate(w *world.World, me users.User, st NewChannelSettings) (channels.Channel, error) {
	c := channels.Channel{CreatorID: me.ID, InviteOnly: st.InviteOnly, IsWebPublic: st.IsWebPublic, IsDefault: st.IsDefaultStream, TopicsPolicy: channels.TopicsInherit}
	if err := checkChannelCreation(w, me, st); err != nil {
		return c, err
	}
	c.HistoryPublicToSubscribers = !st.InviteOnly || (st.HistoryPublicToSubscribers != nil && *st.HistoryPublicToSubscribers)
	if st.DefaultPushNotifications {
		if !me.Role.IsAdmin() {
			return c, errInsufficientPermission()
		}
		c.DefaultPushNotifications = true
	}
	if st.IsDefaultStream {
		if !me.Role.IsAdmin() {
			return c, errInsufficientPermission()
		}
		if st.InviteOnly {
			return c, engine.BadRequest("A default channel cannot be private.")
		}
	}
	if err := newChannelRetention(me, &c, st.MessageRetentionDays); err != nil {
		return c, err
	}
	if err := newChannelTopicsPolicy(me, &c, st.TopicsPolicy); err != nil {
		return c, err
	}
	if st.FolderID != nil {
		c.FolderID = *st.FolderID // checked by the caller
	}
	if err := applyGroupSettings(w, me, &c, st.GroupSettings); err != nil {
		return c, err
	}
	c.ApplyDefaults(w.GroupID)
	if !c.HistoryPublicToSubscribers && !(c.CanCreateTopicGroup.IsNamed() && c.CanCreateTopicGroup.Group == w.GroupID(users.GroupEveryone)) {
		return c, engine.BadRequest("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group")
	}
	return c, nil
}

// checkChannelCreation refuses a web-public channel where the organization has no spectators
// or with a private history, and an actor outside the organization's setting for creating a
// channel of that kind (web-public, private or public).
func checkChannelCreation(w *world.World, me users.User, st NewChannelSettings) error {
	may := w.Org().CanCreatePublicChannelGroup
	switch {
	case st.IsWebPublic:
		if !w.Org().EnableSpectatorAccess {
			return engine.BadRequest("Web-public channels are not enabled.")
		}
		if st.InviteOnly || (st.HistoryPublicToSubscribers != nil && !*st.HistoryPublicToSubscribers) {
			return engine.BadRequest("Invalid parameters")
		}
		may = w.Org().CanCreateWebPublicChannelGroup
	case st.InviteOnly:
		may = w.Org().CanCreatePrivateChannelGroup
	}
	if !w.Membership().Allows(may, me.ID) {
		return errInsufficientPermission()
	}
	return nil
}

// newChannelRetention sets the message retention given (only an owner sets a number of days).
func newChannelRetention(me users.User, c *channels.Channel, given *string) error {
	if given == nil {
		return nil
	}
	r, err := channels.ParseRetention(*given)
	if err != nil {
		return engine.RuleError(err)
	}
	if r.Days != nil && me.Role != users.RoleOwner {
		return engine.ErrMustBeOwner()
	}
	c.MessageRetentionDays = r.Days
	return nil
}

// newChannelTopicsPolicy sets the topics policy given (only a moderator sets another than
// inherit).
func newChannelTopicsPolicy(me users.User, c *channels.Channel, given *string) error {
	if given == nil {
		return nil
	}
	tp, ok := channels.ParseTopicsPolicy(*given)
	if !ok {
		return engine.InvalidArgument("topics_policy", "")
	}
	if tp != channels.TopicsInherit && !me.Role.AtLeast(users.RoleModerator) {
		return errInsufficientPermission()
	}
	c.TopicsPolicy = tp
	return nil
}

// applyGroupSettings validates the given group settings and stores them in c.
func applyGroupSettings(w *world.World, me users.User, c *channels.Channel, given map[string]users.GroupSetting) error {
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
			return engine.InvalidArgument(name, "")
		}
		if err := w.Membership().CheckSetting(v, func(id users.ID) bool { _, ok := w.Lookup(id); return ok }); err != nil {
			return engine.RuleError(err)
		}
		if v.IsNamed() {
			switch w.GroupNameOf(v.Group) {
			case users.GroupInternet:
				return engine.BadRequest("'%s' setting cannot be set to 'role:internet' group.", name)
			case users.GroupEveryone:
				if !ns.AllowEveryone {
					return engine.BadRequest("'%s' setting cannot be set to 'role:everyone' group.", name)
				}
			}
		}
		if (name == "can_delete_any_message_group" || name == "can_delete_own_message_group") && !me.Role.IsAdmin() &&
			!(v.IsNamed() && v.Group == w.GroupID(users.GroupNobody)) {
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
