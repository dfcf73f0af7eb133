package people

import (
	"context"
	"errors"
	"maps"
	"strings"
	"time"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// ProvisionUserParams describe a user or bot created by the server itself (first start, --dev,
// --seed, an embedding program).
type ProvisionUserParams struct {
	Email    string
	FullName string
	Role     users.Role // default member
	// Password is hashed with argon2id; empty means no password login.
	Password string
	// APIKey is the user's key; empty generates one.
	APIKey     string
	BotType    users.BotType // NotBot for a human
	BotOwnerID users.ID
	Timezone   string
	// EmailVisibility overrides the organization's default email_address_visibility.
	EmailVisibility users.EmailVisibility
	// CanCreateUsers and CanChangeUserEmails grant the special permissions of those names.
	CanCreateUsers      bool
	CanChangeUserEmails bool
}

// ProvisionUserResult identifies the new user.
type ProvisionUserResult struct {
	UserID users.ID
	APIKey string
}

// ProvisionUser creates a user or bot without an acting user (a trusted, server-side
// operation). The user joins the system group of its role (a human also the default
// channels), and every active user of the organization receives a realm_user add event.
func (s *Service) ProvisionUser(ctx context.Context, p ProvisionUserParams) (ProvisionUserResult, error) {
	u, err := s.newUser(p)
	if err != nil {
		return ProvisionUserResult{}, err
	}
	err = s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		if u.ID, err = s.insertUser(tx, ev, u, users.BotConfig{}); err != nil {
			return err
		}
		if u.IsBot() {
			return nil
		}
		return s.hooks.SubscribeNewUser(o, u.ID, defaultChannel)
	})
	if err != nil {
		return ProvisionUserResult{}, err
	}
	return ProvisionUserResult{UserID: u.ID, APIKey: u.APIKey}, nil
}

// insertUser stores a new user built by newUser: it takes the organization's default email
// visibility when none was given, checks the bot owner, joins the system groups of its role
// and announces it with realm_user add (and a bot, stored with its configuration cfg, with
// realm_bot add to those who administer it).
func (s *Service) insertUser(tx storage.Tx, ev *engine.Events, u users.User, cfg users.BotConfig) (users.ID, error) {
	realm, err := tx.Realm().Get()
	if err != nil {
		return 0, err
	}
	if u.EmailVisibility == 0 {
		u.EmailVisibility = realm.DefaultEmailVisibility
	}
	if u.IsBot() && u.BotOwnerID != 0 {
		owner, err := tx.Users().Get(u.BotOwnerID)
		if errors.Is(err, storage.ErrNotFound) || err == nil && (!owner.IsActive || owner.IsBot()) {
			return 0, engine.InvalidArgument("bot_owner_id", "no such user")
		} else if err != nil {
			return 0, err
		}
	}
	id, err := tx.Users().Create(u)
	if errors.Is(err, storage.ErrConflict) {
		return 0, engine.BadRequest("Email '%s' already in use", u.Email)
	}
	if err != nil {
		return 0, err
	}
	u.ID = id
	if len(realm.UserSettingsDefaults) > 0 {
		defaults := users.Settings{Values: maps.Clone(realm.UserSettingsDefaults)}
		if err := tx.UserSettings().PutMany(map[users.ID]users.Settings{id: defaults}); err != nil {
			return 0, err
		}
	}
	// A new user counts as recently active (partial_subscribers), as Zulip's are not idle.
	if err := tx.Users().SetLastActive(s.now().Unix(), id); err != nil {
		return 0, err
	}
	if err := joinRoleGroups(tx, realm, u); err != nil {
		return 0, err
	}
	if err := announceNewUser(tx, s.EmailDomain(realm), u, ev); err != nil {
		return 0, err
	}
	// The system groups gain the user.
	recipients, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return 0, err
	}
	for _, name := range roleGroups(realm, u.Role) {
		g, err := tx.Groups().GetByName(name)
		if err != nil {
			return 0, err
		}
		ev.Emit(UserGroupMembersEvent{Type: "user_group", Op: "add_members", GroupID: g.ID, UserIDs: []users.ID{u.ID}}, recipients)
	}
	if u.IsBot() {
		cfg.UserID = id
		if err := tx.BotConfigs().Put(cfg); err != nil {
			return 0, err
		}
		if err := announceBotAdd(tx, ev, u, nil); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// newUser validates provisioning parameters and builds the record (hashing the password
// outside any transaction).
func (s *Service) newUser(p ProvisionUserParams) (users.User, error) {
	email := strings.TrimSpace(p.Email)
	if err := users.CheckEmail(email); err != nil {
		return users.User{}, engine.InvalidArgument("email", err.Error())
	}
	name, err := users.CheckFullName(p.FullName)
	if err != nil {
		return users.User{}, engine.InvalidArgument("full_name", err.Error())
	}
	if p.Role == 0 {
		p.Role = users.RoleMember
	}
	if !p.Role.Valid() {
		return users.User{}, engine.InvalidArgument("role", "")
	}
	if p.BotType != users.NotBot && !p.BotType.Valid() {
		return users.User{}, engine.InvalidArgument("bot_type", "")
	}
	if p.BotType == users.NotBot && p.BotOwnerID != 0 {
		return users.User{}, engine.InvalidArgument("bot_owner_id", "only bots have owners")
	}
	if p.EmailVisibility != 0 && !p.EmailVisibility.Valid() {
		return users.User{}, engine.InvalidArgument("email_address_visibility", "")
	}
	if p.Timezone != "" {
		if _, err := time.LoadLocation(p.Timezone); err != nil || len(p.Timezone) > 40 {
			return users.User{}, engine.InvalidArgument("timezone", "unknown time zone")
		}
	}
	key := p.APIKey
	if key == "" {
		if key, err = newAPIKey(); err != nil {
			return users.User{}, engine.InternalError(err)
		}
	} else if !users.ValidAPIKey(key) {
		return users.User{}, engine.InvalidArgument("api_key", "must be 32 letters and digits")
	}
	var hash string
	if p.Password != "" {
		if p.BotType != users.NotBot {
			return users.User{}, engine.InvalidArgument("password", "bots log in with their API key")
		}
		if hash, err = s.hashing.hashPassword(p.Password); err != nil {
			return users.User{}, engine.InternalError(err)
		}
	}
	return users.User{
		Email:               email,
		FullName:            name,
		Role:                p.Role,
		BotType:             p.BotType,
		BotOwnerID:          p.BotOwnerID,
		IsActive:            true,
		APIKey:              key,
		PasswordHash:        hash,
		Timezone:            p.Timezone,
		DateJoined:          s.now(),
		AvatarSource:        users.AvatarGravatar,
		AvatarVersion:       1,
		EmailVisibility:     p.EmailVisibility,
		CanCreateUsers:      p.CanCreateUsers,
		CanChangeUserEmails: p.CanChangeUserEmails,
	}, nil
}

// joinRoleGroups adds a new user to the system group of its role (and to role:fullmembers for
// members when the organization has no waiting period).
func joinRoleGroups(tx storage.Tx, realm realms.Realm, u users.User) error {
	for _, name := range roleGroups(realm, u.Role) {
		g, err := tx.Groups().GetByName(name)
		if err != nil {
			return err
		}
		if err := tx.Groups().AddMembers(g.ID, []users.ID{u.ID}); err != nil {
			return err
		}
	}
	return nil
}

// announceNewUser sends realm_user add to every active user, in two variants: with the real
// email for those who may see it, without for the rest. Avatar URLs are always present because
// the clients' client_gravatar choice is not known here.
func announceNewUser(tx storage.Tx, domain string, u users.User, ev *engine.Events) error {
	all, err := tx.Users().List()
	if err != nil {
		return err
	}
	var seeing, notSeeing []int64
	var viewerSeeing, viewerNotSeeing users.User
	for _, viewer := range all {
		if !viewer.IsActive {
			continue
		}
		if users.CanSeeEmail(viewer, u) {
			seeing = append(seeing, int64(viewer.ID))
			viewerSeeing = viewer
		} else {
			notSeeing = append(notSeeing, int64(viewer.ID))
			viewerNotSeeing = viewer
		}
	}
	// A new user has no custom profile data yet.
	newcomer := &profileRenderer{include: true}
	ev.Emit(RealmUserEvent{Type: "realm_user", Op: "add", Person: newcomer.record(domain, viewerSeeing, u, recordOptions{}),
		gravatarClient: u.AvatarSource == users.AvatarGravatar}, seeing)
	ev.Emit(RealmUserEvent{Type: "realm_user", Op: "add", Person: newcomer.record(domain, viewerNotSeeing, u, recordOptions{})}, notSeeing)
	return nil
}
