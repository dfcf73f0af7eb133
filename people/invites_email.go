package people

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Mailer delivers the server's emails. The mail package has an SMTP implementation and a log
// for development.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// MaxInviteesPerRequest bounds the addresses of one POST /invites.
const MaxInviteesPerRequest = 100

// CodeInvitationFailed is Zulip's INVITATION_FAILED.
const CodeInvitationFailed engine.Code = "INVITATION_FAILED"

// SendInvitesParams are the parameters of POST /invites.
type SendInvitesParams struct {
	// InviteeEmails holds the addresses, separated by commas or newlines.
	InviteeEmails string
	// InviteExpiresInMinutes: nil takes Options.InvitationLinkValidity; NeverExpires makes
	// invitations that never expire (JSON null).
	InviteExpiresInMinutes *int64
	NeverExpires           bool
	InviteAs               *users.Role // nil means member
	StreamIDs              []channels.ID
	GroupIDs               []users.GroupID
	// IncludeRealmDefaultSubscriptions also subscribes the new users to the default channels.
	IncludeRealmDefaultSubscriptions bool
	// NotifyReferrerOnJoin (default true) has the notification bot tell the inviter when the
	// account is created.
	NotifyReferrerOnJoin *bool
	// WelcomeMessageCustomText is honoured for administrators only.
	WelcomeMessageCustomText *string
}

// inviteeEmails splits the addresses of invitee_emails (commas or newlines), trimmed, without
// empty ones or repeats.
func inviteeEmails(raw string) []string {
	var out []string
	for _, e := range strings.FieldsFunc(raw, func(r rune) bool { return r == ',' || r == '\n' }) {
		e = strings.TrimSpace(e)
		if e != "" && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, e) }) {
			out = append(out, e)
		}
	}
	return out
}

// InvitationError is Zulip's InvitationError: the addresses that were refused, each with the
// reason and whether its account is deactivated, and whether the others were invited.
func invitationError(msg string, refused [][3]any, sent bool) *engine.Error {
	list := make([][]any, len(refused))
	for i, r := range refused {
		list[i] = []any{r[0], r[1], r[2]}
	}
	return engine.Errorf(CodeInvitationFailed, "%s", msg).With("errors", list).With("sent_invitations", sent).
		With("license_limit_reached", false).With("daily_limit_reached", false)
}

// mail is one email to send once the transaction that decided it has committed.
type mail struct{ to, subject, body string }

// SendInvitesResult is SendInvites's answer: nothing beyond success.
type SendInvitesResult struct{}

// SendInvites invites people by email (POST /invites): each address gets an invitation whose
// link ({realm_url}/join/{key}/) creates their account, delivered through Options.Mailer. The
// requester must be a member or above in the organization's can_invite_users_group; the
// role, channel and group rules are those of reusable links. Addresses that are not valid
// refuse the whole request; addresses that already have an account are skipped (Zulip's
// INVITATION_FAILED error lists them, with sent_invitations true when others were invited).
// Administrators and the requester receive invites_changed.
func (s *Service) SendInvites(ctx context.Context, actor engine.Actor, p SendInvitesParams) (SendInvitesResult, error) {
	base, validity, err := s.inviteBase(CreateInviteLinkParams{InviteExpiresInMinutes: p.InviteExpiresInMinutes, NeverExpires: p.NeverExpires,
		InviteAs: p.InviteAs, StreamIDs: p.StreamIDs, GroupIDs: p.GroupIDs, IncludeRealmDefaultSubscriptions: p.IncludeRealmDefaultSubscriptions,
		WelcomeMessageCustomText: p.WelcomeMessageCustomText})
	if err != nil {
		return SendInvitesResult{}, err
	}
	emails := inviteeEmails(p.InviteeEmails)
	if len(emails) > MaxInviteesPerRequest {
		return SendInvitesResult{}, engine.BadRequest("invitee_emails is too long (limit: %d addresses)", MaxInviteesPerRequest)
	}
	keys := make([]string, len(emails))
	for i := range keys {
		if keys[i], err = newInviteKey(); err != nil {
			return SendInvitesResult{}, engine.InternalError(err)
		}
	}
	base.NotifyReferrerOnJoin = p.NotifyReferrerOnJoin == nil || *p.NotifyReferrerOnJoin
	var outbox []mail
	var skipped [][3]any
	err = s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		outbox, skipped = nil, nil
		tx, ev, me, now := o.Tx, o.Ev, o.Me, o.Now
		w := o.World()
		if !w.Membership().Allows(w.Org().CanInviteUsersGroup, me.ID) {
			return engine.BadRequest(engine.MsgInsufficientPerm)
		}
		inv, err := s.checkInvite(tx, w, me, base, p.StreamIDs, p.GroupIDs)
		if err != nil {
			return err
		}
		if len(emails) == 0 {
			return engine.BadRequest("You must specify at least one email address.")
		}
		var invalid [][3]any
		var good []string
		for _, e := range emails {
			if users.CheckEmail(e) != nil {
				invalid = append(invalid, [3]any{e, "Invalid address.", false})
				continue
			}
			u, err := tx.Users().GetByEmail(e)
			switch {
			case errors.Is(err, storage.ErrNotFound):
				good = append(good, e)
			case err != nil:
				return err
			case u.IsActive:
				skipped = append(skipped, [3]any{e, "Already has an account.", false})
			default:
				skipped = append(skipped, [3]any{e, "Account has been deactivated.", true})
			}
		}
		if len(invalid) > 0 {
			return invitationError("Some emails did not validate, so we didn't send any invitations.", append(invalid, skipped...), false)
		}
		if len(good) == 0 {
			return invitationError("We weren't able to invite anyone.", skipped, false)
		}
		for i, e := range good {
			inv := inv.Clone()
			inv.Key, inv.Email, inv.Created = keys[i], e, now.Unix()
			if !p.NeverExpires {
				inv.ExpiresAt = now.Add(validity).Unix()
			}
			if _, err := tx.Invites().Create(inv); err != nil {
				return err
			}
			outbox = append(outbox, invitationMail(w.Org(), me, inv))
		}
		return notifyInvitesChanged(tx, ev, me.ID)
	})
	if err != nil {
		return SendInvitesResult{}, err
	}
	s.sendMails(ctx, outbox)
	if len(skipped) > 0 {
		return SendInvitesResult{}, invitationError("Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!", skipped, true)
	}
	return SendInvitesResult{}, nil
}

// invitationMail is the email of an invitation.
func invitationMail(realm realms.Realm, inviter users.User, inv users.Invite) mail {
	expiry := "The link never expires."
	if inv.ExpiresAt != 0 {
		expiry = "The link expires on " + time.Unix(inv.ExpiresAt, 0).UTC().Format("January 2, 2006 at 15:04 UTC") + "."
	}
	body := fmt.Sprintf("Hi,\n\n%s (%s) wants you to join them on %s, %s.\n\n"+
		"To create your account, visit the link below:\n\n    %s\n\n%s\n",
		inviter.FullName, inviter.Email, realm.Name, realm.URL, inviteLink(realm, inv.Key), expiry)
	return mail{to: inv.Email, subject: fmt.Sprintf("%s invited you to join %s", inviter.FullName, realm.Name), body: body}
}

// sendMails sends the mails through Options.Mailer, outside any transaction and lock; a failure
// is logged (the invitation exists and can be resent).
func (s *Service) sendMails(ctx context.Context, outbox []mail) {
	for _, m := range outbox {
		if s.cfg.Mailer == nil {
			s.log.Warn("no mailer configured; email not sent", "to", m.to, "subject", m.subject)
			continue
		}
		if err := s.cfg.Mailer.Send(context.WithoutCancel(ctx), m.to, m.subject, m.body); err != nil {
			s.log.Error("sending email failed", "to", m.to, "err", err)
		}
	}
}

// emailInvite loads an email invitation me may manage (Zulip's access_invite_by_id and
// check_if_user_can_manage_invitation): unknown ids, reusable links and used or revoked
// invitations are "No such invitation"; others' invitations need an administrator.
func emailInvite(tx storage.Tx, me users.User, id users.InviteID) (users.Invite, error) {
	inv, err := tx.Invites().Get(id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && (inv.IsMultiuse() || inv.Revoked || inv.Used) {
		return inv, engine.BadRequest("No such invitation")
	}
	if err != nil {
		return inv, err
	}
	if inv.InvitedBy != me.ID && !me.Role.IsAdmin() {
		return inv, engine.ErrMustBeAdmin()
	}
	return inv, nil
}

// EmailInviteParams name an email invitation (DELETE /invites/{invite_id}, POST
// /invites/{invite_id}/resend).
type EmailInviteParams struct {
	InviteID users.InviteID
}

// RevokeEmailInviteResult is RevokeEmailInvite's answer: nothing beyond success.
type RevokeEmailInviteResult struct{}

// RevokeEmailInvite revokes an email invitation: its link stops working. Administrators may
// revoke any, others their own; administrators and the inviter get invites_changed.
func (s *Service) RevokeEmailInvite(ctx context.Context, actor engine.Actor, p EmailInviteParams) (RevokeEmailInviteResult, error) {
	return RevokeEmailInviteResult{}, s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		inv, err := emailInvite(tx, o.Me, p.InviteID)
		if err != nil {
			return err
		}
		if err := tx.Invites().Revoke(inv.ID); err != nil {
			return err
		}
		return notifyInvitesChanged(tx, ev, inv.InvitedBy)
	})
}

// ResendEmailInviteResult is ResendEmailInvite's answer: nothing beyond success.
type ResendEmailInviteResult struct{}

// ResendEmailInvite sends an email invitation again with a new link (the old one stops
// working), valid as long after now as the invitation originally was.
func (s *Service) ResendEmailInvite(ctx context.Context, actor engine.Actor, p EmailInviteParams) (ResendEmailInviteResult, error) {
	key, err := newInviteKey()
	if err != nil {
		return ResendEmailInviteResult{}, engine.InternalError(err)
	}
	var outbox []mail
	err = s.eng.Mutate(ctx, actor, engine.Members, func(o *engine.WriteOp) error {
		outbox = nil
		tx, ev, now := o.Tx, o.Ev, o.Now.Unix()
		inv, err := emailInvite(tx, o.Me, p.InviteID)
		if err != nil {
			return err
		}
		if inv.ExpiresAt != 0 {
			inv.ExpiresAt = now + inv.ExpiresAt - inv.Created
		}
		inv.Key, inv.Created = key, now
		if err := tx.Invites().Update(inv); err != nil {
			return err
		}
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		inviter, err := tx.Users().Get(inv.InvitedBy)
		if err != nil {
			return err
		}
		outbox = append(outbox, invitationMail(realm, inviter, inv))
		return notifyInvitesChanged(tx, ev, inv.InvitedBy)
	})
	if err != nil {
		return ResendEmailInviteResult{}, err
	}
	s.sendMails(ctx, outbox)
	return ResendEmailInviteResult{}, nil
}

// emailInviteAccepted marks an email invitation used once its account exists, tells the
// administrators and the inviter (invites_changed) and, when the inviter asked, has the
// notification bot tell them.
func (s *Service) emailInviteAccepted(o *engine.WriteOp, inv users.Invite, u users.User) error {
	tx, ev := o.Tx, o.Ev
	inv.Used = true
	if err := tx.Invites().Update(inv); err != nil {
		return err
	}
	if err := notifyInvitesChanged(tx, ev, inv.InvitedBy); err != nil {
		return err
	}
	if !inv.NotifyReferrerOnJoin {
		return nil
	}
	referrer, err := tx.Users().Get(inv.InvitedBy)
	if errors.Is(err, storage.ErrNotFound) || err == nil && !referrer.IsActive {
		return nil
	} else if err != nil {
		return err
	}
	return s.hooks.NotifyUser(tx, ev, o.World(), referrer.ID, fmt.Sprintf("%s accepted your invitation to join Zulip!", SilentMention(u)))
}

// SilentMention is the Markdown of a mention of u that notifies nobody.
func SilentMention(u users.User) string { return fmt.Sprintf("@_**%s|%d**", u.FullName, u.ID) }
