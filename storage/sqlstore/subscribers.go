package sqlstore

import (
	"slices"
	"sync"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Every message reads the active subscriptions of its channel (its recipients), a statement
// that was a seventh of a send's CPU on SQLite. A Store on SQLite keeps the active
// subscriptions it read per channel, with the version of the subscriptions table they were
// read at (table_versions, bumped by every write of the table inside the writing transaction,
// as for the list caches in cache.go), and answers a later read from them while the
// transaction sees that version: exactly what the transaction's snapshot holds, whichever
// process wrote last. A transaction that has written subscriptions reads them afresh. On
// PostgreSQL every read is a statement (a version row would be a hot spot there, cache.go).

// subscriptionsTable is the version row of the subscriptions table (SQLite only).
const subscriptionsTable cachedTable = "subscriptions"

// maxKeptSubscriptions bounds the rows a subscriberCache keeps; past it, it starts afresh.
const maxKeptSubscriptions = 50_000

// subscriberCache keeps active subscriptions per channel at one version.
type subscriberCache struct {
	mu        sync.Mutex
	version   int64
	rows      int
	byChannel map[channels.ID][]channels.Subscription
	// lists holds each kept channel's SubscriberList, shared with the callers of
	// ActiveSubscribers (never modified: a new version makes new lists).
	lists map[channels.ID]storage.SubscriberList
}

// activeSubscriptions is ListForChannels(list, true) through the Store's subscriberCache on
// SQLite: ok is false when the cache cannot answer (PostgreSQL, or a transaction that wrote
// subscriptions), and the caller reads as before.
func (a subscriptionTx) activeSubscriptions(list []channels.ID) (out []channels.Subscription, ok bool, err error) {
	t := a.t
	if t.d.postgres || t.wrote[subscriptionsTable] {
		return nil, false, nil
	}
	st, err := t.tableState()
	if err != nil {
		return nil, true, err
	}
	version, versioned := st.versions[subscriptionsTable]
	if !versioned {
		return nil, false, nil
	}
	want := slices.Clone(list)
	slices.Sort(want)
	want = slices.Compact(want)
	c := &t.cache.subscribers
	if out, hit := c.lookup(version, want); hit {
		return out, true, nil
	}
	read, err := a.readForChannels(want, true)
	if err != nil {
		return nil, true, err
	}
	c.keep(version, want, read)
	return read, true, nil
}

// lookup returns copies of the kept rows of want (ascending ids), when every one is kept at
// version.
func (c *subscriberCache) lookup(version int64, want []channels.ID) ([]channels.Subscription, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byChannel == nil || c.version != version {
		return nil, false
	}
	for _, id := range want {
		if _, kept := c.byChannel[id]; !kept {
			return nil, false
		}
	}
	var out []channels.Subscription
	for _, id := range want {
		out = appendSubscriptions(out, c.byChannel[id])
	}
	return out, true
}

// keep records read, the active subscriptions of the channels want (ascending ids) as a
// transaction saw them at version, unless the cache holds a newer version.
func (c *subscriberCache) keep(version int64, want []channels.ID, read []channels.Subscription) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byChannel != nil && version < c.version {
		return
	}
	if c.byChannel == nil || version > c.version || c.rows+len(read) > maxKeptSubscriptions {
		c.version, c.rows = version, 0
		c.byChannel, c.lists = map[channels.ID][]channels.Subscription{}, map[channels.ID]storage.SubscriberList{}
	}
	for _, id := range want {
		c.rows -= len(c.byChannel[id])
		c.byChannel[id] = nil // a channel without active subscriptions is kept too
		c.lists[id] = storage.SubscriberList{IDs: []users.ID{}}
	}
	for i := 0; i < len(read); {
		j := i
		for j < len(read) && read[j].ChannelID == read[i].ChannelID {
			j++
		}
		c.byChannel[read[i].ChannelID] = appendSubscriptions(nil, read[i:j])
		i = j
	}
	for i, l := range storage.SubscriberListsOf(want, read) {
		c.lists[want[i]] = l
	}
	c.rows += len(read)
}

// ActiveSubscribers answers from the subscriberCache on SQLite (shared lists, no row
// copied), else from ListForChannels.
func (a subscriptionTx) ActiveSubscribers(list []channels.ID) ([]storage.SubscriberList, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	if out, ok, err := a.keptSubscribers(list); ok || err != nil {
		return out, err
	}
	if len(list) == 1 {
		if l, ok := a.t.takeSubscriberList(list[0]); ok {
			return []storage.SubscriberList{l}, a.t.live()
		}
	}
	rows, err := a.ListForChannels(list, true)
	if err != nil {
		return nil, err
	}
	return storage.SubscriberListsOf(list, rows), nil
}

// keptSubscribers is activeSubscriptions for ActiveSubscribers: ok is false when the cache
// cannot answer.
func (a subscriptionTx) keptSubscribers(list []channels.ID) (out []storage.SubscriberList, ok bool, err error) {
	t := a.t
	if len(list) == 0 || t.d.postgres || t.wrote[subscriptionsTable] {
		return nil, false, nil
	}
	st, err := t.tableState()
	if err != nil {
		return nil, true, err
	}
	version, versioned := st.versions[subscriptionsTable]
	if !versioned {
		return nil, false, nil
	}
	c := &t.cache.subscribers
	if out, hit := c.lookupLists(version, list); hit {
		return out, true, nil
	}
	want := slices.Clone(list)
	slices.Sort(want)
	want = slices.Compact(want)
	read, err := a.readForChannels(want, true)
	if err != nil {
		return nil, true, err
	}
	c.keep(version, want, read)
	return storage.SubscriberListsOf(list, read), true, nil
}

// lookupLists returns the kept lists of list's channels, in order, when every one is kept at
// version.
func (c *subscriberCache) lookupLists(version int64, list []channels.ID) ([]storage.SubscriberList, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byChannel == nil || c.version != version {
		return nil, false
	}
	out := make([]storage.SubscriberList, len(list))
	for i, id := range list {
		l, kept := c.lists[id]
		if !kept {
			return nil, false
		}
		out[i] = l
	}
	return out, true
}

// appendSubscriptions appends copies of list to out (the optional settings copied too, so
// that neither side shares them).
func appendSubscriptions(out, list []channels.Subscription) []channels.Subscription {
	for _, s := range list {
		s.DesktopNotifications = clonedBool(s.DesktopNotifications)
		s.AudibleNotifications = clonedBool(s.AudibleNotifications)
		s.PushNotifications = clonedBool(s.PushNotifications)
		s.EmailNotifications = clonedBool(s.EmailNotifications)
		s.WildcardMentionsNotify = clonedBool(s.WildcardMentionsNotify)
		out = append(out, s)
	}
	return out
}

func clonedBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}
