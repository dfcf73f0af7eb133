package sqlstore

import (
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Reads ahead (storage.Prefetcher). A send reads its channel's subscribers right after the
// check of the kept lists, and then writes its message, whose statement read the channel's
// bounds and returned the message's id. Announced before the transaction's first statement,
// the subscribers, the bounds and a reserved id are read in the same round trip as BEGIN and
// the check (getFirst, pipeline.go), and the message's statement waits for the COMMIT
// (deferred.go): a send is two round trips.
//
// What was read ahead is handed out only while no statement has run since the batch (start
// drops it): then nothing the transaction did could have changed it, and it is what a read a
// moment earlier in the same transaction returned (on SERIALIZABLE and REPEATABLE READ the
// same snapshot; on READ COMMITTED one the later read could equally have had). The
// subscribers go to the read they stand for (same statement, same arguments); the id and
// bounds to the channel's next message. A reserved id left unused is a gap in the ids, as a
// rolled-back insert leaves.

var _ storage.Prefetcher = (*readTx)(nil)

// readAhead is an announced read: its statement and, once read (done), its result.
type readAhead struct {
	statement
	done bool

	subs []channels.Subscription // PrefetchSubscribers (the customized ones on PostgreSQL)

	subscribersOf channels.ID // PrefetchSubscribers on PostgreSQL: the channel's active
	ids           []users.ID  // subscribers, its customized ones in subs (ahead_subscribers.go)
	countOf       channels.ID // and its subscriber count, once the list is taken
	count         int

	channel channels.ID // PrefetchChannelMessage: the channel, a reserved id, the bounds
	id      messages.ID
	bounds  storage.ChannelActivity
}

// announce adds a read to the transaction's first batch; PostgreSQL only, before the first
// statement.
func (t *txn) announce(a *readAhead) {
	if t.pg == nil || t.pg.begun {
		return
	}
	t.ahead = append(t.ahead, a)
}

// PrefetchSubscribers announces ListForChannels([]channels.ID{c}, true); on PostgreSQL the
// ActiveSubscribers([]channels.ID{c}) a send reads it for (ahead_subscribers.go).
func (r *readTx) PrefetchSubscribers(c channels.ID) {
	if r.t.d.postgres {
		r.prefetchSubscriberList(c)
		return
	}
	a := &readAhead{}
	a.query, a.args = subscriptionTx{r.t}.forChannels([]channels.ID{c}, true)
	a.rows = func(rows pgx.Rows) error {
		for rows.Next() {
			s, err := scanSubscriptionFrom(rows)
			if err != nil {
				return err
			}
			a.subs = append(a.subs, s)
		}
		return rows.Err()
	}
	r.t.announce(a)
}

// PrefetchChannelMessage announces a message to c: its id is reserved and its channel's
// bounds read (as Bounds does) ahead.
func (r *readTx) PrefetchChannelMessage(c channels.ID) {
	r.t.lockChannel(c)
	a := &readAhead{channel: c, bounds: storage.ChannelActivity{ChannelID: c}}
	a.query = r.t.d.reserveMessage
	a.args = []any{c, c}
	a.rows = func(rows pgx.Rows) error {
		if !rows.Next() {
			return rows.Err()
		}
		return rows.Scan(&a.id, &a.bounds.FirstMessageID, &a.bounds.LastTimestamp)
	}
	r.t.announce(a)
}

// reserveMessageQuery is the statement of PrefetchChannelMessage, sequence naming the
// messages' id sequence.
func reserveMessageQuery(sequence string) string {
	return `SELECT nextval(` + sequence + `),
		COALESCE((SELECT id FROM messages WHERE channel_id = ? ORDER BY id LIMIT 1), 0),
		COALESCE((SELECT timestamp FROM messages WHERE channel_id = ? ORDER BY id DESC LIMIT 1), 0)`
}

// take removes and returns the first read ahead that match accepts, when it was read and
// may still be used.
func (t *txn) take(match func(*readAhead) bool) (*readAhead, bool) {
	i := slices.IndexFunc(t.ahead, match)
	if i < 0 {
		return nil, false
	}
	a := t.ahead[i]
	t.ahead = slices.Delete(t.ahead, i, i+1)
	return a, a.done && len(t.pending) == 0
}

// takeSubscribers returns the rows read ahead for query with args, if any.
func (t *txn) takeSubscribers(query string, args []any) ([]channels.Subscription, bool) {
	a, ok := t.take(func(a *readAhead) bool {
		return a.channel == 0 && a.subscribersOf == 0 && a.countOf == 0 && a.query == query && slices.Equal(a.args, args)
	})
	if !ok {
		return nil, false
	}
	return a.subs, true
}

// takeMessage returns the id reserved and the bounds read ahead for a message to c, if any.
func (t *txn) takeMessage(c channels.ID) (*readAhead, bool) {
	a, ok := t.take(func(a *readAhead) bool { return a.channel == c && c != 0 })
	if !ok || a.id == 0 {
		return nil, false
	}
	return a, true
}
