package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/teamchat/chat/users"
)

// groupTx is the user-groups accessor. A group is a row of user_groups plus its rows in
// user_group_members and user_group_subgroups.
type groupTx struct{ t *txn }

const groupColumns = `id, name, description, is_system_group, creator_id, date_created, deactivated, group_settings`

func scanGroup(row *sql.Rows) (users.Group, error) {
	var g users.Group
	var settings string
	err := row.Scan(&g.ID, &g.Name, &g.Description, &g.IsSystemGroup, &g.CreatorID, &g.DateCreated, &g.Deactivated, &settings)
	if err != nil {
		return g, err
	}
	var m map[string]storedGroupSetting
	if err := json.Unmarshal([]byte(settings), &m); err != nil {
		return g, fmt.Errorf("group %d permissions: %w", g.ID, err)
	}
	for _, p := range users.GroupPermissions() {
		*p.Field(&g) = users.GroupSetting(m[p.Name])
	}
	return g, nil
}

// groupSettingsText encodes the permission settings of g as a JSON object keyed by name.
func groupSettingsText(g users.Group) string {
	m := map[string]storedGroupSetting{}
	for _, p := range users.GroupPermissions() {
		m[p.Name] = storedGroupSetting(*p.Field(&g))
	}
	b, _ := json.Marshal(m) // cannot fail: integers only
	return string(b)
}

type idPair struct{ a, b int64 }

func scanPair(row *sql.Rows) (idPair, error) {
	var p idPair
	err := row.Scan(&p.a, &p.b)
	return p, err
}

// load returns the groups matching where (a condition on user_groups' columns), ascending by
// id, with their members and subgroups: three queries whatever the number of groups.
func (a groupTx) load(where string, args ...any) ([]users.Group, error) {
	groups, err := scanAll(a.t, scanGroup, "SELECT "+groupColumns+" FROM user_groups WHERE "+where+" ORDER BY id", args...)
	if err != nil || len(groups) == 0 {
		return groups, err
	}
	index := make(map[int64]int, len(groups))
	for i, g := range groups {
		index[int64(g.ID)] = i
	}
	members, err := scanAll(a.t, scanPair, `SELECT group_id, user_id FROM user_group_members
		WHERE group_id IN (SELECT id FROM user_groups WHERE `+where+`) ORDER BY group_id, user_id`, args...)
	if err != nil {
		return nil, err
	}
	for _, p := range members {
		g := &groups[index[p.a]]
		g.Members = append(g.Members, users.ID(p.b))
	}
	subgroups, err := scanAll(a.t, scanPair, `SELECT group_id, subgroup_id FROM user_group_subgroups
		WHERE group_id IN (SELECT id FROM user_groups WHERE `+where+`) ORDER BY group_id, subgroup_id`, args...)
	if err != nil {
		return nil, err
	}
	for _, p := range subgroups {
		g := &groups[index[p.a]]
		g.Subgroups = append(g.Subgroups, users.GroupID(p.b))
	}
	return groups, nil
}

func (a groupTx) one(what string, key any, where string, args ...any) (users.Group, error) {
	list, err := a.load(where, args...)
	if err != nil {
		return users.Group{}, err
	}
	if len(list) == 0 {
		return users.Group{}, notFound(what, key)
	}
	return list[0], nil
}

func (a groupTx) Get(id users.GroupID) (users.Group, error) {
	return a.one("group", id, "id = ?", id)
}

func (a groupTx) GetByName(name string) (users.Group, error) {
	return a.one("group named", name, "name = ?", name)
}

func (a groupTx) List() ([]users.Group, error) {
	return cachedList(a.t, groupsTable, &a.t.cache.groups, users.Group.Clone, func() ([]users.Group, error) {
		return a.load("1 = 1")
	})
}

func (a groupTx) ListShared() ([]users.Group, error) {
	list, _, err := sharedList(a.t, groupsTable, &a.t.cache.groups, func() ([]users.Group, error) {
		return a.load("1 = 1")
	})
	return slices.Clip(list), err // an append by the caller copies instead of writing into the kept list
}

func (a groupTx) ListForUser(u users.ID) ([]users.Group, error) {
	return a.load("id IN (SELECT group_id FROM user_group_members WHERE user_id = ?)", u)
}

func (a groupTx) Create(g users.Group) (users.GroupID, error) {
	if err := a.t.bump(groupsTable); err != nil {
		return 0, err
	}
	var id users.GroupID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO user_groups (name, description, is_system_group, creator_id, date_created, deactivated, group_settings)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			[]any{g.Name, g.Description, g.IsSystemGroup, g.CreatorID, g.DateCreated, g.Deactivated, groupSettingsText(g)}, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create group %q: %w", g.Name, err)
	}
	if err := a.addMembers(id, g.Members); err != nil {
		return 0, err
	}
	if err := a.addSubgroups(id, g.Subgroups); err != nil {
		return 0, err
	}
	return id, nil
}

func (a groupTx) Update(g users.Group) error {
	if err := a.t.bump(groupsTable); err != nil {
		return err
	}
	var res sql.Result
	err := a.t.guarded(func() (err error) {
		res, err = a.t.exec(`UPDATE user_groups SET name = ?, description = ?, is_system_group = ?,
			creator_id = ?, date_created = ?, deactivated = ?, group_settings = ? WHERE id = ?`,
			g.Name, g.Description, g.IsSystemGroup, g.CreatorID, g.DateCreated, g.Deactivated, groupSettingsText(g), g.ID)
		return err
	})
	if err != nil {
		return fmt.Errorf("update group %d: %w", g.ID, err)
	}
	if err := mustAffect(res, "group", g.ID); err != nil {
		return err
	}
	// Replace the lists: delete what is no longer there, add what is new.
	if _, err := a.t.exec("DELETE FROM user_group_members WHERE group_id = ? AND user_id NOT IN ("+a.t.d.idSet+")",
		g.ID, ids(a.t.d, g.Members)); err != nil {
		return err
	}
	if err := a.addMembers(g.ID, g.Members); err != nil {
		return err
	}
	if _, err := a.t.exec("DELETE FROM user_group_subgroups WHERE group_id = ? AND subgroup_id NOT IN ("+a.t.d.idSet+")",
		g.ID, ids(a.t.d, g.Subgroups)); err != nil {
		return err
	}
	return a.addSubgroups(g.ID, g.Subgroups)
}

func (a groupTx) AddMembers(id users.GroupID, members []users.ID) error {
	if err := a.t.bump(groupsTable); err != nil {
		return err
	}
	if err := a.exists(id); err != nil {
		return err
	}
	return a.addMembers(id, members)
}

func (a groupTx) RemoveMembers(id users.GroupID, members []users.ID) error {
	if err := a.t.bump(groupsTable); err != nil {
		return err
	}
	if err := a.exists(id); err != nil {
		return err
	}
	if len(members) == 0 {
		return nil
	}
	_, err := a.t.exec("DELETE FROM user_group_members WHERE group_id = ? AND user_id IN ("+a.t.d.idSet+")",
		id, ids(a.t.d, members))
	return err
}

// exists reports ErrNotFound for an unknown group.
func (a groupTx) exists(id users.GroupID) error {
	var one int
	if err := a.t.get("SELECT 1 FROM user_groups WHERE id = ?", []any{id}, &one); err != nil {
		return fmt.Errorf("group %d: %w", id, err)
	}
	return nil
}

// addMembers inserts the members not yet in the group, in one statement.
func (a groupTx) addMembers(id users.GroupID, members []users.ID) error {
	if len(members) == 0 {
		return nil
	}
	_, err := a.t.exec(`INSERT INTO user_group_members (group_id, user_id)
		SELECT DISTINCT CAST(? AS BIGINT), id FROM (`+a.t.d.idSet+`) AS list WHERE true ON CONFLICT DO NOTHING`, id, ids(a.t.d, members))
	return err
}

// addSubgroups inserts the subgroups not yet in the group, in one statement.
func (a groupTx) addSubgroups(id users.GroupID, subgroups []users.GroupID) error {
	if len(subgroups) == 0 {
		return nil
	}
	_, err := a.t.exec(`INSERT INTO user_group_subgroups (group_id, subgroup_id)
		SELECT DISTINCT CAST(? AS BIGINT), id FROM (`+a.t.d.idSet+`) AS list WHERE true ON CONFLICT DO NOTHING`, id, ids(a.t.d, subgroups))
	return err
}
