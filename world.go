package chat

import (
	"errors"
	"slices"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// world is what channel decisions need from one transaction: the organization, every group
// (as a Membership), every channel, and, read as they are needed, the users and the channels'
// subscribers.
//
// Users and subscriptions are the largest tables (subscriptions: every user times their
// channels). The world reads users one at a time as decisions name them, and all of them only
// for decisions that touch many (see lookup); it never reads all subscriptions. It reads a channel's subscriber list when a decision needs that channel's
// subscribers (watchers, subscriber lists, fan-out), a user's own subscriptions when decisions
// about many channels are made for one user (preloadUser: register, channel lists), and the
// subscriber counts of every channel in one read of the counts the store maintains.
//
// A read that fails in the middle of a decision panics with a worldLoadError, which view and
// update turn back into the transaction's error (recoverWorld): the transaction fails as if
// the read had been made up front, and the world's methods stay free of error plumbing.
type world struct {
	realm realms.Realm
	// known holds the users read so far; all every user, ascending by id, once allRead.
	// (Read users through lookup, user and allUsers, never from the fields.)
	// Decisions about a few users read just those (lookup); one that touches many reads
	// them all at once (allUsers, or lookup past lazyUserReads).
	ur        storage.UserReader
	known     map[users.ID]users.User
	all       []users.User
	allRead   bool
	reads     int // users read one at a time
	groups    []users.Group
	groupByNm map[string]users.GroupID
	groupName map[users.GroupID]string
	m         *users.Membership
	channels  []channels.Channel
	byName    map[string]int // NormalizeName → index in channels
	byID      map[channels.ID]int
	linkify   markdown.Linkify // the organization's linkifiers; nil when none
	// described memoizes rendered channel descriptions by source (a channel's record is built
	// once per subscriber of an event).
	described map[string]string

	subs storage.SubscriptionReader
	// lists holds the active subscribers (ascending) of the channels read so far (read
	// them through subscribersOf and isSubscribed).
	lists map[channels.ID][]users.ID
	// subscribedTo holds the channels each preloaded user is actively subscribed to;
	// userSubReads counts those read by isSubscribed.
	subscribedTo map[users.ID]map[channels.ID]bool
	userSubReads int
	// counts is the store's subscriber counts, read on first use (nil before); listCounts
	// memoizes counts taken from lists (a list's entry goes when the list changes).
	counts     map[channels.ID]int
	listCounts map[channels.ID]int

	// msgs reads the channels' message activity (first_message_id, is_recently_active,
	// stream_weekly_traffic) when a record needs it, as of now (UNIX seconds, the operation's
	// time).
	msgs     storage.MessageReader
	activity map[channels.ID]storage.ChannelActivity
	now      int64

	// mutedBy memoizes who muted each sender of this transaction's messages (nil before the
	// first; deliverMessage), for transactions that send many (the scheduler).
	mutedBy map[users.ID][]users.ID
}

// worldLoadError carries a failed read of the world out of a decision (see world).
type worldLoadError struct{ err error }

// recoverWorld turns a worldLoadError panic into *err; other panics go on. It is deferred by
// the transaction functions of view and update.
func recoverWorld(err *error) {
	if r := recover(); r != nil {
		we, ok := r.(worldLoadError)
		if !ok {
			panic(r)
		}
		*err = we.err
	}
}

// must stops the current decision when a read of the world failed.
func (w *world) must(err error) {
	if err != nil {
		panic(worldLoadError{err})
	}
}

// lazyUserReads is how many users a world reads one at a time before it reads them all.
const lazyUserReads = 32

// loadWorld reads the world. The readers come from one transaction (read-only or not).
func loadWorld(rr storage.RealmReader, ur storage.UserReader, gr storage.GroupReader, cr storage.ChannelReader,
	sr storage.SubscriptionReader, lr storage.LinkifierReader, mr storage.MessageReader, now time.Time) (*world, error) {
	realm, err := rr.Get()
	if err != nil {
		return nil, err
	}
	groups, err := gr.List()
	if err != nil {
		return nil, err
	}
	chs, err := cr.List()
	if err != nil {
		return nil, err
	}
	w := &world{
		realm: realm, ur: ur, known: map[users.ID]users.User{}, groups: groups,
		groupByNm: map[string]users.GroupID{}, groupName: map[users.GroupID]string{},
		channels: chs, byName: make(map[string]int, len(chs)), byID: make(map[channels.ID]int, len(chs)),
		subs: sr, lists: map[channels.ID][]users.ID{}, subscribedTo: map[users.ID]map[channels.ID]bool{},
	}
	w.known[NotificationBotID] = notificationBot // a sender of messages, not a member
	for _, g := range groups {
		w.groupByNm[g.Name] = g.ID
		w.groupName[g.ID] = g.Name
	}
	w.realm.ApplyDefaultGroups(func(name string) users.GroupID { return w.groupByNm[name] })
	w.m = users.NewMembershipFunc(groups, func(id users.ID) bool { return w.user(id).IsActive })
	for i, c := range chs {
		w.byName[channels.NormalizeName(c.Name)] = i
		w.byID[c.ID] = i
	}
	w.msgs, w.now = mr, now.Unix()
	w.linkify, err = linkifyFunc(lr)
	return w, err
}

// loadWorldRead loads the world in a read-only transaction, for an operation at now.
func loadWorldRead(tx storage.ReadTx, now time.Time) (*world, error) {
	return loadWorld(tx.Realm(), tx.Users(), tx.Groups(), tx.Channels(), tx.Subscriptions(), tx.Linkifiers(), tx.Messages(), now)
}

// loadWorldWrite loads the world in a read-write transaction, for an operation at now.
func loadWorldWrite(tx storage.Tx, now time.Time) (*world, error) {
	return loadWorld(tx.Realm(), tx.Users(), tx.Groups(), tx.Channels(), tx.Subscriptions(), tx.Linkifiers(), tx.Messages(), now)
}

// actorWorldRead loads the acting user (loadActor) and the world of a read-only transaction.
func actorWorldRead(tx storage.ReadTx, actor Actor, now time.Time) (users.User, *world, error) {
	me, err := loadActor(tx.Users(), actor)
	if err != nil {
		return users.User{}, nil, err
	}
	w, err := loadWorldRead(tx, now)
	return me, w, err
}

// actorWorldWrite loads the acting user (loadActor) and the world of a read-write transaction.
func actorWorldWrite(tx storage.Tx, actor Actor, now time.Time) (users.User, *world, error) {
	me, err := loadActor(tx.Users(), actor)
	if err != nil {
		return users.User{}, nil, err
	}
	w, err := loadWorldWrite(tx, now)
	return me, w, err
}

// lookup returns the user with id (ok false when there is none).
func (w *world) lookup(id users.ID) (users.User, bool) {
	if u, ok := w.known[id]; ok || w.allRead {
		return u, ok
	}
	if w.reads++; w.reads > lazyUserReads {
		w.allUsers()
		u, ok := w.known[id]
		return u, ok
	}
	u, err := w.ur.Get(id)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, false
	}
	w.must(err)
	w.known[id] = u
	return u, true
}

// user returns the user with id, or the zero User (inactive, no role) when there is none.
func (w *world) user(id users.ID) users.User {
	u, _ := w.lookup(id)
	return u
}

// allUsers returns every user, ascending by id. The list belongs to the world.
func (w *world) allUsers() []users.User {
	if !w.allRead {
		all, err := w.ur.List()
		w.must(err)
		w.all, w.allRead = all, true
		clear(w.known)
		for _, u := range all {
			w.known[u.ID] = u
		}
		w.known[NotificationBotID] = notificationBot
	}
	return w.all
}

// missingKeys lists the keys among ids that m lacks.
func missingKeys[K comparable, V any](ids []K, m map[K]V) []K {
	var missing []K
	for _, id := range ids {
		if _, ok := m[id]; !ok {
			missing = append(missing, id)
		}
	}
	return missing
}

// preloadUsers reads the given users that are not read yet, in one read.
func (w *world) preloadUsers(ids []users.ID) {
	if w.allRead {
		return
	}
	missing := missingKeys(ids, w.known)
	if len(missing) == 0 {
		return
	}
	list, err := w.ur.GetMany(missing)
	w.must(err)
	for _, u := range list {
		w.known[u.ID] = u
	}
}

// preloadChannels reads the subscriber lists of the given channels that are not read yet, in
// one read.
func (w *world) preloadChannels(ids []channels.ID) {
	missing := missingKeys(ids, w.lists)
	if len(missing) == 0 {
		return
	}
	rows, err := w.subs.ListForChannels(missing, true)
	w.must(err)
	for _, id := range missing {
		w.lists[id] = []users.ID{}
	}
	// One backing array for every list (rows come grouped by channel); each list's capacity
	// ends at its length, so addSubscribers copies instead of overwriting the next.
	flat := make([]users.ID, len(rows))
	for i, s := range rows {
		flat[i] = s.UserID
	}
	for start := 0; start < len(rows); {
		end := start + 1
		for end < len(rows) && rows[end].ChannelID == rows[start].ChannelID {
			end++
		}
		w.lists[rows[start].ChannelID] = flat[start:end:end]
		start = end
	}
}

// preloadUser reads u's own active subscriptions, so that decisions about many channels for
// u do not read each channel's subscribers.
func (w *world) preloadUser(u users.ID) {
	if _, ok := w.subscribedTo[u]; ok || u == 0 {
		return
	}
	rows, err := w.subs.ListForUsers([]users.ID{u})
	w.must(err)
	w.noteUserRows(u, rows)
}

// noteUserRows records rows, every subscription row of u read in this transaction, as u's
// preloaded subscriptions.
func (w *world) noteUserRows(u users.ID, rows []channels.Subscription) {
	if _, ok := w.subscribedTo[u]; ok {
		return
	}
	set := make(map[channels.ID]bool, len(rows))
	for _, s := range rows {
		if s.Active {
			set[s.ChannelID] = true
		}
	}
	w.subscribedTo[u] = set
}

// subscribersOf is the active subscribers of c, ascending (deactivated users included; see
// activeSubscribers). The list belongs to the world: do not modify it.
func (w *world) subscribersOf(c channels.ID) []users.ID {
	l, ok := w.lists[c]
	if !ok {
		w.preloadChannels([]channels.ID{c})
		l = w.lists[c]
	}
	return l
}

// channel returns the channel with id (ok false when unknown).
func (w *world) channel(id channels.ID) (channels.Channel, bool) {
	i, ok := w.byID[id]
	if !ok {
		return channels.Channel{}, false
	}
	return w.channels[i], true
}

// setChannel records a created or changed channel in the world.
func (w *world) setChannel(c channels.Channel) {
	if i, ok := w.byID[c.ID]; ok {
		delete(w.byName, channels.NormalizeName(w.channels[i].Name))
		w.channels[i] = c
		w.byName[channels.NormalizeName(c.Name)] = i
		return
	}
	w.channels = append(w.channels, c)
	w.byID[c.ID] = len(w.channels) - 1
	w.byName[channels.NormalizeName(c.Name)] = len(w.channels) - 1
	if _, ok := w.lists[c.ID]; !ok {
		w.lists[c.ID] = []users.ID{} // a new channel has no subscribers yet
	}
}

// isSubscribed reports whether u is an active subscriber of c, from c's subscriber list when
// it is read, else from u's subscriptions when they are read. Otherwise it reads u's
// subscriptions (a user has far fewer than a large channel has subscribers), unless it has
// already read lazyUserReads users' subscriptions this way: a decision asking about many
// users reads the channel's list instead.
func (w *world) isSubscribed(c channels.ID, u users.ID) bool {
	if l, ok := w.lists[c]; ok {
		_, found := slices.BinarySearch(l, u)
		return found
	}
	if set, ok := w.subscribedTo[u]; ok {
		return set[c]
	}
	if w.userSubReads < lazyUserReads {
		w.userSubReads++
		w.preloadUser(u)
		return w.subscribedTo[u][c]
	}
	_, found := slices.BinarySearch(w.subscribersOf(c), u)
	return found
}

// addSubscribers records new active subscribers.
func (w *world) addSubscribers(c channels.ID, ids []users.ID) {
	delete(w.listCounts, c)
	l := append(w.subscribersOf(c), ids...)
	slices.Sort(l)
	w.lists[c] = slices.Compact(l)
	for _, u := range ids {
		if set, ok := w.subscribedTo[u]; ok {
			set[c] = true
		}
	}
}

// removeSubscribers records unsubscriptions.
func (w *world) removeSubscribers(c channels.ID, ids []users.ID) {
	delete(w.listCounts, c)
	w.lists[c] = slices.DeleteFunc(slices.Clone(w.subscribersOf(c)), func(u users.ID) bool { return slices.Contains(ids, u) })
	for _, u := range ids {
		if set, ok := w.subscribedTo[u]; ok {
			delete(set, c)
		}
	}
}

// viewer is the access-rule view of u for channel c.
func (w *world) viewer(c channels.ID, u users.User) channels.Viewer {
	return channels.Viewer{User: u, Subscribed: w.isSubscribed(c, u.ID)}
}

func (w *world) metadata(c channels.Channel, u users.User) bool {
	return channels.HasMetadataAccess(w.m, c, w.viewer(c.ID, u))
}

func (w *world) content(c channels.Channel, u users.User) bool {
	return channels.HasContentAccess(w.m, c, w.viewer(c.ID, u))
}

// canSeeSubscribers reports whether u may know who is subscribed to c: metadata access and,
// for private channels, a subscription or the right to administer.
func (w *world) canSeeSubscribers(c channels.Channel, u users.User) bool {
	if !w.metadata(c, u) {
		return false
	}
	if !c.InviteOnly {
		return true
	}
	v := w.viewer(c.ID, u)
	return v.Subscribed || channels.CanAdminister(w.m, c, v) || u.Role.IsAdmin()
}

// watchers lists the active users with metadata access to c, ascending, leaving out skip.
func (w *world) watchers(c channels.Channel, skip []users.ID) []int64 {
	w.subscribersOf(c.ID) // one read instead of one per user
	all := w.allUsers()
	out := make([]int64, 0, len(all))
	for _, u := range all {
		if !u.IsActive || slices.Contains(skip, u.ID) {
			continue
		}
		if w.metadata(c, u) {
			out = append(out, int64(u.ID))
		}
	}
	return out
}

// activeSubscriberCount counts the non-deactivated subscribers of c: from its list when the
// world holds it (it may have changed in this transaction), else from the store's counts.
func (w *world) activeSubscriberCount(c channels.ID) int {
	if l, ok := w.lists[c]; ok {
		if n, ok := w.listCounts[c]; ok {
			return n
		}
		w.preloadUsers(l)
		n := 0
		for _, id := range l {
			if w.user(id).IsActive {
				n++
			}
		}
		if w.listCounts == nil {
			w.listCounts = map[channels.ID]int{}
		}
		w.listCounts[c] = n
		return n
	}
	if w.counts == nil {
		counts, err := w.subs.Counts()
		w.must(err)
		w.counts = counts
	}
	return w.counts[c]
}

// groupID returns the id of a system group by name.
func (w *world) groupID(name string) users.GroupID { return w.groupByNm[name] }
