package world

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// subscriberCache is the world's subscriptions, the largest table (every user times their
// channels); the world never reads all of it. It reads a channel's subscriber list when a
// decision needs that channel's subscribers (watchers, subscriber lists, fan-out), a user's
// own subscriptions when decisions about many channels are made for one user (preloadUser:
// register, channel lists), and the subscriber counts of every channel in one read of the
// counts the store maintains. Read them through the world's methods, never from the fields.
type subscriberCache struct {
	r storage.SubscriptionReader
	// lists holds the active subscribers (ascending) of the channels read so far.
	lists map[channels.ID][]users.ID
	// subscribedTo holds the channels each preloaded user is actively subscribed to;
	// userSubReads counts those read by isSubscribed.
	subscribedTo map[users.ID]map[channels.ID]bool
	userSubReads int
	// counts is the store's subscriber counts (nil before): every channel's once allCounts is
	// set (a channel left out has none). listCounts memoizes counts taken from lists (a list's
	// entry goes when the list changes).
	counts     map[channels.ID]int
	allCounts  bool
	listCounts map[channels.ID]int
	// prefs holds, per channel read into lists, the subscriptions that are muted or set
	// email_notifications (subscriber_prefs.go).
	prefs map[channels.ID]map[users.ID]SubscriberPrefs
}

func newSubscriberCache(r storage.SubscriptionReader) subscriberCache {
	return subscriberCache{r: r, lists: map[channels.ID][]users.ID{}, subscribedTo: map[users.ID]map[channels.ID]bool{}}
}

// created records a new channel, which has no subscribers yet.
func (c *subscriberCache) created(id channels.ID) {
	if _, ok := c.lists[id]; !ok {
		c.lists[id] = []users.ID{}
	}
}

// PreloadChannels reads the subscriber lists of the given channels that are not read yet, in
// one read.
func (w *World) PreloadChannels(ids []channels.ID) {
	c := &w.subs
	missing := missingKeys(ids, c.lists)
	if len(missing) == 0 || w.Failed() {
		return
	}
	// The store's lists may be shared with other transactions: each one's capacity ends at its
	// length, so AddSubscribers copies instead of writing into it.
	lists, err := storage.ActiveSubscribers(c.r, missing)
	if w.Fail(err) {
		return
	}
	for i, id := range missing {
		c.lists[id] = lists[i].IDs
		c.notePrefs(lists[i].Customized) // subscriber_prefs.go
	}
}

// PreloadUser reads u's own active subscriptions, so that decisions about many channels for
// u do not read each channel's subscribers.
func (w *World) PreloadUser(u users.ID) {
	if _, ok := w.subs.subscribedTo[u]; ok || u == 0 || w.Failed() {
		return
	}
	rows, err := w.subs.r.ListForUsers([]users.ID{u})
	if w.Fail(err) {
		return
	}
	w.NoteUserRows(u, rows)
}

// NoteUserRows records rows, every subscription row of u read in this transaction, as u's
// preloaded subscriptions.
func (w *World) NoteUserRows(u users.ID, rows []channels.Subscription) {
	if _, ok := w.subs.subscribedTo[u]; ok {
		return
	}
	set := make(map[channels.ID]bool, len(rows))
	for _, s := range rows {
		if s.Active {
			set[s.ChannelID] = true
		}
	}
	w.subs.subscribedTo[u] = set
}

// SubscriptionRows reads u's subscription rows, active or not (and notes the active ones).
func (w *World) SubscriptionRows(u users.ID) ([]channels.Subscription, error) {
	rows, err := w.subs.r.ListForUsers([]users.ID{u})
	if err == nil {
		w.NoteUserRows(u, rows)
	}
	return rows, err
}

// SubscribersOf is the active subscribers of c, ascending (deactivated users included; see
// activeSubscribers). The list is shared (with the store, and with the events addressed to
// it): never modify it; the world replaces it when it changes.
func (w *World) SubscribersOf(c channels.ID) []users.ID {
	l, ok := w.subs.lists[c]
	if !ok {
		w.PreloadChannels([]channels.ID{c})
		l = w.subs.lists[c]
	}
	return l
}

// IsSubscribed reports whether u is an active subscriber of c, from c's subscriber list when
// it is read, else from u's subscriptions when they are read. Otherwise it reads u's
// subscriptions (a user has far fewer than a large channel has subscribers), unless it has
// already read lazyUserReads users' subscriptions this way: a decision asking about many
// users reads the channel's list instead.
func (w *World) IsSubscribed(c channels.ID, u users.ID) bool {
	s := &w.subs
	if l, ok := s.lists[c]; ok {
		_, found := slices.BinarySearch(l, u)
		return found
	}
	if set, ok := s.subscribedTo[u]; ok {
		return set[c]
	}
	if s.userSubReads < LazyUserReads {
		s.userSubReads++
		w.PreloadUser(u)
		return s.subscribedTo[u][c]
	}
	_, found := slices.BinarySearch(w.SubscribersOf(c), u)
	return found
}

// AddSubscribers records new active subscribers. Like RemoveSubscribers it replaces c's
// list and never writes it: the lists SubscribersOf hands out are shared (a send's events are
// addressed to its channel's list), also those of this world.
func (w *World) AddSubscribers(c channels.ID, ids []users.ID) {
	s := &w.subs
	delete(s.listCounts, c)
	l := slices.Concat(w.SubscribersOf(c), ids)
	slices.Sort(l)
	s.lists[c] = slices.Clip(slices.Compact(l))
	for _, u := range ids {
		if set, ok := s.subscribedTo[u]; ok {
			set[c] = true
		}
	}
}

// RemoveSubscribers records unsubscriptions.
func (w *World) RemoveSubscribers(c channels.ID, ids []users.ID) {
	s := &w.subs
	delete(s.listCounts, c)
	s.lists[c] = slices.DeleteFunc(slices.Clone(w.SubscribersOf(c)), func(u users.ID) bool { return slices.Contains(ids, u) })
	for _, u := range ids {
		if set, ok := s.subscribedTo[u]; ok {
			delete(set, c)
		}
	}
}

// ActiveSubscriberCount counts the non-deactivated subscribers of c: from its list when the
// world holds it (it may have changed in this transaction), else from the store's counts.
func (w *World) ActiveSubscriberCount(c channels.ID) int {
	s := &w.subs
	if l, ok := s.lists[c]; ok {
		if n, ok := s.listCounts[c]; ok {
			return n
		}
		w.PreloadUsers(l)
		n := 0
		for _, id := range l {
			if w.User(id).IsActive {
				n++
			}
		}
		if s.listCounts == nil {
			s.listCounts = map[channels.ID]int{}
		}
		s.listCounts[c] = n
		return n
	}
	if n, ok := s.counts[c]; ok || s.allCounts {
		return n
	}
	if w.Failed() {
		return 0
	}
	counts, err := s.r.Counts()
	if w.Fail(err) {
		return 0
	}
	s.counts, s.allCounts = counts, true
	return s.counts[c]
}

// StoredActiveCount is the store's count of c's active subscribers held by active users
// (storage.SubscriptionReader.CountsOf), read now: it follows this transaction's writes. A
// list of c's subscribers as long as it holds no deactivated user, so a decision about a big
// channel can tell that without looking up each subscriber.
func (w *World) StoredActiveCount(c channels.ID) int {
	if w.Failed() {
		return 0
	}
	counts, err := w.subs.r.CountsOf([]channels.ID{c})
	if w.Fail(err) {
		return 0
	}
	return counts[c]
}

// SubscriptionReader is the transaction's reader of subscriptions, for counts the world does
// not keep.
func (w *World) SubscriptionReader() storage.SubscriptionReader { return w.subs.r }
