package slackimport

import (
	"context"
	"fmt"
	"net/mail"
	"slices"
	"strings"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// readUsers reads users.json and adds the users the export names without describing: the
// members of conversations and the senders of messages who are not in users.json become
// inactive mirror users (Zulip fetches them from Slack's API; an export alone does not have
// them), and each integration bot that posted becomes a bot user.
func (c *conversion) readUsers(ctx context.Context) error {
	if err := c.arch.readJSON("users.json", &c.users); err != nil {
		return err
	}
	c.userByID = map[string]*slackUser{}
	for _, u := range c.users {
		if u == nil || u.ID == "" {
			return fmt.Errorf("%w: users.json has a user without id", ErrInvalidExport)
		}
		c.userByID[u.ID] = u
	}
	mention := func(id string) {
		if id != "" && c.userByID[id] == nil {
			u := &slackUser{ID: id, Name: id, mirrorDummy: true}
			c.users = append(c.users, u)
			c.userByID[id] = u
		}
	}
	for _, ch := range slices.Concat(c.channels, c.mpims) {
		for _, m := range ch.Members {
			mention(m)
		}
	}
	for _, dm := range c.dms {
		for _, m := range dm.Members {
			mention(m)
		}
	}
	return c.eachDay(ctx, func(msgs []*slackMessage) error {
		for _, m := range msgs {
			if m.isIntegrationBot() {
				if c.userByID[m.BotID] == nil {
					c.addBot(m)
				}
				continue
			}
			mention(m.sender())
		}
		return nil
	})
}

// addBot makes the user of an integration bot from one of its messages, as Zulip does from
// Slack's bots.info (or its placeholder for a deleted bot).
func (c *conversion) addBot(m *slackMessage) {
	name := m.Username
	if name == "" {
		name = "Deleted Slack Bot " + m.BotID
	}
	falseV := false
	u := &slackUser{
		ID: m.BotID, Name: name, RealName: name, Deleted: &falseV, integrationBot: true,
		Profile: slackProfile{BotID: m.BotID, FirstName: &name},
	}
	c.users = append(c.users, u)
	c.userByID[u.ID] = u
}

// fullName is the name Zulip shows for a Slack user (get_user_full_name).
func fullName(u *slackUser) string {
	switch {
	case u.Deleted != nil && !*u.Deleted:
		if u.RealName != "" {
			return u.RealName
		}
		return u.Name
	case u.mirrorDummy && u.Profile.RealName != nil && *u.Profile.RealName != "":
		return *u.Profile.RealName
	default:
		return u.Name
	}
}

func isSlackbot(u *slackUser) bool { return strings.EqualFold(fullName(u), "slackbot") }

// email is the user's address: the profile's, a made-up one for bots (name-bot@domain,
// numbered when taken) and Slackbot, and for users whose address the export hides.
func (c *conversion) email(u *slackUser) string {
	switch {
	case u.Profile.Email != "":
		return u.Profile.Email
	case u.Profile.BotID != "":
		name := ""
		if u.Profile.RealNameNormalized != nil {
			name = *u.Profile.RealNameNormalized
		} else if u.Profile.FirstName != nil {
			name = *u.Profile.FirstName
		} else {
			name = u.Name
		}
		local := strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(name, "Bot", ""), " ", "")) + "-bot"
		if _, err := mail.ParseAddress(local + "@" + c.opts.Domain); err != nil || local == "-bot" {
			local = strings.ToLower(u.Profile.BotID) + "-bot"
		}
		email := local + "@" + c.opts.Domain
		c.botEmails[email]++
		if n := c.botEmails[email]; n > 1 {
			email = fmt.Sprintf("%s-%d@%s", local, n, c.opts.Domain)
		}
		return email
	case isSlackbot(u):
		return "imported-slackbot-bot@" + c.opts.Domain
	case u.mirrorDummy:
		return strings.ToLower(u.ID) + "@slack-users." + c.opts.Domain
	default:
		c.log.Warn("slackimport: user without an email address", "slack_id", u.ID, "name", u.Name)
		return strings.ToLower(u.ID) + "@" + c.opts.Domain
	}
}

func role(u *slackUser) int {
	r := zulipdir.RoleMember
	if u.IsOwner || u.IsPrimaryOwner {
		r = zulipdir.RoleOwner
	} else if u.IsAdmin {
		r = zulipdir.RoleAdmin
	}
	if u.IsRestricted || u.IsUltraRestricted {
		r = zulipdir.RoleGuest
	}
	return r
}

func timezone(u *slackUser) string {
	if u.TZ == nil || !strings.Contains(*u.TZ, "/") {
		return "America/New_York"
	}
	return *u.TZ
}

// convertUsers builds zerver_userprofile: the primary owner gets the first id; users with the
// same address (case aside) merge into one.
func (c *conversion) convertUsers() {
	c.zulipID = map[string]int64{}
	c.emailOf = map[int64]string{}
	c.botEmails = map[string]int{}
	next := int64(2)
	byEmail := map[string]int64{}
	now := unixSeconds(c.now)
	profiles := newProfileFields(c.realm)
	for _, u := range c.users {
		id := next
		if u.IsPrimaryOwner {
			id = 1
		}
		email := c.email(u)
		if prev, ok := byEmail[strings.ToLower(email)]; ok {
			c.zulipID[u.ID] = prev
			continue
		}
		byEmail[strings.ToLower(email)] = id
		isBot := u.IsBot || u.integrationBot || isSlackbot(u)
		var botType *int
		if isBot {
			t := zulipdir.BotTypeDefault
			botType = &t
		}
		avatar := zulipdir.AvatarGravatar
		if c.opts.Fetch != nil && avatarURL(u) != "" {
			avatar = zulipdir.AvatarUploaded
		}
		deleted := u.Deleted != nil && *u.Deleted
		c.realm.UserProfile = append(c.realm.UserProfile, zulipdir.UserProfile{
			ID: id, Realm: realmID, Email: email, DeliveryEmail: email, FullName: zulipdir.FullName(fullName(u), u.ID),
			ShortName: u.Name, IsActive: !deleted && !u.mirrorDummy, IsBot: isBot, BotType: botType,
			Role: role(u), IsMirrorDummy: u.mirrorDummy, AvatarSource: avatar, AvatarVersion: 1,
			DateJoined: now, LastLogin: now, Timezone: timezone(u),
		})
		profiles.add(u, id)
		c.zulipID[u.ID] = id
		c.emailOf[id] = email
		if !u.IsPrimaryOwner {
			next++
		}
	}
	profiles.finish()
	users := map[string]mentionTarget{}
	for _, u := range c.users {
		users[u.ID] = mentionTarget{fullName: zulipdir.FullName(fullName(u), u.ID), slackName: u.Name, zulipID: c.zulipID[u.ID]}
	}
	c.text.users = users
}

// avatarURL is where Slack keeps the user's avatar, or "".
func avatarURL(u *slackUser) string {
	switch {
	case u.Profile.AvatarHash != "" && u.TeamID != "":
		return fmt.Sprintf("https://ca.slack-edge.com/%s-%s-%s-512", u.TeamID, u.ID, u.Profile.AvatarHash)
	case u.integrationBot && u.Profile.Image72 != "":
		return u.Profile.Image72
	}
	return ""
}

// profileFields turns Slack's phone, skype and custom profile fields into custom profile
// fields of the organization (short text, long text past 50 characters).
type profileFields struct {
	realm   *zulipdir.Realm
	byName  map[string]int64
	fieldSq zulipdir.Seq
	valueSq zulipdir.Seq
}

func newProfileFields(r *zulipdir.Realm) *profileFields {
	return &profileFields{realm: r, byName: map[string]int64{}}
}

func (p *profileFields) add(u *slackUser, userID int64) {
	values := map[string]string{}
	for k, v := range u.Profile.Fields {
		values[k] = v.Value
	}
	if u.Profile.Phone != nil {
		values["phone"] = *u.Profile.Phone
	}
	if u.Profile.Skype != nil {
		values["skype"] = *u.Profile.Skype
	}
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		id, ok := p.byName[k]
		if !ok {
			id = p.fieldSq.Next()
			name := k
			if k != "phone" && k != "skype" {
				name = fmt.Sprintf("Slack custom field %d", id)
			}
			p.byName[k] = id
			p.realm.CustomProfileField = append(p.realm.CustomProfileField, zulipdir.CustomProfileField{
				ID: id, Realm: realmID, Name: name, FieldType: 1, Order: int(id), EditableByUser: true, // the model's default
			})
		}
		if values[k] == "" {
			continue
		}
		p.realm.CustomProfileFieldValue = append(p.realm.CustomProfileFieldValue, zulipdir.CustomProfileValue{
			ID: p.valueSq.Next(), UserProfile: userID, Field: id, Value: zulipdir.Truncate(values[k], 1000, ""),
		})
	}
}

// finish makes long text the fields that have a value past 50 characters.
func (p *profileFields) finish() {
	for i, f := range p.realm.CustomProfileField {
		for _, v := range p.realm.CustomProfileFieldValue {
			if v.Field == f.ID && len([]rune(v.Value)) > 50 {
				p.realm.CustomProfileField[i].FieldType = 2
				break
			}
		}
	}
}
