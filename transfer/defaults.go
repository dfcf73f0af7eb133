package transfer

import (
	"encoding/json"
	"github.com/teamchat/chat/transfer/zulipdir"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// Exports written by Zulip or by the Slack and Mattermost converters carry the group settings
// as Zulip's columns (a usergroup id per setting) rather than this engine's
// teamchat_group_settings, may leave settings out, and may lack the system groups; the import
// reads the columns and gives what is missing Zulip's defaults.

// streamRecord is a row of zerver_stream as the import reads it.
type streamRecord struct{ zulipdir.Stream }

// UnmarshalJSON reads a stream record, its group settings from teamchat_group_settings or
// else from Zulip's columns of the same names.
func (s *streamRecord) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &s.Stream); err != nil {
		return err
	}
	var cols map[string]json.RawMessage
	if err := json.Unmarshal(b, &cols); err != nil {
		return err
	}
	for _, name := range channels.SettingNames() {
		raw, ok := cols[name]
		if _, have := s.GroupSettings[name]; have || !ok || string(raw) == "null" {
			continue
		}
		var g zulipdir.GroupSetting
		if err := json.Unmarshal(raw, &g); err != nil {
			return err
		}
		if s.GroupSettings == nil {
			s.GroupSettings = map[string]zulipdir.GroupSetting{}
		}
		s.GroupSettings[name] = g
	}
	return nil
}

// ensureSystemGroups creates the system groups the export lacks, as a new organization has
// them, with the users of their roles as members.
func (im *importer) ensureSystemGroups() error {
	byName := map[string]users.GroupID{}
	list, err := im.tx.Groups().List()
	if err != nil {
		return err
	}
	for _, g := range list {
		if g.IsSystemGroup {
			byName[g.Name] = g.ID
		}
	}
	people, err := im.tx.Users().List()
	if err != nil {
		return err
	}
	for _, sg := range users.SystemGroups() {
		if _, ok := byName[sg.Name]; ok {
			continue
		}
		g := users.Group{Name: sg.Name, Description: sg.Description, IsSystemGroup: true}
		if sg.Subgroup != "" && byName[sg.Subgroup] != 0 {
			g.Subgroups = []users.GroupID{byName[sg.Subgroup]}
		}
		for _, u := range people {
			if u.ID != notificationBotID && ((sg.Role != 0 && u.Role == sg.Role) || (sg.Name == users.GroupFullMembers && u.Role == users.RoleMember)) {
				g.Members = append(g.Members, u.ID)
			}
		}
		id, err := im.tx.Groups().Create(g)
		if err != nil {
			return err
		}
		byName[sg.Name] = id
	}
	im.systemGroups = byName
	return nil
}

// channelDefaults gives the group settings a channel record left out their defaults: the
// system group each names, or the channel's creator for can_administer_channel_group.
func (im *importer) channelDefaults(c *channels.Channel, present map[string]zulipdir.GroupSetting) {
	for _, gs := range c.GroupSettings() {
		if _, ok := present[gs.Name]; ok {
			continue
		}
		switch {
		case gs.Default != "" && im.systemGroups[gs.Default] != 0:
			*gs.Value = users.Named(im.systemGroups[gs.Default])
		case gs.Default == "" && c.CreatorID != 0:
			*gs.Value = users.GroupSetting{Members: []users.ID{c.CreatorID}}
		}
	}
}
