package transfer

import (
	"encoding/json"
	"errors"
	"github.com/teamchat/chat/transfer/zulipdir"
	"slices"
	"sort"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// realm stores the organization, its group settings and channel references left for
// realmGroupSettings (they name groups and channels not created yet).
func (im *importer) realm() error {
	if len(im.rf.Realm) != 1 {
		return corrupt("realm.json", "zerver_realm holds %d rows (want 1)", len(im.rf.Realm))
	}
	rec := im.rf.Realm[0]
	var r realms.Realm
	if raw, ok := rec["teamchat_realm"]; ok {
		var extra realmExtra
		if err := json.Unmarshal(raw, &extra); err != nil {
			return corrupt("realm.json", "teamchat_realm: %v", err)
		}
		r = extra.Realm
		var err error
		if r.Settings, err = realms.DecodeSettings(extra.Settings); err != nil {
			return corrupt("realm.json", "teamchat_realm settings: %v", err)
		}
		if r.UserSettingsDefaults, err = realms.DecodeUserSettings(extra.UserDefaults); err != nil {
			return corrupt("realm.json", "teamchat_realm user defaults: %v", err)
		}
	} else {
		r = zulipRealm(rec)
		for _, d := range im.rf.Domains {
			r.Domains = append(r.Domains, realms.Domain{ID: d.ID, Domain: d.Domain, AllowSubdomains: d.AllowSubdomains})
		}
	}
	if r.Name == "" {
		return corrupt("realm.json", "the organization has no name")
	}
	for _, gs := range r.GroupSettings() {
		*gs.Value = users.GroupSetting{}
	}
	im.pendingRealm = r
	return im.tx.Realm().Put(r.Clone())
}

// zulipRealm reads the columns of a Zulip export's zerver_realm row that have a setting here.
func zulipRealm(rec map[string]json.RawMessage) realms.Realm {
	r := realms.Realm{PasswordAuthEnabled: true, AllowMessageEditing: true,
		MessageContentEditLimitSeconds:       realms.DefaultMessageContentEditLimitSeconds,
		MoveMessagesWithinStreamLimitSeconds: realms.DefaultMoveMessagesLimitSeconds, MoveMessagesBetweenStreamsLimitSeconds: realms.DefaultMoveMessagesLimitSeconds,
		EmptyTopicDisplayName: realms.DefaultEmptyTopicDisplayName, MessageEditHistoryVisibilityPolicy: "all"}
	var created float64
	if json.Unmarshal(rec["date_created"], &created) == nil && created > 0 {
		r.DateCreated = time.Unix(int64(created), 0).UTC()
	} else {
		r.DateCreated = time.Now().UTC()
	}
	_ = json.Unmarshal(rec["uri"], &r.URL)
	_ = json.Unmarshal(rec["deactivated"], &r.Deactivated)
	for _, s := range realms.SettingsTable() {
		raw, ok := rec[s.Name]
		if !ok || string(raw) == "null" {
			continue
		}
		var v any
		var err error
		switch s.Kind {
		case realms.KindBool:
			v, err = decodeSetting(raw, false)
		case realms.KindInt:
			v, err = decodeSetting(raw, int64(0))
		default:
			v, err = decodeSetting(raw, "")
		}
		if err != nil {
			continue
		}
		if checked, err := s.Check(v); err == nil {
			r.SetValue(s.Name, checked)
		}
	}
	return r
}

func sortedUsers(list []userRecord) []userRecord {
	list = slices.Clone(list)
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	return list
}

// importUsers creates every user in the order of the old ids, then sets the bots' owners.
func (im *importer) importUsers() error {
	all := sortedUsers(append(slices.Clone(im.rf.Users), im.rf.MirrorDummies...))
	settings := map[users.ID]users.Settings{}
	for _, rec := range all {
		if _, dup := im.users[rec.ID]; dup {
			return corrupt("realm.json", "user %d appears twice", rec.ID)
		}
		u := users.User{Email: rec.DeliveryEmail, FullName: rec.FullName, Role: users.Role(rec.Role), IsActive: rec.IsActive,
			Timezone: rec.Timezone, DateJoined: time.Unix(int64(rec.DateJoined), 0).UTC(), AvatarSource: rec.AvatarSource,
			AvatarVersion: rec.AvatarVersion, IsImportedStub: rec.IsMirrorDummy, EmailVisibility: users.EmailVisibility(rec.EmailVisibility),
			CanCreateUsers: rec.CanCreateUsers, CanChangeUserEmails: rec.CanChangeUserEmails, IsDeleted: rec.IsDeleted}
		if u.Email == "" {
			u.Email = rec.Email
		}
		if u.AvatarSource == "" {
			u.AvatarSource = "G"
		}
		if !u.Role.Valid() {
			return corrupt("realm.json", "user %d has role %d", rec.ID, rec.Role)
		}
		if rec.BotType != nil {
			u.BotType, u.APIKey = users.BotType(*rec.BotType), rec.APIKey
		}
		if u.APIKey == "" {
			key, err := newAPIKey()
			if err != nil {
				return err
			}
			u.APIKey = key
		}
		if rec.ID > 1 { // the old id where the store allows it: links in rendered messages hold user ids
			if err := im.tx.Users().ReserveIDs(users.ID(rec.ID - 1)); err != nil {
				return err
			}
		}
		id, err := im.tx.Users().Create(u)
		if errors.Is(err, storage.ErrConflict) {
			return corrupt("realm.json", "user %d: the email %q is taken twice", rec.ID, u.Email)
		}
		if err != nil {
			return err
		}
		im.users[rec.ID] = id
		if len(rec.Settings) > 0 || len(rec.SelfEdited) > 0 {
			settings[id] = users.Settings{Values: rec.Settings, SelfEdited: rec.SelfEdited}
		}
		im.res.Users++
	}
	for _, rec := range im.rf.CrossRealm {
		im.users[rec.ID] = systemBotByEmail(rec.Email)
	}
	for _, rec := range all {
		if rec.BotOwner == nil {
			continue
		}
		owner, ok := im.users[*rec.BotOwner]
		if !ok {
			return corrupt("realm.json", "bot %d's owner %d is no user", rec.ID, *rec.BotOwner)
		}
		u, err := im.tx.Users().Get(im.users[rec.ID])
		if err != nil {
			return err
		}
		u.BotOwnerID = owner
		if err := im.tx.Users().Update(u); err != nil {
			return err
		}
	}
	if len(settings) > 0 {
		return im.tx.UserSettings().PutMany(settings)
	}
	return nil
}

func (im *importer) user(file string, old int64) (users.ID, error) {
	id, ok := im.users[old]
	if !ok {
		return 0, corrupt(file, "user %d does not exist", old)
	}
	return id, nil
}

// importGroups creates the named groups, then gives them members, subgroups and settings.
func (im *importer) importGroups() error {
	named := slices.Clone(im.rf.NamedGroups)
	sort.Slice(named, func(i, j int) bool { return named[i].ID < named[j].ID })
	for _, g := range named {
		id, err := im.tx.Groups().Create(users.Group{Name: g.Name, Description: g.Description, IsSystemGroup: g.IsSystemGroup,
			DateCreated: int64(g.DateCreated), Deactivated: g.Deactivated})
		if errors.Is(err, storage.ErrConflict) {
			return corrupt("realm.json", "group %d: the name %q is taken twice", g.ID, g.Name)
		}
		if err != nil {
			return err
		}
		im.groups[g.ID] = id
	}
	im.anonymous = map[int64]users.GroupSetting{}
	for _, m := range im.rf.Memberships {
		u, err := im.user("realm.json", m.UserProfile)
		if err != nil {
			return err
		}
		s := im.anonymous[m.UserGroup]
		s.Members = append(s.Members, u)
		im.anonymous[m.UserGroup] = s
	}
	for _, m := range im.rf.GroupMemberships {
		sub, ok := im.groups[m.Subgroup]
		if !ok {
			return corrupt("realm.json", "subgroup %d is no named group", m.Subgroup)
		}
		s := im.anonymous[m.Supergroup]
		s.Subgroups = append(s.Subgroups, sub)
		im.anonymous[m.Supergroup] = s
	}
	for _, g := range named {
		grp, err := im.tx.Groups().Get(im.groups[g.ID])
		if err != nil {
			return err
		}
		content := im.anonymous[g.ID]
		grp.Members, grp.Subgroups = sortedSet(content.Members), sortedSet(content.Subgroups)
		if grp.CreatorID, err = im.optUser(g.Creator); err != nil {
			return err
		}
		for name, ptr := range map[string]*users.GroupSetting{
			"can_add_members_group": &grp.CanAddMembersGroup, "can_join_group": &grp.CanJoinGroup, "can_leave_group": &grp.CanLeaveGroup,
			"can_manage_group": &grp.CanManageGroup, "can_mention_group": &grp.CanMentionGroup, "can_remove_members_group": &grp.CanRemoveMembersGroup,
		} {
			if rec, ok := g.GroupSettings[name]; ok {
				if *ptr, err = im.setting(rec); err != nil {
					return err
				}
			}
		}
		if err := im.tx.Groups().Update(grp); err != nil {
			return err
		}
	}
	return nil
}

func sortedSet[T ~int64](s []T) []T {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

func (im *importer) optUser(old *int64) (users.ID, error) {
	if old == nil {
		return 0, nil
	}
	return im.user("realm.json", *old)
}

// setting remaps a group setting: a named group, an anonymous group of zerver_usergroup (by
// its memberships), or the lists of the API's form.
func (im *importer) setting(rec zulipdir.GroupSetting) (users.GroupSetting, error) {
	if rec.Group != 0 {
		if id, ok := im.groups[rec.Group]; ok {
			return users.Named(id), nil
		}
		if s, ok := im.anonymous[rec.Group]; ok {
			return users.GroupSetting{Members: sortedSet(s.Members), Subgroups: sortedSet(s.Subgroups)}, nil
		}
		return users.GroupSetting{}, nil // an anonymous group without members: nobody
	}
	var s users.GroupSetting
	for _, m := range rec.Members {
		u, err := im.user("realm.json", m)
		if err != nil {
			return s, err
		}
		s.Members = append(s.Members, u)
	}
	for _, g := range rec.Subgroups {
		id, ok := im.groups[g]
		if !ok {
			return s, corrupt("realm.json", "group setting names group %d, which does not exist", g)
		}
		s.Subgroups = append(s.Subgroups, id)
	}
	s.Members, s.Subgroups = sortedSet(s.Members), sortedSet(s.Subgroups)
	return s, nil
}

func (im *importer) importChannels() error {
	list := slices.Clone(im.rf.Streams)
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	defaults := map[int64]bool{}
	for _, d := range im.rf.DefaultStreams {
		defaults[d.Stream] = true
	}
	for _, rec := range list {
		c := channels.Channel{Name: rec.Name, Description: rec.Description, DateCreated: int64(rec.DateCreated),
			InviteOnly: rec.InviteOnly, IsWebPublic: rec.IsWebPublic, HistoryPublicToSubscribers: rec.HistoryPublicToSubscribers,
			MessageRetentionDays: rec.MessageRetentionDays, TopicsPolicy: channels.TopicsPolicy(rec.TopicsPolicy),
			IsArchived: rec.Deactivated, IsDefault: rec.IsDefault || defaults[rec.ID], DefaultPushNotifications: rec.DefaultPushNotifications}
		var err error
		if c.CreatorID, err = im.optUser(rec.Creator); err != nil {
			return err
		}
		if rec.Folder != nil {
			if c.FolderID = im.folders[*rec.Folder]; c.FolderID == 0 {
				return corrupt("realm.json", "channel %d: folder %d does not exist", rec.ID, *rec.Folder)
			}
		}
		for _, gs := range c.GroupSettings() {
			if r, ok := rec.GroupSettings[gs.Name]; ok {
				if *gs.Value, err = im.setting(r); err != nil {
					return err
				}
			}
		}
		im.channelDefaults(&c, rec.GroupSettings)
		id, err := im.tx.Channels().Create(c)
		if errors.Is(err, storage.ErrConflict) {
			return corrupt("realm.json", "channel %d: the name %q is taken twice", rec.ID, rec.Name)
		}
		if err != nil {
			return err
		}
		im.channels[rec.ID] = id
		im.res.Channels++
	}
	return nil
}

// realmGroupSettings stores the organization again with its group settings and channels.
func (im *importer) realmGroupSettings() error {
	r := im.pendingRealm
	rec := im.rf.Realm[0]
	var extra realmExtra
	hasExtra := false
	if raw, ok := rec["teamchat_realm"]; ok && json.Unmarshal(raw, &extra) == nil {
		hasExtra = true
	}
	old := extra.Realm
	olds := old.GroupSettings()
	for i, gs := range r.GroupSettings() {
		var src zulipdir.GroupSetting
		if hasExtra {
			src = groupSetting(*olds[i].Value)
		} else if raw, ok := rec[gs.Name]; !ok || json.Unmarshal(raw, &src) != nil {
			continue
		}
		s, err := im.setting(src)
		if err != nil {
			return err
		}
		*gs.Value = s
	}
	if !hasExtra { // settings a Zulip export left out: a new organization's defaults
		r.ApplyDefaultGroups(func(name string) users.GroupID { return im.systemGroups[name] })
	}
	for _, ref := range []*int64{&r.NewStreamAnnouncementsStreamID, &r.SignupAnnouncementsStreamID, &r.ZulipUpdateAnnouncementsStreamID, &r.ModerationRequestChannelID} {
		if *ref != 0 {
			*ref = int64(im.channels[*ref]) // a channel the export lacks: none
		}
	}
	return im.tx.Realm().Put(r)
}

func (im *importer) importRecipients() error {
	for _, r := range im.rf.Recipients {
		im.recipients[r.ID] = r
	}
	for _, s := range im.rf.Subscriptions {
		r, ok := im.recipients[s.Recipient]
		if !ok {
			return corrupt("realm.json", "subscription %d: recipient %d does not exist", s.ID, s.Recipient)
		}
		if r.Type != zulipdir.RecipientHuddle {
			continue
		}
		u, err := im.user("realm.json", s.UserProfile)
		if err != nil {
			return err
		}
		im.huddles[r.ID] = append(im.huddles[r.ID], u)
	}
	for id, list := range im.huddles {
		im.huddles[id] = sortedSet(list)
	}
	for _, c := range im.rf.Clients {
		im.clients[c.ID] = c.Name
	}
	return nil
}

func (im *importer) importSubscriptions() error {
	var subs []channels.Subscription
	for _, s := range im.rf.Subscriptions {
		r := im.recipients[s.Recipient]
		if r.Type != zulipdir.RecipientStream {
			continue
		}
		c, ok := im.channels[r.TypeID]
		if !ok {
			return corrupt("realm.json", "subscription %d: channel %d does not exist", s.ID, r.TypeID)
		}
		u, err := im.user("realm.json", s.UserProfile)
		if err != nil {
			return err
		}
		subs = append(subs, channels.Subscription{UserID: u, ChannelID: c, Active: s.Active, Color: s.Color, IsMuted: s.IsMuted,
			PinToTop: s.PinToTop, DesktopNotifications: s.DesktopNotifications, AudibleNotifications: s.AudibleNotifications,
			PushNotifications: s.PushNotifications, EmailNotifications: s.EmailNotifications, WildcardMentionsNotify: s.WildcardMentionsNotify})
	}
	if len(subs) == 0 {
		return nil
	}
	return im.tx.Subscriptions().Put(subs)
}

func (im *importer) importProfiles() error {
	fields := slices.Clone(im.rf.Fields)
	sort.Slice(fields, func(i, j int) bool { return fields[i].ID < fields[j].ID })
	ids := map[int64]users.ProfileFieldID{}
	for _, f := range fields {
		id, err := im.tx.ProfileFields().Create(users.ProfileField{Type: users.ProfileFieldType(f.FieldType), Name: f.Name, Hint: f.Hint,
			FieldData: f.FieldData, Order: f.Order, DisplayInProfileSummary: f.DisplayInProfileSummary, Required: f.Required, EditableByUser: f.EditableByUser})
		if err != nil {
			return corrupt("realm.json", "profile field %d: %v", f.ID, err)
		}
		ids[f.ID] = id
	}
	var values []users.ProfileValue
	for _, v := range im.rf.Values {
		u, err := im.user("realm.json", v.UserProfile)
		if err != nil {
			return err
		}
		f, ok := ids[v.Field]
		if !ok {
			return corrupt("realm.json", "profile value %d: field %d does not exist", v.ID, v.Field)
		}
		values = append(values, users.ProfileValue{UserID: u, FieldID: f, Value: v.Value, RenderedValue: v.RenderedValue})
	}
	if len(values) == 0 {
		return nil
	}
	return im.tx.ProfileFields().PutValues(values)
}

func (im *importer) importEmoji() error {
	list := slices.Clone(im.rf.Emoji)
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	for _, e := range list {
		author, err := im.optUser(e.Author)
		if err != nil {
			return err
		}
		if _, err := im.tx.Realm().CreateEmoji(emoji.Custom{Name: e.Name, AuthorID: author, Deactivated: e.Deactivated,
			FileName: e.FileName, StillFileName: e.StillFileName}); err != nil {
			return corrupt("realm.json", "emoji %d (%q): %v", e.ID, e.Name, err)
		}
	}
	return nil
}
