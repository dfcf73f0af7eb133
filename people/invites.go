package people

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// InvitesChangedEvent tells administrators (and the inviter) that the list of invitations
// changed; clients fetch GET /invites again.
type InvitesChangedEvent struct {
	Type string `json:"type"`
}

// InviteRecord is an invitation as GET /invites returns it.
type InviteRecord struct {
	ID                   users.InviteID `json:"id"`
	InvitedByUserID      users.ID       `json:"invited_by_user_id"`
	Invited              int64          `json:"invited"`
	ExpiryDate           *int64         `json:"expiry_date"`
	InvitedAs            users.Role     `json:"invited_as"`
	IsMultiuse           bool           `json:"is_multiuse"`
	LinkURL              string         `json:"link_url,omitempty"`
	Email                string         `json:"email,omitempty"`
	NotifyReferrerOnJoin bool           `json:"notify_referrer_on_join"`
}

// CreateInviteLinkParams are the parameters of POST /invites/multiuse.
type CreateInviteLinkParams struct {
	// InviteExpiresInMinutes: nil takes Options.InvitationLinkValidity; NeverExpires makes a
	// link that never expires (JSON null).
	InviteExpiresInMinutes *int64
	NeverExpires           bool
	// InviteAs is the new users' role; nil means member.
	InviteAs                         *users.Role
	StreamIDs                        []channels.ID
	GroupIDs                         []users.GroupID
	IncludeRealmDefaultSubscriptions bool
	// WelcomeMessageCustomText is honoured for administrators only: nil uses the
	// organization's default, "" sends no custom message.
	WelcomeMessageCustomText *string
}

// CreateInviteLinkResult holds the link.
type CreateInviteLinkResult struct {
	InviteLink string `json:"invite_link"`
}

// errInvalidChannelForInvite is the refusal of an unknown or inaccessible channel.
func errInvalidChannelForInvite(id channels.ID) *engine.Error {
	return engine.BadRequest("Invalid channel ID %d. No invites were sent.", id)
}

// CreateInviteLink creates a reusable invitation link. The requester must be a member or
// above in the create_multiuse_invite_group (Options.CreateMultiuseInviteGroup); invite_as is
// no more privileged than the requester; the requester must have content access to each
// channel (a private channel needs a subscription, even for an administrator), and each is
// either a default channel or one the requester may add subscribers to; none may be given
// by a requester who may not subscribe others; each group needs the right to add members.
// Administrators and the requester receive invites_changed.
func (s *Service) CreateInviteLink(ctx context.Context, actor engine.Actor, p CreateInviteLinkParams) (CreateInviteLinkResult, error) {
	base, validity, err := s.inviteBase(p)
	if err != nil {
		return CreateInviteLinkResult{}, err
	}
	key, err := newInviteKey()
	if err != nil {
		return CreateInviteLinkResult{}, engine.InternalError(err)
	}
	var res CreateInviteLinkResult
	err = s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		now := o.Now
		tx, ev, me := o.Tx, o.Ev, o.Me
		w := o.World()
		if !w.Membership().Allows(users.Named(w.GroupID(s.inviteGroupName())), me.ID) {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		inv, err := s.checkInvite(tx, w, me, base, p.StreamIDs, p.GroupIDs)
		if err != nil {
			return err
		}
		inv.Key, inv.Created = key, now.Unix()
		if !p.NeverExpires {
			inv.ExpiresAt = now.Add(validity).Unix()
		}
		if _, err := tx.Invites().Create(inv); err != nil {
			return err
		}
		res.InviteLink = inviteLink(w.Org(), key)
		return notifyInvitesChanged(tx, ev, me.ID)
	})
	if err != nil {
		return CreateInviteLinkResult{}, err
	}
	return res, nil
}

// inviteBase checks what an invitation's parameters need no store for and returns the
// invitation they describe (without key, inviter or times) and its validity.
func (s *Service) inviteBase(p CreateInviteLinkParams) (users.Invite, time.Duration, error) {
	if len(p.StreamIDs) > users.MaxInviteChannels || len(p.GroupIDs) > users.MaxInviteGroups {
		return users.Invite{}, 0, engine.BadRequest("Too many channels or groups (limit: %d)", users.MaxInviteChannels)
	}
	as := users.RoleMember
	if p.InviteAs != nil {
		as = *p.InviteAs
	}
	if !as.Valid() {
		return users.Invite{}, 0, engine.InvalidArgument("invite_as", "")
	}
	validity := s.cfg.InvitationLinkValidity
	if validity <= 0 {
		validity = users.DefaultInviteValidityMinutes * time.Minute
	}
	if p.InviteExpiresInMinutes != nil && !p.NeverExpires {
		switch m := *p.InviteExpiresInMinutes; {
		case m <= 0:
			return users.Invite{}, 0, engine.InvalidArgument("invite_expires_in_minutes", "")
		case m > users.MaxInviteValidityMinutes:
			return users.Invite{}, 0, engine.BadRequest("invite_expires_in_minutes is too large")
		default:
			validity = time.Duration(m) * time.Minute
		}
	}
	inv := users.Invite{InvitedAs: as, ChannelIDs: make([]int64, 0, len(p.StreamIDs)),
		IncludeRealmDefaultSubscriptions: p.IncludeRealmDefaultSubscriptions, WelcomeMessageCustomText: p.WelcomeMessageCustomText}
	for _, id := range sortedIDs(slices.Clone(p.StreamIDs)) {
		if !slices.Contains(inv.ChannelIDs, int64(id)) {
			inv.ChannelIDs = append(inv.ChannelIDs, int64(id))
		}
	}
	inv.GroupIDs = slices.Compact(sortedIDs(slices.Clone(p.GroupIDs)))
	if inv.GroupIDs == nil {
		inv.GroupIDs = []users.GroupID{}
	}
	return inv, validity, nil
}

// checkInvite applies the rules of an invitation's role, channels, groups and welcome message
// for me, and returns it with me as the inviter.
func (s *Service) checkInvite(tx storage.Tx, w *world.World, me users.User, base users.Invite, streams []channels.ID, groups []users.GroupID) (users.Invite, error) {
	if err := users.CheckInviteAs(me.Role, base.InvitedAs); err != nil {
		switch {
		case errors.Is(err, users.ErrInviteOwner):
			return base, engine.ErrMustBeOwner()
		case errors.Is(err, users.ErrInviteAdmin):
			return base, engine.ErrMustBeAdmin()
		}
		return base, engine.RuleError(err)
	}
	if err := checkInviteChannels(w, me, streams); err != nil {
		return base, err
	}
	if err := checkInviteGroups(tx, w, me, groups); err != nil {
		return base, err
	}
	inv := base.Clone()
	inv.InvitedBy = me.ID
	inv.WelcomeMessageCustomText = nil
	if me.Role.IsAdmin() && base.WelcomeMessageCustomText != nil {
		if err := users.CheckWelcomeMessage(*base.WelcomeMessageCustomText); err != nil {
			return base, engine.RuleError(err)
		}
		text := *base.WelcomeMessageCustomText
		inv.WelcomeMessageCustomText = &text
	}
	return inv, nil
}

// inviteGroupName is the system group allowed to create reusable links.
func (s *Service) inviteGroupName() string {
	if s.cfg.CreateMultiuseInviteGroup != "" {
		return s.cfg.CreateMultiuseInviteGroup
	}
	return users.GroupAdministrators
}

// checkInviteChannels applies the channel rules of an invitation.
func checkInviteChannels(w *world.World, me users.User, ids []channels.ID) error {
	if len(ids) == 0 {
		return nil
	}
	noPermission := engine.BadRequest("You do not have permission to subscribe other users to channels.")
	if me.Role == users.RoleGuest || !w.Membership().Allows(w.Org().CanAddSubscribersGroup, me.ID) {
		return noPermission
	}
	for _, id := range ids {
		c, ok := w.Channel(id)
		// Zulip's access_stream_by_id: content access, which an administrator has not for
		// a private channel without a subscription.
		if !ok || c.IsArchived || !w.Content(c, me) {
			return errInvalidChannelForInvite(id)
		}
		if !c.IsDefault && !channels.CanAddSubscribers(w.Membership(), c, w.Viewer(c.ID, me), w.Org().CanAddSubscribersGroup) {
			return noPermission
		}
	}
	return nil
}

// checkInviteGroups refuses unknown, system and deactivated groups and groups the requester
// may not add members to.
func checkInviteGroups(tx storage.Tx, w *world.World, me users.User, ids []users.GroupID) error {
	for _, id := range ids {
		g, err := groupForUpdate(tx.Groups(), id)
		if err != nil {
			return err
		}
		if g.Deactivated {
			return errInvalidGroup()
		}
		manage := w.Membership().Allows(w.Org().CanManageAllGroups, me.ID) || w.Membership().Allows(g.CanManageGroup, me.ID)
		if !manage && !w.Membership().Allows(g.CanAddMembersGroup, me.ID) {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
	}
	return nil
}

// newInviteKey returns InviteKeyLength characters of [a-z2-7] from 15 random bytes.
func newInviteKey() (string, error) {
	var b [15]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])), nil
}

// inviteLink is Zulip's link form: {realm_url}/join/{key}/.
func inviteLink(realm realms.Realm, key string) string {
	return strings.TrimRight(realm.URL, "/") + "/join/" + key + "/"
}

// notifyInvitesChanged sends invites_changed to the active administrators and to also.
func notifyInvitesChanged(tx storage.Tx, ev *engine.Events, also users.ID) error {
	all, err := tx.Users().List()
	if err != nil {
		return err
	}
	var to []int64
	for _, u := range all {
		if u.IsActive && (u.Role.IsAdmin() || u.ID == also) {
			to = append(to, int64(u.ID))
		}
	}
	ev.Emit(InvitesChangedEvent{Type: "invites_changed"}, to)
	return nil
}

// GetInvitesParams are the parameters of GET /invites (none).
type GetInvitesParams struct{}

// GetInvitesResult lists the usable invitations: all of them for administrators, the
// requester's own for others.
type GetInvitesResult struct {
	Invites []InviteRecord `json:"invites"`
}

// GetInvites lists the invitations that are neither revoked nor expired.
func (s *Service) GetInvites(ctx context.Context, actor engine.Actor, _ GetInvitesParams) (GetInvitesResult, error) {
	res := GetInvitesResult{Invites: []InviteRecord{}}
	err := s.eng.Read(ctx, actor, engine.Members, func(o *engine.ReadOp) error {
		now := o.Now.Unix()
		tx, me := o.Tx, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		all, err := tx.Invites().List()
		if err != nil {
			return err
		}
		for _, inv := range all {
			if !inv.Usable(now) || !me.Role.IsAdmin() && inv.InvitedBy != me.ID {
				continue
			}
			rec := InviteRecord{
				ID: inv.ID, InvitedByUserID: inv.InvitedBy, Invited: inv.Created, InvitedAs: inv.InvitedAs,
				IsMultiuse: inv.IsMultiuse(), Email: inv.Email, NotifyReferrerOnJoin: inv.NotifyReferrerOnJoin,
			}
			if rec.IsMultiuse {
				rec.LinkURL = inviteLink(realm, inv.Key)
			}
			if inv.ExpiresAt != 0 {
				exp := inv.ExpiresAt
				rec.ExpiryDate = &exp
			}
			res.Invites = append(res.Invites, rec)
		}
		return nil
	})
	if err != nil {
		return GetInvitesResult{}, err
	}
	return res, nil
}

// RevokeInviteLinkParams are the parameters of DELETE /invites/multiuse/{invite_id}.
type RevokeInviteLinkParams struct {
	InviteID users.InviteID
}

// RevokeInviteLinkResult is empty.
type RevokeInviteLinkResult struct{}

// RevokeInviteLink revokes a reusable link: administrators any, others their own.
func (s *Service) RevokeInviteLink(ctx context.Context, actor engine.Actor, p RevokeInviteLinkParams) (RevokeInviteLinkResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		inv, err := tx.Invites().Get(p.InviteID)
		if errors.Is(err, storage.ErrNotFound) || err == nil && !inv.IsMultiuse() {
			return engine.BadRequest("No such invitation")
		} else if err != nil {
			return err
		}
		if !me.Role.IsAdmin() && inv.InvitedBy != me.ID {
			return engine.ErrMustBeAdmin()
		}
		if inv.Revoked {
			return engine.BadRequest("Invitation has already been revoked")
		}
		if err := tx.Invites().Revoke(inv.ID); err != nil {
			return err
		}
		return notifyInvitesChanged(tx, ev, inv.InvitedBy)
	})
	return RevokeInviteLinkResult{}, err
}

// RedeemInviteLinkParams describe the account created through an invitation link.
type RedeemInviteLinkParams struct {
	// Key is the link's key, or the whole link ({realm_url}/join/{key}/).
	Key      string
	Email    string
	FullName string
	// Password is hashed with argon2id; empty means no password login.
	Password string
	Timezone string
}

// RedeemInviteLinkResult identifies the new user.
type RedeemInviteLinkResult struct {
	UserID users.ID
	APIKey string
	Email  string
}

// Errors of RedeemInviteLink.
var (
	ErrInviteLinkInvalid = &engine.Error{Code: engine.CodeBadRequest, Msg: "The invitation link is not valid."}
	ErrInviteLinkExpired = &engine.Error{Code: engine.CodeBadRequest, Msg: "The invitation link has expired."}
	ErrInviteLinkRevoked = &engine.Error{Code: engine.CodeBadRequest, Msg: "The invitation link has been revoked."}
	ErrInviteLinkUsed    = &engine.Error{Code: engine.CodeBadRequest, Msg: "The invitation link has already been used."}
)

// RedeemInviteLink creates a user through a reusable invitation link (a trusted, server-side
// step of the sign-up flow): the user gets the invitation's role, joins its channels (and
// the default channels when it says so) and groups, and everyone learns of it through the
// usual events. An unknown, expired or revoked link is refused with ErrInviteLinkInvalid,
// ErrInviteLinkExpired or ErrInviteLinkRevoked. The link stays usable for further users.
func (s *Service) RedeemInviteLink(ctx context.Context, p RedeemInviteLinkParams) (RedeemInviteLinkResult, error) {
	key := p.Key
	if i := strings.Index(key, "/join/"); i >= 0 {
		key = strings.Trim(key[i+len("/join/"):], "/")
	}
	if !users.ValidInviteKey(key) {
		return RedeemInviteLinkResult{}, ErrInviteLinkInvalid
	}
	// An email invitation creates the account of its invitee.
	err := s.eng.Read(ctx, engine.Actor{}, engine.NoActor, func(o *engine.ReadOp) error {
		tx := o.Tx
		inv, err := inviteByKey(tx.Invites(), key)
		if err != nil || inv.IsMultiuse() {
			return err
		}
		if p.Email != "" && users.NormalizeEmail(p.Email) != users.NormalizeEmail(inv.Email) {
			return ErrInviteLinkInvalid
		}
		p.Email = inv.Email
		return nil
	})
	if err != nil {
		return RedeemInviteLinkResult{}, err
	}
	u, err := s.newUser(ProvisionUserParams{Email: p.Email, FullName: p.FullName, Password: p.Password, Timezone: p.Timezone})
	if err != nil {
		return RedeemInviteLinkResult{}, err
	}
	err = s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		now := o.Now.Unix()
		tx, ev := o.Tx, o.Ev
		inv, err := inviteByKey(tx.Invites(), key)
		switch {
		case err != nil:
			return err
		case inv.Revoked:
			return ErrInviteLinkRevoked
		case inv.Used:
			return ErrInviteLinkUsed
		case inv.Expired(now):
			return ErrInviteLinkExpired
		case !inv.IsMultiuse() && users.NormalizeEmail(inv.Email) != users.NormalizeEmail(u.Email):
			return ErrInviteLinkInvalid
		}
		u.Role = inv.InvitedAs
		if u.ID, err = s.insertUser(tx, ev, u, users.BotConfig{}); err != nil {
			return err
		}
		if err := joinInviteGroups(tx, ev, inv, u.ID); err != nil {
			return err
		}
		if err := s.hooks.SubscribeNewUser(o, u.ID, inviteChannels(inv)); err != nil {
			return err
		}
		if err := s.welcomeNewUser(o, u, inv.WelcomeMessageCustomText); err != nil {
			return err
		}
		if inv.IsMultiuse() {
			return nil
		}
		return s.emailInviteAccepted(o, inv, u)
	})
	if err != nil {
		return RedeemInviteLinkResult{}, err
	}
	return RedeemInviteLinkResult{UserID: u.ID, APIKey: u.APIKey, Email: u.Email}, nil
}

// inviteByKey finds the invitation of a link; ErrInviteLinkInvalid when there is none.
func inviteByKey(r storage.InviteReader, key string) (users.Invite, error) {
	inv, err := r.GetByKey(key)
	if errors.Is(err, storage.ErrNotFound) {
		return inv, ErrInviteLinkInvalid
	}
	return inv, err
}

// joinInviteGroups adds the new user to the invitation's groups that still exist and are
// active, with user_group add_members events.
func joinInviteGroups(tx storage.Tx, ev *engine.Events, inv users.Invite, id users.ID) error {
	if len(inv.GroupIDs) == 0 {
		return nil
	}
	recipients, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	for _, gid := range inv.GroupIDs {
		g, err := tx.Groups().Get(gid)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		} else if err != nil {
			return err
		}
		if g.IsSystemGroup || g.Deactivated {
			continue
		}
		if err := tx.Groups().AddMembers(g.ID, []users.ID{id}); err != nil {
			return err
		}
		ev.Emit(UserGroupMembersEvent{Type: "user_group", Op: "add_members", GroupID: g.ID, UserIDs: []users.ID{id}}, recipients)
	}
	return nil
}

// inviteChannels chooses the channels an invitation subscribes its user to: its own, and the
// default channels when it says so.
func inviteChannels(inv users.Invite) func(channels.Channel) bool {
	return func(c channels.Channel) bool {
		return slices.Contains(inv.ChannelIDs, int64(c.ID)) || inv.IncludeRealmDefaultSubscriptions && c.IsDefault
	}
}

// defaultChannel chooses the organization's default channels, which new users join.
func defaultChannel(c channels.Channel) bool { return c.IsDefault }
