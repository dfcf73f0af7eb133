package sqlstore

import (
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// A send's subscribers on PostgreSQL, which keeps no subscriber lists (subscribers.go): read
// ahead as the channel's active subscribers' ids in one array and the few subscriptions among
// them whose settings are not the defaults (storage.Customized), not as every subscription
// row. A channel of 10,000 then costs the send one array to decode instead of 10,000 rows of
// eleven columns.

// customizedCondition is storage.Customized in SQL.
const customizedCondition = `(is_muted OR desktop_notifications IS NOT NULL OR audible_notifications IS NOT NULL
	OR push_notifications IS NOT NULL OR email_notifications IS NOT NULL OR wildcard_mentions_notify IS NOT NULL)`

// subscriberListQuery reads c's SubscriberList in one statement: the ids as an array, the
// customized subscriptions as a JSON array (few; each with the columns of subscriptionColumns),
// and the channel's maintained subscriber count (CountsOf: a send compares it with the list).
const subscriberListQuery = `SELECT COALESCE(array_agg(user_id ORDER BY user_id), '{}'),
	COALESCE(json_agg(json_build_object('user_id', user_id, 'color', color, 'is_muted', is_muted,
		'pin_to_top', pin_to_top, 'desktop', desktop_notifications, 'audible', audible_notifications,
		'push', push_notifications, 'email', email_notifications, 'wildcard', wildcard_mentions_notify)
		ORDER BY user_id) FILTER (WHERE ` + customizedCondition + `), '[]')::text,
	COALESCE((SELECT subscriber_count FROM channels WHERE id = ?), 0)
	FROM subscriptions WHERE channel_id = ? AND active`

// customizedRow is one element of subscriberListQuery's JSON array.
type customizedRow struct {
	UserID   users.ID `json:"user_id"`
	Color    string   `json:"color"`
	IsMuted  bool     `json:"is_muted"`
	PinToTop bool     `json:"pin_to_top"`
	Desktop  *bool    `json:"desktop"`
	Audible  *bool    `json:"audible"`
	Push     *bool    `json:"push"`
	Email    *bool    `json:"email"`
	Wildcard *bool    `json:"wildcard"`
}

// prefetchSubscriberList announces the read of c's SubscriberList.
func (r *readTx) prefetchSubscriberList(c channels.ID) {
	a := &readAhead{subscribersOf: c}
	a.query, a.args = subscriberListQuery, []any{c, c}
	a.rows = func(rows pgx.Rows) error {
		for rows.Next() {
			var ids []int64
			var customized string
			if err := rows.Scan(&ids, &customized, &a.count); err != nil {
				return err
			}
			a.ids = make([]users.ID, len(ids))
			for i, id := range ids {
				a.ids[i] = users.ID(id)
			}
			var list []customizedRow
			if err := json.Unmarshal([]byte(customized), &list); err != nil {
				return fmt.Errorf("customized subscriptions of channel %d: %w", c, err)
			}
			for _, s := range list {
				a.subs = append(a.subs, channels.Subscription{UserID: s.UserID, ChannelID: c, Active: true,
					Color: s.Color, IsMuted: s.IsMuted, PinToTop: s.PinToTop, DesktopNotifications: s.Desktop,
					AudibleNotifications: s.Audible, PushNotifications: s.Push, EmailNotifications: s.Email,
					WildcardMentionsNotify: s.Wildcard})
			}
		}
		return rows.Err()
	}
	r.t.announce(a)
}

// takeSubscriberList returns c's SubscriberList as read ahead, if it was.
func (t *txn) takeSubscriberList(c channels.ID) (storage.SubscriberList, bool) {
	a, ok := t.take(func(a *readAhead) bool { return a.subscribersOf == c && c != 0 })
	if !ok {
		return storage.SubscriberList{}, false
	}
	ids := a.ids
	if ids == nil {
		ids = []users.ID{}
	}
	// The count read with the list, for a CountsOf that follows before any other statement.
	t.ahead = append(t.ahead, &readAhead{countOf: c, count: a.count, done: true})
	return storage.SubscriberList{IDs: ids[:len(ids):len(ids)], Customized: a.subs}, true
}

// takeCount returns c's subscriber count read with its subscriber list, if it was.
func (t *txn) takeCount(c channels.ID) (int, bool) {
	a, ok := t.take(func(a *readAhead) bool { return a.countOf == c && c != 0 })
	return a.countOrZero(), ok
}

func (a *readAhead) countOrZero() int {
	if a == nil {
		return 0
	}
	return a.count
}
