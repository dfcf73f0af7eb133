package sqlstore

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// A send's subscribers on PostgreSQL, which keeps no subscriber lists (subscribers.go): read
// ahead as the channel's active subscribers' ids in one array and the few subscriptions among
// them whose settings are not the defaults (storage.Customized), not as every subscription
// row. A channel of 10,000 then costs the send one array to decode instead of 10,000 rows of
// eleven columns. The array comes as its binary form in a bytea (array_send), decoded here
// with no work per id beyond reading it: pgx's own int8[] decoding costs a scan plan per
// element, a quarter of a millisecond of the send for 10,000 (a bytea made by string_agg of
// int8send would be simpler to read, but costs the server four times array_agg's time).

// customizedCondition is storage.Customized in SQL.
const customizedCondition = `(is_muted OR desktop_notifications IS NOT NULL OR audible_notifications IS NOT NULL
	OR push_notifications IS NOT NULL OR email_notifications IS NOT NULL OR wildcard_mentions_notify IS NOT NULL)`

// subscriberListQuery reads c's SubscriberList in one statement: the ids ascending as the
// binary form of an int8[] (array_send; decodeIDs), the customized subscriptions as a JSON
// array (few; each with the columns of subscriptionColumns), and the channel's maintained
// subscriber count (CountsOf: a send compares it with the list).
const subscriberListQuery = `SELECT array_send(COALESCE(array_agg(user_id ORDER BY user_id), '{}')),
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
			var ids pgtype.DriverBytes // the driver's memory, read before the next row: no copy
			var customized string
			if err := rows.Scan(&ids, &customized, &a.count); err != nil {
				return err
			}
			var err error
			if a.ids, err = decodeIDs(ids); err != nil {
				return fmt.Errorf("subscribers of channel %d: %w", c, err)
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

// decodeIDs reads the ids of an int8[] in PostgreSQL's binary form (array_send): the number
// of dimensions, a flag of nulls and the elements' type (int8, oid 20), then for one
// dimension its size and lower bound, and each element as its length (8) and 8 big-endian
// bytes. An empty array has no dimension.
func decodeIDs(b []byte) ([]users.ID, error) {
	word := func(at int) int { return int(int32(binary.BigEndian.Uint32(b[at:]))) }
	if len(b) < 12 || word(8) != int8OID {
		return nil, fmt.Errorf("not the binary form of an int8[]: %d bytes", len(b))
	}
	if dims := word(0); dims == 0 {
		return []users.ID{}, nil
	} else if dims != 1 || word(4) != 0 || len(b) < 20 {
		return nil, fmt.Errorf("an id list of %d dimensions (nulls: %d) is not a list of ids", dims, word(4))
	}
	n := word(12)
	if n < 0 || len(b) != 20+12*n {
		return nil, fmt.Errorf("an int8[] of %d elements in %d bytes", n, len(b))
	}
	out := make([]users.ID, n)
	for i := range out {
		at := 20 + 12*i
		if word(at) != 8 {
			return nil, fmt.Errorf("element %d of an int8[] has %d bytes", i, word(at))
		}
		out[i] = users.ID(int64(binary.BigEndian.Uint64(b[at+4:])))
	}
	return out, nil
}

// int8OID is the type oid of int8.
const int8OID = 20
