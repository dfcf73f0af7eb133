package seeds

import (
	"context"
	"encoding/json"
	"fmt"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// accountIDs maps the seed's accounts (normalized emails) to their ids.
type accountIDs map[string]users.ID

// lookup returns the ids of emails; what names the list in the error for an unknown one.
func (ids accountIDs) lookup(what string, emails []string) ([]users.ID, error) {
	out := make([]users.ID, 0, len(emails))
	for _, e := range emails {
		id, ok := ids[users.NormalizeEmail(e)]
		if !ok {
			return nil, fmt.Errorf("%s: %q is not a user of the seed", what, e)
		}
		out = append(out, id)
	}
	return out, nil
}

// actor is the account named by email, or fallback when email is empty; what names the object
// it acts for in errors.
func (ids accountIDs) actor(what, email string, fallback users.ID) (chat.Actor, error) {
	id := fallback
	if email != "" {
		list, err := ids.lookup(what+" creator", []string{email})
		if err != nil {
			return chat.Actor{}, err
		}
		id = list[0]
	}
	if id == 0 {
		return chat.Actor{}, fmt.Errorf("%s: no creator (name one, or give the seed an owner)", what)
	}
	return chat.Actor{UserID: id}, nil
}

// firstOwner is the id of the seed's first owner, 0 when it has none.
func (s *Seed) firstOwner(ids accountIDs) users.ID {
	for _, u := range s.Users {
		if u.Role == users.RoleOwner {
			return ids[users.NormalizeEmail(u.Email)]
		}
	}
	return 0
}

// applyChannelsAndGroups creates the seed's channels and groups as their creators.
func (s *Seed) applyChannelsAndGroups(ctx context.Context, svc *chat.Service, ids accountIDs) error {
	owner := s.firstOwner(ids)
	for _, c := range s.Channels {
		actor, err := ids.actor("seed channel "+c.Name, c.Creator, owner)
		if err != nil {
			return err
		}
		subscribers, err := ids.lookup("seed channel "+c.Name, c.Subscribers)
		if err != nil {
			return err
		}
		if _, err := svc.CreateChannel(ctx, actor, chat.CreateChannelParams{
			Name: c.Name, Description: c.Description, Subscribers: subscribers,
			NewChannelSettings: chat.NewChannelSettings{InviteOnly: c.InviteOnly, IsWebPublic: c.IsWebPublic, IsDefaultStream: c.Default},
		}); err != nil {
			return fmt.Errorf("seed channel %s: %w", c.Name, err)
		}
	}
	for _, g := range s.Groups {
		actor, err := ids.actor("seed group "+g.Name, g.Creator, owner)
		if err != nil {
			return err
		}
		members, err := ids.lookup("seed group "+g.Name, g.Members)
		if err != nil {
			return err
		}
		if _, err := svc.CreateUserGroup(ctx, actor, chat.CreateUserGroupParams{
			Name: g.Name, Description: g.Description, Members: members,
		}); err != nil {
			return fmt.Errorf("seed group %s: %w", g.Name, err)
		}
	}
	return nil
}

// applyRealmData creates the seed's custom profile fields and linkifiers as its first owner.
func (s *Seed) applyRealmData(ctx context.Context, svc *chat.Service, ids accountIDs) error {
	owner := s.firstOwner(ids)
	if len(s.Organization.Settings) > 0 || len(s.Organization.UserDefaults) > 0 {
		actor, err := ids.actor("seed organization settings", "", owner)
		if err != nil {
			return err
		}
		if len(s.Organization.Settings) > 0 {
			if _, err := svc.UpdateRealm(ctx, actor, chat.UpdateRealmParams{Settings: settingValues(s.Organization.Settings)}); err != nil {
				return fmt.Errorf("seed organization settings: %w", err)
			}
		}
		if len(s.Organization.UserDefaults) > 0 {
			if _, err := svc.UpdateRealmUserSettingsDefaults(ctx, actor, chat.UpdateRealmUserSettingsDefaultsParams{Values: settingValues(s.Organization.UserDefaults)}); err != nil {
				return fmt.Errorf("seed user settings defaults: %w", err)
			}
		}
	}
	for _, f := range s.ProfileFields {
		actor, err := ids.actor("seed profile field "+f.Name, "", owner)
		if err != nil {
			return err
		}
		if _, err := svc.CreateCustomProfileField(ctx, actor, chat.CreateCustomProfileFieldParams{
			Name: f.Name, Hint: f.Hint, FieldType: f.Type, FieldData: f.FieldData,
		}); err != nil {
			return fmt.Errorf("seed profile field %s: %w", f.Name, err)
		}
	}
	for _, l := range s.Linkifiers {
		actor, err := ids.actor("seed linkifier "+l.Pattern, "", owner)
		if err != nil {
			return err
		}
		if _, err := svc.AddLinkifier(ctx, actor, chat.AddLinkifierParams{Pattern: l.Pattern, URLTemplate: l.URLTemplate}); err != nil {
			return fmt.Errorf("seed linkifier %s: %w", l.Pattern, err)
		}
	}
	return nil
}

// applyModerationChannel makes the seed's moderation request channel the organization's, as
// its first owner.
func (s *Seed) applyModerationChannel(ctx context.Context, svc *chat.Service, ids accountIDs) error {
	name := s.Organization.ModerationRequestChannel
	if name == "" {
		return nil
	}
	actor, err := ids.actor("seed moderation request channel", "", s.firstOwner(ids))
	if err != nil {
		return err
	}
	c, err := svc.GetStreamID(ctx, actor, chat.GetStreamIDParams{Stream: name})
	if err != nil {
		return fmt.Errorf("seed moderation request channel %s: %w", name, err)
	}
	id := int64(c.StreamID)
	if _, err := svc.UpdateRealm(ctx, actor, chat.UpdateRealmParams{ModerationRequestChannelID: &id}); err != nil {
		return fmt.Errorf("seed moderation request channel %s: %w", name, err)
	}
	return nil
}

// applyUserData fills in each user's profile values and presence, as that user.
func (s *Seed) applyUserData(ctx context.Context, svc *chat.Service, ids accountIDs) error {
	fields := map[string]users.ProfileFieldID{}
	if len(s.ProfileFields) > 0 {
		list, err := svc.GetCustomProfileFields(ctx, chat.Actor{UserID: s.firstOwner(ids)})
		if err != nil {
			return fmt.Errorf("seed profile fields: %w", err)
		}
		for _, f := range list.CustomFields {
			fields[f.Name] = f.ID
		}
	}
	for _, u := range s.Users {
		actor := chat.Actor{UserID: ids[users.NormalizeEmail(u.Email)]}
		if len(u.Profile) > 0 {
			data, err := profileData(u, fields, ids)
			if err != nil {
				return err
			}
			if _, err := svc.UpdateProfileData(ctx, actor, chat.UpdateProfileDataParams{Data: data}); err != nil {
				return fmt.Errorf("seed user %s profile: %w", u.Email, err)
			}
		}
		if len(u.Settings) > 0 {
			if _, err := svc.UpdateSettings(ctx, actor, chat.UpdateSettingsParams{Values: settingValues(u.Settings)}); err != nil {
				return fmt.Errorf("seed user %s settings: %w", u.Email, err)
			}
		}
		if u.Present {
			if _, err := svc.UpdatePresence(ctx, actor, chat.UpdatePresenceParams{Status: "active", NewUserInput: true}); err != nil {
				return fmt.Errorf("seed user %s presence: %w", u.Email, err)
			}
		}
	}
	return nil
}

// profileData is u's profile values in the form UpdateProfileData takes.
func profileData(u User, fields map[string]users.ProfileFieldID, ids accountIDs) ([]chat.ProfileDataUpdate, error) {
	data := make([]chat.ProfileDataUpdate, 0, len(u.Profile))
	for _, v := range u.Profile {
		id, ok := fields[v.Field]
		if !ok {
			return nil, fmt.Errorf("seed user %s: %q is not a profile field of the seed", u.Email, v.Field)
		}
		var value any = v.Value
		if v.Users != nil {
			list, err := ids.lookup("seed user "+u.Email+" profile field "+v.Field, v.Users)
			if err != nil {
				return nil, err
			}
			value = list
		}
		raw, err := json.Marshal(value)
		if err != nil {
			return nil, err
		}
		data = append(data, chat.ProfileDataUpdate{ID: int64(id), Value: raw})
	}
	return data, nil
}

// settingValues is a map of settings with JSON numbers (a seed file's) as the int64 values the
// Service takes.
func settingValues(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		n, ok := v.(json.Number)
		if !ok {
			out[k] = v
			continue
		}
		if i, err := n.Int64(); err == nil {
			out[k] = i
		} else {
			out[k] = n.String() // not an integer: the Service refuses it with the setting's error
		}
	}
	return out
}

// applyMessages creates the seed's drafts and scheduled messages as their users.
func (s *Seed) applyMessages(ctx context.Context, svc *chat.Service, ids accountIDs) error {
	channelID := func(actor chat.Actor, name string) (int64, error) {
		res, err := svc.GetStreamID(ctx, actor, chat.GetStreamIDParams{Stream: name})
		return int64(res.StreamID), err
	}
	for _, d := range s.Drafts {
		actor, err := ids.actor("seed draft", d.User, 0)
		if err != nil {
			return err
		}
		p := chat.DraftParams{Type: ptr(""), To: &[]int64{}, Topic: ptr(d.Topic), Content: ptr(d.Content)}
		if d.Channel != "" {
			id, err := channelID(actor, d.Channel)
			if err != nil {
				return fmt.Errorf("seed draft of %s in %s: %w", d.User, d.Channel, err)
			}
			p.Type, p.To = ptr("stream"), &[]int64{id}
		}
		if _, err := svc.CreateDrafts(ctx, actor, chat.CreateDraftsParams{Drafts: []chat.DraftParams{p}}); err != nil {
			return fmt.Errorf("seed draft of %s: %w", d.User, err)
		}
	}
	for _, m := range s.ScheduledMessages {
		if err := s.schedule(ctx, svc, ids, m, channelID); err != nil {
			return err
		}
	}
	return nil
}

// schedule creates one scheduled message of the seed.
func (s *Seed) schedule(ctx context.Context, svc *chat.Service, ids accountIDs, m ScheduledMessage,
	channelID func(chat.Actor, string) (int64, error)) error {
	actor, err := ids.actor("seed scheduled message", m.Sender, 0)
	if err != nil {
		return err
	}
	p := chat.CreateScheduledMessageParams{Type: "direct", Content: m.Content,
		ScheduledDeliveryTimestamp: svc.Now().AddDate(0, 0, m.InDays).Unix()}
	if m.Channel != "" {
		id, err := channelID(actor, m.Channel)
		if err != nil {
			return fmt.Errorf("seed scheduled message of %s in %s: %w", m.Sender, m.Channel, err)
		}
		cid := channels.ID(id)
		p.Type, p.To.ChannelID, p.Topic = "stream", &cid, ptr(m.Topic)
	} else if p.To.UserIDs, err = ids.lookup("seed scheduled message of "+m.Sender, m.To); err != nil {
		return err
	}
	if _, err := svc.CreateScheduledMessage(ctx, actor, p); err != nil {
		return fmt.Errorf("seed scheduled message of %s: %w", m.Sender, err)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
