package people

import (
	"context"
	"slices"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// othersForbidden are the parameters an administrator may not set for other users.
func (p UpdateSettingsParams) othersForbidden() bool {
	if p.Email != nil || p.NewPassword != nil || p.OldPassword != nil || p.Timezone != nil || p.FullName != nil {
		return true
	}
	for name := range p.Values {
		if st, _ := users.LookupSetting(name); st.Sensitive {
			return true
		}
	}
	return false
}

// updateOthersSettings applies settings to the users target_users selects.
func (s *Service) updateOthersSettings(ctx context.Context, actor engine.Actor, p UpdateSettingsParams) error {
	t := p.TargetUsers
	if t.SkipIfAlreadyEdited == nil {
		return engine.BadRequest(`target_users["skip_if_already_edited"] field is missing`)
	}
	if len(t.UserIDs) == 0 && len(t.GroupIDs) == 0 {
		return engine.BadRequest("Either user_ids or group_ids must be provided.")
	}
	if len(t.UserIDs) > MaxUserIDsPerRequest || len(t.GroupIDs) > MaxUserIDsPerRequest {
		return engine.BadRequest("target_users is too long (limit: %d items)", MaxUserIDsPerRequest)
	}
	return s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		tx := o.Tx
		if !o.Me.Role.IsAdmin() {
			return engine.ErrMustBeAdmin()
		}
		if p.othersForbidden() {
			return engine.BadRequest("Cannot change this setting for other users.")
		}
		list, err := targetUsersOf(o.ReadOp.Tx, *t)
		if err != nil {
			return err
		}
		ids := make([]users.ID, len(list))
		for i, u := range list {
			ids[i] = u.ID
		}
		stored, err := tx.UserSettings().GetMany(ids)
		if err != nil {
			return err
		}
		changed := map[users.ID]users.Settings{}
		for _, u := range list {
			if u.IsBot() {
				continue
			}
			st, ok, err := setOthersSettings(tx, o.Ev, u, stored[u.ID], p.Values, *t.SkipIfAlreadyEdited)
			if err != nil {
				return err
			}
			if ok {
				changed[u.ID] = st
			}
		}
		if len(changed) == 0 {
			return nil
		}
		return tx.UserSettings().PutMany(changed)
	})
}

// targetUsersOf are the users target_users names, directly or through the members of its
// groups, in the order of their ids.
func targetUsersOf(tx storage.ReadTx, t TargetUsers) ([]users.User, error) {
	targets := map[users.ID]bool{}
	found, err := tx.Users().GetMany(t.UserIDs)
	if err != nil {
		return nil, err
	}
	if missing := missingUser(t.UserIDs, found); missing != 0 {
		return nil, engine.BadRequest("Invalid user ID: %d", missing)
	}
	for _, u := range found {
		targets[u.ID] = true
	}
	m, err := membershipOf(tx.Users(), tx.Groups())
	if err != nil {
		return nil, err
	}
	for _, gid := range t.GroupIDs {
		if _, err := loadGroup(tx.Groups(), gid); err != nil {
			return nil, err
		}
		for _, u := range m.Members(gid, false) {
			targets[u] = true
		}
	}
	ids := make([]users.ID, 0, len(targets))
	for id := range targets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return tx.Users().GetMany(ids)
}

// setOthersSettings sets values in u's settings st, in the order of their names, each with a
// user_settings event to u; with skipEdited, those u set themselves stay. It reports whether
// any changed.
func setOthersSettings(tx storage.Tx, ev *engine.Events, u users.User, st users.Settings, values map[string]any, skipEdited bool) (users.Settings, bool, error) {
	changed := false
	for _, name := range sortedNames(values) {
		v := values[name]
		if st.Value(name) == v || skipEdited && slices.Contains(st.SelfEdited, name) {
			continue
		}
		st.Set(name, v, false)
		changed = true
		ev.Emit(settingEvent(name, v), []int64{int64(u.ID)})
		if name == "enable_drafts_synchronization" {
			if err := SetDraftsSynchronization(tx, u.ID, v.(bool)); err != nil {
				return st, changed, err
			}
		}
	}
	return st, changed, nil
}
