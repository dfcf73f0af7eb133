package people

import (
	"slices"

	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// person is the person object of a realm_user update: user_id plus the changed fields.
type person map[string]any

// announceUserUpdate sends realm_user update with p to every user who can access the user
// (every active user: this server has no guest access restrictions).
func announceUserUpdate(r storage.UserReader, ev *engine.Events, p person) error {
	ids, err := engine.ActiveUserIDs(r)
	if err != nil {
		return err
	}
	ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: p}, ids)
	return nil
}

// roleGroups are the system groups a user of role r belongs to directly.
func roleGroups(realm realms.Realm, r users.Role) []string {
	names := []string{users.SystemGroupForRole(r)}
	if r == users.RoleMember && realm.WaitingPeriodThreshold == 0 {
		names = append(names, users.GroupFullMembers)
	}
	return names
}

// moveRoleGroups moves u's direct system-group memberships from the groups of role from to
// those of role to, with user_group remove_members and add_members events.
func moveRoleGroups(tx storage.Tx, ev *engine.Events, realm realms.Realm, u users.ID, from, to users.Role) error {
	oldNames, newNames := roleGroups(realm, from), roleGroups(realm, to)
	recipients, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	for _, name := range oldNames {
		if slices.Contains(newNames, name) {
			continue
		}
		g, err := tx.Groups().GetByName(name)
		if err != nil {
			return err
		}
		if err := tx.Groups().RemoveMembers(g.ID, []users.ID{u}); err != nil {
			return err
		}
		ev.Emit(UserGroupMembersEvent{Type: "user_group", Op: "remove_members", GroupID: g.ID, UserIDs: []users.ID{u}}, recipients)
	}
	for _, name := range newNames {
		if slices.Contains(oldNames, name) {
			continue
		}
		g, err := tx.Groups().GetByName(name)
		if err != nil {
			return err
		}
		if err := tx.Groups().AddMembers(g.ID, []users.ID{u}); err != nil {
			return err
		}
		ev.Emit(UserGroupMembersEvent{Type: "user_group", Op: "add_members", GroupID: g.ID, UserIDs: []users.ID{u}}, recipients)
	}
	return nil
}

// UserGroupMembersEvent is user_group add_members or remove_members.
type UserGroupMembersEvent struct {
	Type    string        `json:"type"`
	Op      string        `json:"op"`
	GroupID users.GroupID `json:"group_id"`
	UserIDs []users.ID    `json:"user_ids"`
}

// announceRestoredMemberships tells everyone about the group memberships a reactivated user
// has again (clients dropped them at deactivation): add_members for the groups the user is a
// direct member of, and update for the permission settings naming the user directly.
func announceRestoredMemberships(ur storage.UserReader, gr storage.GroupReader, ev *engine.Events, u users.ID) error {
	v, err := newGroupView(ur, gr)
	if err != nil {
		return err
	}
	groups, err := gr.List()
	if err != nil {
		return err
	}
	recipients, err := engine.ActiveUserIDs(ur)
	if err != nil {
		return err
	}
	for _, g := range groups {
		if slices.Contains(g.Members, u) {
			ev.Emit(UserGroupMembersEvent{Type: "user_group", Op: "add_members", GroupID: g.ID, UserIDs: []users.ID{u}}, recipients)
		}
		data := map[string]any{}
		for _, perm := range users.GroupPermissions() {
			if s := *perm.Field(&g); !s.IsNamed() && slices.Contains(s.Members, u) {
				data[perm.Name] = v.setting(s)
			}
		}
		if len(data) > 0 {
			ev.Emit(UserGroupUpdateEvent{Type: "user_group", Op: "update", GroupID: g.ID, Data: data}, recipients)
		}
	}
	return nil
}

// announceEmailVisibilityChange tells viewer about every user whose real email viewer could see
// before (as seen by before) and cannot now, or the reverse: delivery_email updates, and for
// Gravatar avatars the avatar_url that client_gravatar clients see appear or vanish.
func announceEmailVisibilityChange(r storage.UserReader, ev *engine.Events, before, after users.User) error {
	all, err := r.List()
	if err != nil {
		return err
	}
	to := []int64{int64(after.ID)}
	for _, u := range all {
		was, is := users.CanSeeEmail(before, u), users.CanSeeEmail(after, u)
		if was == is || u.ID == after.ID {
			continue
		}
		var email any
		if is {
			email = u.Email
		}
		ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: person{"user_id": u.ID, "delivery_email": email}}, to)
		if u.AvatarSource == users.AvatarGravatar {
			var url any
			if !is {
				url = AvatarURL(u)
			}
			ev.Emit(RealmUserEvent{Type: "realm_user", Op: "update", Person: avatarPerson(u, url),
				onlyGravatarClients: true}, to)
		}
	}
	return nil
}

// avatarPerson is the spec's avatar form of a realm_user update for u, with the avatar_url
// given (null where a client_gravatar client computes it): user_id, avatar_source, avatar_url,
// avatar_url_medium and avatar_version, the fields Zulip's notify_avatar_url_change sends.
func avatarPerson(u users.User, url any) person {
	return person{"user_id": u.ID, "avatar_source": u.AvatarSource, "avatar_url": url,
		"avatar_url_medium": AvatarMediumURL(u), "avatar_version": u.AvatarVersion}
}

// RealmUserEvent is a realm_user event: op add (Person is a UserRecord), update (Person holds
// user_id and the changed fields) or remove.
type RealmUserEvent struct {
	Type   string `json:"type"`
	Op     string `json:"op"`
	Person any    `json:"person"`
	// gravatarClient marks a Person (a UserRecord) whose avatar_url becomes null for clients
	// that registered with client_gravatar: its avatar is a Gravatar and its recipients may
	// see the email.
	gravatarClient bool
	// onlyGravatarClients limits an update to the clients that registered with
	// client_gravatar (an avatar_url that only they see change).
	onlyGravatarClients bool
}

// ReadsOptions: the form depends on client_gravatar only.
func (RealmUserEvent) ReadsOptions() clients.Reads { return clients.Gravatar }

// ForClient drops the computable avatar URL for client_gravatar clients, as register does. An
// update (a person map) marked gravatarClient carries only a computable avatar URL: those
// clients do not receive it at all.
func (e RealmUserEvent) ForClient(o clients.Options) (any, bool) {
	if _, isUpdate := e.Person.(person); isUpdate {
		if e.onlyGravatarClients {
			return e, o.ClientGravatar
		}
		return e, !(e.gravatarClient && o.ClientGravatar)
	}
	rec, ok := e.Person.(UserRecord)
	if !e.gravatarClient || !o.ClientGravatar || !ok {
		return e, true
	}
	rec.AvatarURL = nil
	e.Person = rec
	return e, true
}
