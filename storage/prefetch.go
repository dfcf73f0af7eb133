package storage

import "github.com/teamchat/chat/channels"

// Prefetcher is an optional capability of a transaction: reads announced before its first
// statement travel with that statement (sqlstore on PostgreSQL: in the same round trip as
// BEGIN and the check of its kept lists), and the announced reads later return what was read
// then: what they would have returned at the transaction's first statement. A store hands
// that out only while nothing the transaction did since could have changed it, and otherwise
// reads again. Announcing changes no result.
type Prefetcher interface {
	// PrefetchSubscribers announces the read of c's active subscribers:
	// SubscriptionReader.ListForChannels([]channels.ID{c}, true), or the
	// SubscriberListReader.ActiveSubscribers([]channels.ID{c}) that stands for it.
	PrefetchSubscribers(c channels.ID)
	// PrefetchChannelMessage announces a message to channel c: CreateInChannel's bounds (and
	// the message's id) may come from the transaction's first statement.
	PrefetchChannelMessage(c channels.ID)
}

// PrefetchSend announces, through tx's Prefetcher when it has one, the reads of a message to
// channel c: its active subscribers and the channel's bounds. Call it before the
// transaction's first read; it reads nothing itself.
func PrefetchSend(tx Tx, c channels.ID) {
	if p, ok := tx.(Prefetcher); ok {
		p.PrefetchSubscribers(c)
		p.PrefetchChannelMessage(c)
	}
}
