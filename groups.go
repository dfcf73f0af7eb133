package chat

import (
	"context"
	"errors"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

func errInvalidGroup() *Error { return badRequest("Invalid user group") }

// loadGroup reads a group named by an operation ("Invalid user group" when unknown).
func loadGroup(r storage.GroupReader, id users.GroupID) (users.Group, error) {
	g, err := r.Get(id)
	if errors.Is(err, storage.ErrNotFound) {
		return users.Group{}, errInvalidGroup()
	}
	return g, err
}

// membership indexes every group and the active state of every user.
func membership(tx storage.ReadTx) (*users.Membership, error) {
	return membershipOf(tx.Users(), tx.Groups())
}

func membershipOf(ur storage.UserReader, gr storage.GroupReader) (*users.Membership, error) {
	all, err := ur.List()
	if err != nil {
		return nil, err
	}
	groups, err := gr.List()
	if err != nil {
		return nil, err
	}
	active := make(map[users.ID]bool, len(all))
	for _, u := range all {
		active[u.ID] = u.IsActive
	}
	return users.NewMembership(groups, active), nil
}

// GetIsUserGroupMemberParams are the parameters of GET /user_groups/{id}/members/{user_id}.
type GetIsUserGroupMemberParams struct {
	GroupID users.GroupID
	UserID  users.ID
	// DirectMemberOnly ignores membership through subgroups.
	DirectMemberOnly bool
}

// GetIsUserGroupMemberResult answers the membership test.
type GetIsUserGroupMemberResult struct {
	IsUserGroupMember bool `json:"is_user_group_member"`
}

// GetIsUserGroupMember tests whether a user is in a group, directly or through subgroups.
// Deactivated users are never members. Guests and bots may not ask.
func (s *Service) GetIsUserGroupMember(ctx context.Context, actor Actor, p GetIsUserGroupMemberParams) (GetIsUserGroupMemberResult, error) {
	var res GetIsUserGroupMemberResult
	err := s.view(ctx, func(tx storage.ReadTx) error {
		if _, err := memberActor(tx.Users(), actor); err != nil {
			return err
		}
		if _, err := loadGroup(tx.Groups(), p.GroupID); err != nil {
			return err
		}
		if _, err := targetUser(tx.Users(), p.UserID); err != nil {
			return err
		}
		m, err := membership(tx)
		if err != nil {
			return err
		}
		res.IsUserGroupMember = m.IsMember(p.GroupID, p.UserID, p.DirectMemberOnly)
		return nil
	})
	return res, err
}
