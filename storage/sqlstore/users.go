package sqlstore

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// userTx is the users accessor.
type userTx struct{ t *txn }

const userColumns = `id, email, full_name, role, bot_type, bot_owner_id, is_active, api_key,
	password_hash, timezone, date_joined, avatar_source, avatar_version, is_imported_stub,
	email_visibility, can_create_users, can_change_user_emails, is_deleted`

// scanUser reads one row of userColumns.
func scanUser(row *sql.Rows) (users.User, error) {
	var u users.User
	var joined sql.NullInt64
	err := row.Scan(&u.ID, &u.Email, &u.FullName, &u.Role, &u.BotType, &u.BotOwnerID, &u.IsActive,
		&u.APIKey, &u.PasswordHash, &u.Timezone, &joined, &u.AvatarSource, &u.AvatarVersion,
		&u.IsImportedStub, &u.EmailVisibility, &u.CanCreateUsers, &u.CanChangeUserEmails, &u.IsDeleted)
	u.DateJoined = fromNanos(joined)
	return u, err
}

// userArgs are the values of userColumns after id, then email_key.
func userArgs(u users.User) []any {
	return []any{u.Email, u.FullName, u.Role, u.BotType, u.BotOwnerID, u.IsActive, u.APIKey,
		u.PasswordHash, u.Timezone, nanos(u.DateJoined), u.AvatarSource, u.AvatarVersion,
		u.IsImportedStub, u.EmailVisibility, u.CanCreateUsers, u.CanChangeUserEmails, u.IsDeleted,
		users.NormalizeEmail(u.Email)}
}

func (a userTx) one(what string, key any, where string, args ...any) (users.User, error) {
	list, err := scanAll(a.t, scanUser, "SELECT "+userColumns+" FROM users WHERE "+where, args...)
	if err != nil {
		return users.User{}, err
	}
	if len(list) == 0 {
		return users.User{}, notFound(what, key)
	}
	return list[0], nil
}

func (a userTx) Get(id users.ID) (users.User, error) {
	if kept, err := a.kept(); err != nil || kept != nil {
		if err != nil {
			return users.User{}, err
		}
		if i, ok := slices.BinarySearchFunc(kept, id, byUserID); ok {
			return kept[i], nil
		}
		return users.User{}, notFound("user", id)
	}
	return a.one("user", id, "id = ?", id)
}

// kept returns the users list the Store keeps when it is what this transaction would read
// (keptList), so that reads by id need no statement: nil when there is none, or when the
// transaction wrote users. Only a kept list is used; a read by id never loads the whole
// table.
func (a userTx) kept() ([]users.User, error) {
	a.t.cache.users.mu.Lock()
	none := a.t.cache.users.list == nil
	a.t.cache.users.mu.Unlock()
	if none {
		return nil, a.t.live()
	}
	if err := a.t.live(); err != nil {
		return nil, err
	}
	kept, _, err := keptList(a.t, usersTable, &a.t.cache.users)
	return kept, err
}

func byUserID(u users.User, id users.ID) int { return cmp.Compare(u.ID, id) }

func (a userTx) GetByEmail(email string) (users.User, error) {
	return a.one("user with email", email, "email_key = ?", users.NormalizeEmail(email))
}

func (a userTx) GetByAPIKey(key string) (users.User, error) {
	if key == "" {
		return users.User{}, notFound("user with API key", "")
	}
	return a.one("user with API key", "", "api_key = ?", key)
}

func (a userTx) GetMany(list []users.ID) ([]users.User, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	if kept, err := a.kept(); err != nil || kept != nil {
		if err != nil {
			return nil, err
		}
		want := slices.Clone(list)
		slices.Sort(want)
		out := make([]users.User, 0, len(want))
		for _, id := range slices.Compact(want) {
			if i, ok := slices.BinarySearchFunc(kept, id, byUserID); ok {
				out = append(out, kept[i])
			}
		}
		return out, nil
	}
	return scanAll(a.t, scanUser, "SELECT "+userColumns+" FROM users WHERE id IN ("+a.t.d.idSet+") ORDER BY id",
		ids(a.t.d, list))
}

func (a userTx) List() ([]users.User, error) {
	return cachedList(a.t, usersTable, &a.t.cache.users, nil, func() ([]users.User, error) {
		return scanAll(a.t, scanUser, "SELECT "+userColumns+" FROM users ORDER BY id")
	})
}

func (a userTx) ListShared() ([]users.User, error) {
	list, _, err := sharedList(a.t, usersTable, &a.t.cache.users, func() ([]users.User, error) {
		return scanAll(a.t, scanUser, "SELECT "+userColumns+" FROM users ORDER BY id")
	})
	return list, err
}

func (a userTx) Create(u users.User) (users.ID, error) {
	if err := a.t.bump(usersTable); err != nil {
		return 0, err
	}
	var id users.ID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO users (email, full_name, role, bot_type, bot_owner_id, is_active,
			api_key, password_hash, timezone, date_joined, avatar_source, avatar_version,
			is_imported_stub, email_visibility, can_create_users, can_change_user_emails, is_deleted, email_key)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, userArgs(u), &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create user %q: %w", u.Email, err)
	}
	return id, nil
}

func (a userTx) Update(u users.User) error {
	if err := a.t.bump(usersTable); err != nil {
		return err
	}
	var wasActive bool
	if err := a.t.get("SELECT is_active FROM users WHERE id = ?", []any{u.ID}, &wasActive); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("update user %d: %w", u.ID, err)
	}
	var res sql.Result
	err := a.t.guarded(func() (err error) {
		res, err = a.t.exec(`UPDATE users SET email = ?, full_name = ?, role = ?, bot_type = ?,
			bot_owner_id = ?, is_active = ?, api_key = ?, password_hash = ?, timezone = ?,
			date_joined = ?, avatar_source = ?, avatar_version = ?, is_imported_stub = ?,
			email_visibility = ?, can_create_users = ?, can_change_user_emails = ?, is_deleted = ?, email_key = ?
			WHERE id = ?`, append(userArgs(u), u.ID)...)
		return err
	})
	if err != nil {
		return fmt.Errorf("update user %d: %w", u.ID, err)
	}
	if err := mustAffect(res, "user", u.ID); err != nil {
		return err
	}
	if wasActive == u.IsActive {
		return nil
	}
	// The user's active subscriptions start or stop counting.
	if err := recountSubscribers(a.t, "id IN (SELECT channel_id FROM subscriptions WHERE user_id = ? AND active)", u.ID); err != nil {
		return err
	}
	// The user's receive intervals open or close with them (receivers.go).
	return syncIntervals(a.t, func(alias string) string { return alias + ".user_id = ?" }, u.ID)
}

func (a userTx) ActiveSince(t int64) ([]users.ID, error) {
	return scanAll(a.t, func(r *sql.Rows) (users.ID, error) {
		var id users.ID
		return id, r.Scan(&id)
	}, "SELECT user_id FROM user_activity WHERE last_active >= ? ORDER BY user_id", t)
}

// ReserveIDs moves the users table's id sequence past through: SQLite's sqlite_sequence row
// (transactional), PostgreSQL's identity sequence (setval, which no rollback undoes). A
// sequence already past through is left alone.
func (a userTx) ReserveIDs(through users.ID) error {
	if through <= 0 {
		return nil
	}
	if a.t.d.postgres {
		_, err := a.t.exec(`SELECT setval(pg_get_serial_sequence('users', 'id'), CAST(? AS BIGINT))
			WHERE CAST(? AS BIGINT) > GREATEST((SELECT COALESCE(MAX(id), 0) FROM users),
				COALESCE(pg_sequence_last_value(pg_get_serial_sequence('users', 'id')::regclass), 0))`, int64(through), int64(through))
		if err != nil {
			return fmt.Errorf("reserve user ids: %w", err)
		}
		return nil
	}
	if _, err := a.t.exec(`UPDATE sqlite_sequence SET seq = ? WHERE name = 'users' AND seq < ?`, int64(through), int64(through)); err != nil {
		return fmt.Errorf("reserve user ids: %w", err)
	}
	if _, err := a.t.exec(`INSERT INTO sqlite_sequence (name, seq) SELECT 'users', ?
		WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'users')`, int64(through)); err != nil {
		return fmt.Errorf("reserve user ids: %w", err)
	}
	return nil
}

// SetLastActive records activity at t (never moving a user's last activity back). On SQLite
// the rows wait for the transaction's next statement (deferred.go): a group of sends
// (internal/engine/commits.go) writes its senders' activity in one statement.
//
// Users whose activity this Store has already written at t or later are left out
// (activityFloor): nothing is written for them.
func (a userTx) SetLastActive(t int64, list ...users.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if list = a.t.cache.activity.above(t, list); len(list) == 0 {
		return nil
	}
	for _, id := range list {
		a.t.active = append(a.t.active, activityWrite{user: id, at: t})
	}
	if !a.t.d.postgres {
		rows := make([][]any, len(list))
		for i, id := range list {
			rows[i] = []any{id, t}
		}
		a.t.deferInsert("INSERT INTO user_activity (user_id, last_active)", 2, rows,
			"ON CONFLICT (user_id) DO UPDATE SET last_active = excluded.last_active WHERE user_activity.last_active < excluded.last_active")
		return nil
	}
	// Nothing in the transaction reads it back (a later read would flush it first, inside
	// the transaction): it waits for the commit, and runs right after it, on its own
	// (deferAfterCommit): in the SERIALIZABLE transaction every sender's upsert read and
	// wrote the same leaf pages of user_activity's indexes (PostgreSQL's predicate locks on a
	// B-tree are per page), so that any two senders in different processes, whatever their
	// channels, formed a cycle of read-write conflicts and one of them was aborted.
	a.t.deferAfterCommit(`INSERT INTO user_activity (user_id, last_active)
		SELECT DISTINCT id, CAST(? AS BIGINT) FROM (`+a.t.d.idSet+`) AS list WHERE true
		ON CONFLICT (user_id) DO UPDATE SET last_active = excluded.last_active
		WHERE user_activity.last_active < excluded.last_active`, t, ids(a.t.d, list))
	return nil
}
