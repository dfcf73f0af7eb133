package people

import (
	"context"

	"github.com/teamchat/chat/internal/engine"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// MaxUserIDsPerRequest bounds the user id lists of a request (user_ids, members, ...).
const MaxUserIDsPerRequest = 10000

// The messages of user lookups, as Zulip words them.
const (
	msgUserDeactivated400  = "User is deactivated"
	msgNotForGuests        = engine.MsgNotForGuests
	msgNoBots              = engine.MsgNoBots
	msgMustBeAdmin         = engine.MsgMustBeAdmin
	msgMustBeOwner         = engine.MsgMustBeOwner
	msgCannotCreateUsers   = "User not authorized to create users"
	msgOnlyOwnerDeactivate = "Cannot deactivate the only organization owner"
	msgOnlyOwnerDemote     = "The owner permission cannot be removed from the only organization owner."
	msgGuestAdmin          = "Guests cannot be organization administrators"
)

// UserQueryOptions are the query parameters shared by the get-user endpoints.
type UserQueryOptions struct {
	// ClientGravatar (default true) lets avatar_url be null for Gravatar avatars the client
	// can compute.
	ClientGravatar *bool
	// IncludeCustomProfileFields adds profile_data to human users.
	IncludeCustomProfileFields bool
}

func (o UserQueryOptions) record() recordOptions {
	return recordOptions{clientGravatar: o.ClientGravatar == nil || *o.ClientGravatar}
}

// GetUsersParams are the parameters of GET /users.
type GetUsersParams struct {
	UserQueryOptions
	// UserIDs limits the answer to these users; nil means all.
	UserIDs []users.ID
}

// GetUsersResult lists users (active and deactivated, bots included), ascending by id.
type GetUsersResult struct {
	Members []MemberRecord `json:"members"`
}

// GetUsers lists the users of the organization as the actor may see them.
func (s *Service) GetUsers(ctx context.Context, actor engine.Actor, p GetUsersParams) (GetUsersResult, error) {
	if len(p.UserIDs) > MaxUserIDsPerRequest {
		return GetUsersResult{}, engine.BadRequest("user_ids is too long (limit: %d items)", MaxUserIDsPerRequest)
	}
	res := GetUsersResult{Members: []MemberRecord{}}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, viewer := o.Tx, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		var list []users.User
		if p.UserIDs == nil {
			list, err = tx.Users().List()
		} else {
			list, err = tx.Users().GetMany(p.UserIDs)
			if err == nil {
				if missing := missingUser(p.UserIDs, list); missing != 0 {
					return engine.BadRequest("Invalid user ID: %d", missing)
				}
			}
		}
		if err != nil {
			return err
		}
		pr, err := s.profileRenderer(tx, p.IncludeCustomProfileFields)
		if err != nil {
			return err
		}
		for _, u := range list {
			res.Members = append(res.Members, memberRecord(pr.record(s.EmailDomain(realm), viewer, u, p.UserQueryOptions.record())))
		}
		return nil
	})
	return res, err
}

// missingUser returns an id of ids absent from found (0 when none is missing).
func missingUser(ids []users.ID, found []users.User) users.ID {
	have := make(map[users.ID]bool, len(found))
	for _, u := range found {
		have[u.ID] = true
	}
	for _, id := range ids {
		if !have[id] {
			return id
		}
	}
	return 0
}

// GetUserParams are the parameters of GET /users/{user_id}.
type GetUserParams struct {
	UserID users.ID
	UserQueryOptions
}

// GetUserResult holds one user record.
type GetUserResult struct {
	User MemberRecord `json:"user"`
}

// GetUser returns one user (deactivated users and bots included).
func (s *Service) GetUser(ctx context.Context, actor engine.Actor, p GetUserParams) (GetUserResult, error) {
	return s.getUser(ctx, actor, p.UserQueryOptions, func(tx storage.ReadTx, _ realms.Realm, _ users.User) (users.User, error) {
		return engine.TargetUser(tx.Users(), p.UserID)
	})
}

// GetUserByEmailParams are the parameters of GET /users/{email}.
type GetUserByEmailParams struct {
	Email string
	UserQueryOptions
}

// GetUserByEmail returns the user with an API email (the placeholder user{id}@{host} works
// for every user) or a real email the actor may see. Anything else is "No such user", so that
// hidden addresses cannot be probed.
func (s *Service) GetUserByEmail(ctx context.Context, actor engine.Actor, p GetUserByEmailParams) (GetUserResult, error) {
	return s.getUser(ctx, actor, p.UserQueryOptions, func(tx storage.ReadTx, realm realms.Realm, viewer users.User) (users.User, error) {
		return engine.UserByAPIEmail(tx.Users(), s.EmailDomain(realm), viewer, p.Email)
	})
}

func (s *Service) getUser(ctx context.Context, actor engine.Actor, q UserQueryOptions,
	find func(storage.ReadTx, realms.Realm, users.User) (users.User, error)) (GetUserResult, error) {
	var res GetUserResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, viewer := o.Tx, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		u, err := find(tx, realm, viewer)
		if err != nil {
			return err
		}
		pr, err := s.profileRenderer(tx, q.IncludeCustomProfileFields)
		if err != nil {
			return err
		}
		res.User = memberRecord(pr.record(s.EmailDomain(realm), viewer, u, q.record()))
		return nil
	})
	return res, err
}

// GetOwnUserResult is the actor's own record at the top level, plus max_message_id.
type GetOwnUserResult struct {
	UserRecord
	MaxMessageID int64 `json:"max_message_id"`
}

// GetOwnUser returns the actor's own record.
func (s *Service) GetOwnUser(ctx context.Context, actor engine.Actor, q UserQueryOptions) (GetOwnUserResult, error) {
	var res GetOwnUserResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, viewer := o.Tx, o.Me
		realm, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		pr, err := s.profileRenderer(tx, q.IncludeCustomProfileFields)
		if err != nil {
			return err
		}
		// Zulip always sends the own avatar's URL here, whatever client_gravatar says.
		res.UserRecord = pr.record(s.EmailDomain(realm), viewer, viewer, recordOptions{})
		res.MaxMessageID, err = MaxMessageID(tx.Messages(), viewer.ID)
		return err
	})
	return res, err
}

// MaxMessageID is max_message_id: the highest id among the messages the user received and
// still has (-1 when none). Deleting that message, or moving it where the user loses access,
// lowers it, as in Zulip, which re-reads it after every deletion; clients read the new value
// from GET /users/me. Rows made by flagging a message from a channel's history do not count,
// so that starring an old message does not move it.
func MaxMessageID(r storage.MessageReader, u users.ID) (int64, error) {
	max, err := r.MaxReceivedID(u)
	if err != nil || max == 0 {
		return -1, err
	}
	return int64(max), nil
}
