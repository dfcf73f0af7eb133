package transfer

import (
	"encoding/json"
	"fmt"
	"github.com/teamchat/chat/transfer/zulipdir"
	"slices"
	"sort"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// realmID is the id of the one organization of a store in the export's records.
const realmID = 1

// realmExtra carries the whole organization record beside Zulip's columns, so that settings
// without a Zulip column survive a round trip: the record's JSON with its two maps in the
// encoded forms of package realms (which keep integers integers).
type realmExtra struct {
	Realm        realms.Realm
	Settings     string
	UserDefaults string
}

func (e *exporter) realmRecord() (realmRecord, error) {
	r := e.org.realm.Clone()
	rec := realmRecord{
		"id": realmID, "string_id": "", "name": r.Name, "description": r.Description,
		"date_created": seconds(r.DateCreated.Unix()), "deactivated": r.Deactivated,
		"uri": r.URL, "icon_url": r.IconURL,
	}
	for _, s := range realms.SettingsTable() {
		rec[s.Name] = r.Value(s.Name)
	}
	for _, gs := range r.GroupSettings() {
		rec[gs.Name] = groupSetting(*gs.Value)
	}
	extra := realmExtra{Realm: r, Settings: realms.EncodeSettings(r.Settings), UserDefaults: realms.EncodeSettings(r.UserSettingsDefaults)}
	extra.Realm.Settings, extra.Realm.UserSettingsDefaults = nil, nil
	b, err := json.Marshal(extra)
	if err != nil {
		return nil, fmt.Errorf("transfer: the organization record: %w", err)
	}
	rec["teamchat_realm"] = json.RawMessage(b)
	return rec, nil
}

func groupSetting(s users.GroupSetting) zulipdir.GroupSetting {
	g := zulipdir.GroupSetting{Group: int64(s.Group)}
	for _, m := range s.Members {
		g.Members = append(g.Members, int64(m))
	}
	for _, sg := range s.Subgroups {
		g.Subgroups = append(g.Subgroups, int64(sg))
	}
	return g
}

func seconds(unix int64) float64 { return float64(unix) }

func optID[T ~int64](id T) *int64 {
	if id == 0 {
		return nil
	}
	v := int64(id)
	return &v
}

// realmJSON writes realm.json: every table but the messages and the attachments.
func (e *exporter) realmJSON() error {
	realm, err := e.realmRecord()
	if err != nil {
		return err
	}
	tables := map[string]any{
		"zerver_realm":                   []realmRecord{realm},
		"zerver_userprofile":             e.userRecords(),
		"zerver_userprofile_mirrordummy": []userRecord{},
		"zerver_userprofile_crossrealm":  systemBotRecords(),
		"zerver_stream":                  e.streamRecords(),
		"zerver_recipient":               e.recipientRecords(),
		"zerver_huddle":                  e.huddleRecords(),
		"zerver_subscription":            e.subscriptionRecords(),
		"zerver_realmemoji":              e.emojiRecords(),
		"zerver_customprofilefield":      e.fieldRecords(),
		"zerver_customprofilefieldvalue": e.valueRecords(),
		"zerver_draft":                   e.draftRecords(),
		"zerver_scheduledmessage":        e.scheduledRecords(),
		"zerver_realmdomain":             e.domainRecords(),
		"zerver_defaultstream":           e.defaultStreamRecords(),
	}
	e.groupTables(tables)
	e.org.extra.records(tables)
	tables["zerver_realmexport"] = realmExportRecords(e.org.exports)
	tables["zerver_channelfolder"] = e.org.folders
	clients := make([]zulipdir.Client, 0, len(e.clients))
	for name, id := range e.clients {
		clients = append(clients, zulipdir.Client{ID: id, Name: name})
	}
	sort.Slice(clients, func(i, j int) bool { return clients[i].ID < clients[j].ID })
	tables["zerver_client"] = clients
	return writeJSON(e.out, "realm.json", tables)
}

func (e *exporter) userRecords() []userRecord {
	out := make([]userRecord, 0, len(e.org.users))
	for _, u := range e.org.users {
		rec := userRecord{UserProfile: zulipdir.UserProfile{
			ID: int64(u.ID), Email: u.Email, DeliveryEmail: u.Email, FullName: u.FullName, Role: int(u.Role),
			IsBot: u.IsBot(), BotOwner: optID(u.BotOwnerID), IsActive: u.IsActive, IsMirrorDummy: u.IsImportedStub,
			IsImportedStub: u.IsImportedStub, Timezone: u.Timezone, DateJoined: seconds(u.DateJoined.Unix()),
			AvatarSource: u.AvatarSource, AvatarVersion: u.AvatarVersion, EmailVisibility: int(u.EmailVisibility),
			CanCreateUsers: u.CanCreateUsers, CanChangeUserEmails: u.CanChangeUserEmails, Realm: realmID,
		}, IsDeleted: u.IsDeleted}
		if u.IsBot() {
			bt := int(u.BotType)
			rec.BotType = &bt
			rec.APIKey = u.APIKey // a bot's key is its credential in the integrations that use it
		}
		if s, ok := e.org.settings[u.ID]; ok {
			rec.Settings, rec.SelfEdited = s.Values, s.SelfEdited
		}
		out = append(out, rec)
	}
	return out
}

func (e *exporter) streamRecords() []zulipdir.Stream {
	out := make([]zulipdir.Stream, 0, len(e.org.channels))
	for _, c := range e.org.channels {
		rec := zulipdir.Stream{
			ID: int64(c.ID), Name: c.Name, Description: c.Description, DateCreated: seconds(c.DateCreated),
			Creator: optID(c.CreatorID), InviteOnly: c.InviteOnly, IsWebPublic: c.IsWebPublic,
			HistoryPublicToSubscribers: c.HistoryPublicToSubscribers, MessageRetentionDays: c.MessageRetentionDays,
			TopicsPolicy: int(c.TopicsPolicy), Folder: optID(c.FolderID), Deactivated: c.IsArchived, IsDefault: c.IsDefault,
			DefaultPushNotifications: c.DefaultPushNotifications,
			Realm:                    realmID, Recipient: e.channelBase + int64(c.ID), GroupSettings: map[string]zulipdir.GroupSetting{},
		}
		for _, gs := range c.GroupSettings() {
			rec.GroupSettings[gs.Name] = groupSetting(*gs.Value)
		}
		out = append(out, rec)
	}
	return out
}

func (e *exporter) recipientRecords() []zulipdir.Recipient {
	out := make([]zulipdir.Recipient, 0, len(e.org.users)+len(e.org.channels)+len(e.huddles))
	for _, u := range e.org.users {
		out = append(out, zulipdir.Recipient{ID: int64(u.ID), Type: zulipdir.RecipientPersonal, TypeID: int64(u.ID)})
	}
	for _, c := range e.org.channels {
		out = append(out, zulipdir.Recipient{ID: e.channelBase + int64(c.ID), Type: zulipdir.RecipientStream, TypeID: int64(c.ID)})
	}
	for id := range int64(len(e.huddles)) {
		out = append(out, zulipdir.Recipient{ID: e.huddleBase + id + 1, Type: zulipdir.RecipientHuddle, TypeID: id + 1})
	}
	return out
}

func (e *exporter) huddleRecords() []zulipdir.Huddle {
	out := make([]zulipdir.Huddle, 0, len(e.huddles))
	for key, id := range e.huddles {
		out = append(out, zulipdir.Huddle{ID: id, HuddleHash: key, GroupSize: len(e.huddleMem[id]), Recipient: e.huddleBase + id})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (e *exporter) subscriptionRecords() []zulipdir.Subscription {
	active := map[users.ID]bool{}
	for _, u := range e.org.users {
		active[u.ID] = u.IsActive
	}
	var out []zulipdir.Subscription
	add := func(rec zulipdir.Subscription) {
		rec.ID = int64(len(out) + 1)
		rec.IsUserActive = active[users.ID(rec.UserProfile)]
		out = append(out, rec)
	}
	for _, u := range e.org.users { // Zulip subscribes each user to their personal recipient
		add(zulipdir.Subscription{UserProfile: int64(u.ID), Recipient: int64(u.ID), Active: true})
	}
	for _, s := range e.org.subs {
		add(zulipdir.Subscription{
			UserProfile: int64(s.UserID), Recipient: e.channelBase + int64(s.ChannelID), Active: s.Active,
			Color: s.Color, IsMuted: s.IsMuted, PinToTop: s.PinToTop, DesktopNotifications: s.DesktopNotifications,
			AudibleNotifications: s.AudibleNotifications, PushNotifications: s.PushNotifications,
			EmailNotifications: s.EmailNotifications, WildcardMentionsNotify: s.WildcardMentionsNotify,
		})
	}
	for id := range int64(len(e.huddles)) {
		for _, u := range e.huddleMem[id+1] {
			add(zulipdir.Subscription{UserProfile: int64(u), Recipient: e.huddleBase + id + 1, Active: true})
		}
	}
	return out
}

// groupTables writes Zulip's four group tables: every group a zerver_usergroup row, the
// named ones a zerver_namedusergroup row, and the direct memberships.
func (e *exporter) groupTables(tables map[string]any) {
	groups := []userGroupRecord{}
	named := []namedGroupRecord{}
	members := []membershipRecord{}
	subgroups := []groupMembershipRecord{}
	for _, g := range e.org.groups {
		groups = append(groups, userGroupRecord{ID: int64(g.ID), Realm: realmID})
		named = append(named, namedGroupRecord{
			ID: int64(g.ID), Name: g.Name, Description: g.Description, IsSystemGroup: g.IsSystemGroup,
			Creator: optID(g.CreatorID), DateCreated: seconds(g.DateCreated), Deactivated: g.Deactivated, Realm: realmID,
			GroupSettings: map[string]zulipdir.GroupSetting{
				"can_add_members_group": groupSetting(g.CanAddMembersGroup), "can_join_group": groupSetting(g.CanJoinGroup),
				"can_leave_group": groupSetting(g.CanLeaveGroup), "can_manage_group": groupSetting(g.CanManageGroup),
				"can_mention_group": groupSetting(g.CanMentionGroup), "can_remove_members_group": groupSetting(g.CanRemoveMembersGroup),
			},
		})
		for _, m := range g.Members {
			members = append(members, membershipRecord{ID: int64(len(members) + 1), UserGroup: int64(g.ID), UserProfile: int64(m)})
		}
		for _, s := range g.Subgroups {
			subgroups = append(subgroups, groupMembershipRecord{ID: int64(len(subgroups) + 1), Supergroup: int64(g.ID), Subgroup: int64(s)})
		}
	}
	tables["zerver_usergroup"], tables["zerver_namedusergroup"] = groups, named
	tables["zerver_usergroupmembership"], tables["zerver_groupgroupmembership"] = members, subgroups
}

func (e *exporter) emojiRecords() []zulipdir.RealmEmoji {
	out := make([]zulipdir.RealmEmoji, 0, len(e.org.emoji))
	for _, em := range e.org.emoji {
		out = append(out, zulipdir.RealmEmoji{ID: int64(em.ID), Name: em.Name, Author: optID(em.AuthorID), Deactivated: em.Deactivated,
			FileName: em.FileName, StillFileName: em.StillFileName, Realm: realmID})
	}
	return out
}

func (e *exporter) fieldRecords() []zulipdir.CustomProfileField {
	out := make([]zulipdir.CustomProfileField, 0, len(e.org.fields))
	for _, f := range e.org.fields {
		out = append(out, zulipdir.CustomProfileField{ID: int64(f.ID), Name: f.Name, Hint: f.Hint, FieldType: int(f.Type), FieldData: f.FieldData,
			Order: f.Order, DisplayInProfileSummary: f.DisplayInProfileSummary, Required: f.Required, EditableByUser: f.EditableByUser, Realm: realmID})
	}
	return out
}

func (e *exporter) valueRecords() []zulipdir.CustomProfileValue {
	out := make([]zulipdir.CustomProfileValue, 0, len(e.org.values))
	for i, v := range e.org.values {
		out = append(out, zulipdir.CustomProfileValue{ID: int64(i + 1), UserProfile: int64(v.UserID), Field: int64(v.FieldID), Value: v.Value, RenderedValue: v.RenderedValue})
	}
	return out
}

func (e *exporter) draftRecords() []draftRecord {
	out := make([]draftRecord, 0, len(e.org.drafts))
	for _, d := range e.org.drafts {
		rec := draftRecord{ID: int64(d.ID), UserProfile: int64(d.UserID), To: slices.Clone(d.To), Type: string(d.Type),
			Topic: d.Topic, Content: d.Content, LastEdit: seconds(d.Timestamp)}
		if d.Type == "stream" && len(d.To) == 1 {
			r := e.channelBase + d.To[0]
			rec.Recipient = &r
		}
		out = append(out, rec)
	}
	return out
}

func (e *exporter) scheduledRecords() []scheduledRecord {
	out := make([]scheduledRecord, 0, len(e.org.scheduled))
	for _, s := range e.org.scheduled {
		rec := scheduledRecord{ID: int64(s.ID), Sender: int64(s.SenderID), Subject: s.Topic, Content: s.Content,
			RenderedContent: s.Rendered, ScheduledTimestamp: seconds(s.DeliverAt), Delivered: s.Delivered,
			DeliveredMessage: optID(s.DeliveredMessageID), DeliveryType: int(s.Kind), Kind: int(s.Kind), Failed: s.Failed,
			Realm: realmID, ReadBySender: s.ReadBySender, Client: s.Client, FailureMessage: s.FailureMessage,
			ReminderTarget: optID(s.ReminderTargetID), ReminderNote: s.ReminderNote}
		if s.IsDirect() {
			rec.Recipient = e.directRecipient(s.SenderID, s.Recipients)
			for _, u := range s.Recipients {
				rec.To = append(rec.To, int64(u))
			}
		} else {
			rec.Recipient = e.channelBase + int64(s.ChannelID)
		}
		out = append(out, rec)
	}
	return out
}

func (e *exporter) domainRecords() []map[string]any {
	out := []map[string]any{}
	for _, d := range e.org.realm.Domains {
		out = append(out, map[string]any{"id": d.ID, "domain": d.Domain, "allow_subdomains": d.AllowSubdomains, "realm": realmID})
	}
	return out
}

func (e *exporter) defaultStreamRecords() []map[string]any {
	out := []map[string]any{}
	for _, c := range e.org.channels {
		if c.IsDefault {
			out = append(out, map[string]any{"id": len(out) + 1, "stream": int64(c.ID), "realm": realmID})
		}
	}
	return out
}
