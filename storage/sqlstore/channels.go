package sqlstore

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// channelTx is the channels accessor.
type channelTx struct{ t *txn }

const channelColumns = `id, name, description, date_created, creator_id, invite_only, is_web_public,
	history_public_to_subscribers, message_retention_days, topics_policy, folder_id, is_archived,
	is_default, group_settings, default_push_notifications`

func scanChannel(row *sql.Rows) (channels.Channel, error) {
	var c channels.Channel
	var retention sql.NullInt64
	var settings string
	err := row.Scan(&c.ID, &c.Name, &c.Description, &c.DateCreated, &c.CreatorID, &c.InviteOnly,
		&c.IsWebPublic, &c.HistoryPublicToSubscribers, &retention, &c.TopicsPolicy, &c.FolderID,
		&c.IsArchived, &c.IsDefault, &settings, &c.DefaultPushNotifications)
	if err != nil {
		return c, err
	}
	if retention.Valid {
		days := int(retention.Int64)
		c.MessageRetentionDays = &days
	}
	return c, parseChannelSettings(settings, &c)
}

// channelSettingsText encodes every group setting of c as a JSON object keyed by the
// setting's API name, each value in groupSettingText's form.
func channelSettingsText(c channels.Channel) string {
	m := map[string]storedGroupSetting{}
	for _, s := range c.GroupSettings() {
		m[s.Name] = storedGroupSetting(*s.Value)
	}
	b, _ := json.Marshal(m) // cannot fail: integers only
	return string(b)
}

func parseChannelSettings(text string, c *channels.Channel) error {
	var m map[string]storedGroupSetting
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return fmt.Errorf("channel %d group settings: %w", c.ID, err)
	}
	for _, s := range c.GroupSettings() {
		*s.Value = users.GroupSetting(m[s.Name])
	}
	return nil
}

// channelArgs are the values of channelColumns after id, then name_key.
func channelArgs(c channels.Channel) []any {
	var retention any
	if c.MessageRetentionDays != nil {
		retention = int64(*c.MessageRetentionDays)
	}
	return []any{c.Name, c.Description, c.DateCreated, c.CreatorID, c.InviteOnly, c.IsWebPublic,
		c.HistoryPublicToSubscribers, retention, c.TopicsPolicy, c.FolderID, c.IsArchived,
		c.IsDefault, channelSettingsText(c), c.DefaultPushNotifications, channels.NormalizeName(c.Name)}
}

func (a channelTx) one(what string, key any, where string, args ...any) (channels.Channel, error) {
	list, err := scanAll(a.t, scanChannel, "SELECT "+channelColumns+" FROM channels WHERE "+where, args...)
	if err != nil {
		return channels.Channel{}, err
	}
	if len(list) == 0 {
		return channels.Channel{}, notFound(what, key)
	}
	return list[0], nil
}

func (a channelTx) Get(id channels.ID) (channels.Channel, error) {
	return a.one("channel", id, "id = ?", id)
}

func (a channelTx) GetByName(name string) (channels.Channel, error) {
	return a.one("channel named", name, "name_key = ?", channels.NormalizeName(name))
}

func (a channelTx) GetMany(list []channels.ID) ([]channels.Channel, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	return scanAll(a.t, scanChannel, "SELECT "+channelColumns+" FROM channels WHERE id IN ("+a.t.d.idSet+") ORDER BY id",
		ids(a.t.d, list))
}

func (a channelTx) List() ([]channels.Channel, error) {
	return cachedList(a.t, channelsTable, &a.t.cache.channels, channels.Channel.Clone, func() ([]channels.Channel, error) {
		return scanAll(a.t, scanChannel, "SELECT "+channelColumns+" FROM channels ORDER BY id")
	})
}

func (a channelTx) ListShared() ([]channels.Channel, error) {
	list, _, err := sharedList(a.t, channelsTable, &a.t.cache.channels, func() ([]channels.Channel, error) {
		return scanAll(a.t, scanChannel, "SELECT "+channelColumns+" FROM channels ORDER BY id")
	})
	return slices.Clip(list), err // an append by the caller copies instead of writing into the kept list
}

func (a channelTx) Create(c channels.Channel) (channels.ID, error) {
	if err := a.t.bump(channelsTable); err != nil {
		return 0, err
	}
	var id channels.ID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO channels (name, description, date_created, creator_id, invite_only,
			is_web_public, history_public_to_subscribers, message_retention_days, topics_policy,
			folder_id, is_archived, is_default, group_settings, default_push_notifications, name_key)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, channelArgs(c), &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create channel %q: %w", c.Name, err)
	}
	return id, nil
}

func (a channelTx) Update(c channels.Channel) error {
	if err := a.t.bump(channelsTable); err != nil {
		return err
	}
	var res sql.Result
	err := a.t.guarded(func() (err error) {
		res, err = a.t.exec(`UPDATE channels SET name = ?, description = ?, date_created = ?,
			creator_id = ?, invite_only = ?, is_web_public = ?, history_public_to_subscribers = ?,
			message_retention_days = ?, topics_policy = ?, folder_id = ?, is_archived = ?,
			is_default = ?, group_settings = ?, default_push_notifications = ?, name_key = ? WHERE id = ?`, append(channelArgs(c), c.ID)...)
		return err
	})
	if err != nil {
		return fmt.Errorf("update channel %d: %w", c.ID, err)
	}
	return mustAffect(res, "channel", c.ID)
}

// subscriptionTx is the subscriptions accessor: one row per (user, channel), active or not.
type subscriptionTx struct{ t *txn }

const subscriptionColumns = `user_id, channel_id, active, color, is_muted, pin_to_top,
	desktop_notifications, audible_notifications, push_notifications, email_notifications,
	wildcard_mentions_notify`

func scanSubscription(row *sql.Rows) (channels.Subscription, error) { return scanSubscriptionFrom(row) }

// scanSubscriptionFrom is scanSubscription for database/sql's rows or pgx's (ahead.go).
func scanSubscriptionFrom(row interface{ Scan(...any) error }) (channels.Subscription, error) {
	var s channels.Subscription
	var desktop, audible, push, email, wildcard sql.NullBool
	err := row.Scan(&s.UserID, &s.ChannelID, &s.Active, &s.Color, &s.IsMuted, &s.PinToTop,
		&desktop, &audible, &push, &email, &wildcard)
	s.DesktopNotifications, s.AudibleNotifications = boolPtr(desktop), boolPtr(audible)
	s.PushNotifications, s.EmailNotifications = boolPtr(push), boolPtr(email)
	s.WildcardMentionsNotify = boolPtr(wildcard)
	return s, err
}

func (a subscriptionTx) Get(u users.ID, c channels.ID) (channels.Subscription, error) {
	list, err := scanAll(a.t, scanSubscription, "SELECT "+subscriptionColumns+" FROM subscriptions WHERE user_id = ? AND channel_id = ?", u, c)
	if err != nil {
		return channels.Subscription{}, err
	}
	if len(list) == 0 {
		return channels.Subscription{}, notFound("subscription of user", fmt.Sprintf("%d to channel %d", u, c))
	}
	return list[0], nil
}

func (a subscriptionTx) ListForUsers(list []users.ID) ([]channels.Subscription, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	return scanAll(a.t, scanSubscription, "SELECT "+subscriptionColumns+" FROM subscriptions WHERE user_id IN ("+
		a.t.d.idSet+") ORDER BY user_id, channel_id", ids(a.t.d, list))
}

func (a subscriptionTx) ListForChannels(list []channels.ID, activeOnly bool) ([]channels.Subscription, error) {
	if len(list) == 0 {
		return nil, a.t.live()
	}
	if activeOnly {
		if err := a.t.live(); err != nil {
			return nil, err
		}
		if out, ok, err := a.activeSubscriptions(list); ok {
			return out, err
		}
	}
	return a.readForChannels(list, activeOnly)
}

// readForChannels is ListForChannels with a statement, or its rows read ahead (ahead.go).
func (a subscriptionTx) readForChannels(list []channels.ID, activeOnly bool) ([]channels.Subscription, error) {
	query, args := a.forChannels(list, activeOnly)
	if rows, ok := a.t.takeSubscribers(query, args); ok {
		return rows, a.t.live()
	}
	return scanAll(a.t, scanSubscription, query, args...)
}

// forChannels is ListForChannels' statement.
func (a subscriptionTx) forChannels(list []channels.ID, activeOnly bool) (string, []any) {
	where := "channel_id IN (" + a.t.d.idSet + ")"
	if activeOnly {
		where += " AND active"
	}
	return "SELECT " + subscriptionColumns + " FROM subscriptions WHERE " + where +
		" ORDER BY channel_id, user_id", []any{ids(a.t.d, list)}
}

func (a subscriptionTx) Put(subs []channels.Subscription) error {
	// A later row for the same key wins, as in a loop of single writes; one statement must not
	// hold a key twice (ON CONFLICT would refuse to touch a row twice).
	last := make(map[[2]int64]int, len(subs))
	for i, s := range subs {
		last[[2]int64{int64(s.UserID), int64(s.ChannelID)}] = i
	}
	rows := make([][]any, 0, len(last))
	for i, s := range subs {
		if last[[2]int64{int64(s.UserID), int64(s.ChannelID)}] != i {
			continue
		}
		rows = append(rows, []any{s.UserID, s.ChannelID, s.Active, s.Color, s.IsMuted, s.PinToTop,
			nullableBool(s.DesktopNotifications), nullableBool(s.AudibleNotifications),
			nullableBool(s.PushNotifications), nullableBool(s.EmailNotifications),
			nullableBool(s.WildcardMentionsNotify)})
	}
	if !a.t.d.postgres {
		if err := a.t.bump(subscriptionsTable); err != nil { // subscribers.go
			return err
		}
	}
	err := insertRows(a.t, "INSERT INTO subscriptions ("+subscriptionColumns+")", 11, rows,
		`ON CONFLICT (user_id, channel_id) DO UPDATE SET active = excluded.active,
		color = excluded.color, is_muted = excluded.is_muted, pin_to_top = excluded.pin_to_top,
		desktop_notifications = excluded.desktop_notifications,
		audible_notifications = excluded.audible_notifications,
		push_notifications = excluded.push_notifications,
		email_notifications = excluded.email_notifications,
		wildcard_mentions_notify = excluded.wildcard_mentions_notify`)
	if err != nil {
		return err
	}
	touched := make([]channels.ID, 0, len(subs))
	who := make([]users.ID, 0, len(subs))
	for _, s := range subs {
		touched, who = append(touched, s.ChannelID), append(who, s.UserID)
	}
	touched, who = sortedUnique(touched), sortedUnique(who)
	if err := recountSubscribers(a.t, "id IN ("+a.t.d.idSet+")", ids(a.t.d, touched)); err != nil {
		return err
	}
	// The receive intervals of the pairs written (receivers.go).
	return syncIntervals(a.t, func(alias string) string {
		return alias + ".channel_id IN (" + a.t.d.idSet + ") AND " + alias + ".user_id IN (" + a.t.d.idSet + ")"
	}, ids(a.t.d, touched), ids(a.t.d, who))
}

// Counts reads the maintained subscriber counts.
func (a subscriptionTx) Counts() (map[channels.ID]int, error) {
	return a.counts("SELECT id, subscriber_count FROM channels WHERE subscriber_count > 0")
}

// CountsOf reads the maintained subscriber counts of the given channels.
func (a subscriptionTx) CountsOf(list []channels.ID) (map[channels.ID]int, error) {
	if len(list) == 0 {
		return map[channels.ID]int{}, a.t.live()
	}
	if len(list) == 1 {
		if n, ok := a.t.takeCount(list[0]); ok {
			out := map[channels.ID]int{}
			if n > 0 {
				out[list[0]] = n
			}
			return out, a.t.live()
		}
	}
	return a.counts("SELECT id, subscriber_count FROM channels WHERE subscriber_count > 0 AND id IN ("+a.t.d.idSet+")", ids(a.t.d, list))
}

// counts reads (channel id, subscriber count) rows.
func (a subscriptionTx) counts(query string, args ...any) (map[channels.ID]int, error) {
	rows, err := a.t.query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[channels.ID]int{}
	for rows.Next() {
		var c channels.ID
		var n int
		if err := rows.Scan(&c, &n); err != nil {
			return nil, a.t.check(err)
		}
		out[c] = n
	}
	return out, a.t.check(rows.Err())
}

// recountSubscribers recomputes the subscriber_count of the channels matching where (a
// condition on channels.id with its args), one set-based statement.
func recountSubscribers(t *txn, where string, args ...any) error {
	return t.guarded(func() error {
		_, err := t.exec(`UPDATE channels SET subscriber_count = (
			SELECT COUNT(*) FROM subscriptions s JOIN users u ON u.id = s.user_id
			WHERE s.channel_id = channels.id AND s.active AND u.is_active) WHERE `+where, args...)
		return err
	})
}
