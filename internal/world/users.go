package world

import (
	"cmp"
	"errors"
	"sort"
	"strings"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// userCache is the world's users. Users are the largest table after subscriptions: the world
// reads them one at a time as decisions name them (lookup), in sets when a decision names
// several at once (preloadUsers), and all of them for decisions that touch many (allUsers, or
// lookup past LazyUserReads single reads). Read users through the world's methods, never from
// the fields.
type userCache struct {
	r storage.UserReader
	// known holds the users read so far; once allRead, only those not in all (the
	// notification bot, users the transaction made known later).
	known   map[users.ID]users.User
	all     []users.User // every user, ascending by id, once allRead
	allRead bool
	reads   int // users read one at a time
}

// LazyUserReads is how many users a world reads one at a time before it reads them all.
const LazyUserReads = 32

// newUserCache is the users of r, none read yet; known, when not nil, is an earlier world's map
// to reuse (it is cleared).
func newUserCache(r storage.UserReader, known map[users.ID]users.User) userCache {
	if known == nil {
		known = make(map[users.ID]users.User, 3)
	}
	clear(known)
	// The system bots are senders of messages, not members.
	addSystemBots(known)
	return userCache{r: r, known: known}
}

// addSystemBots makes the system bots known.
func addSystemBots(known map[users.ID]users.User) {
	for _, b := range SystemBots() {
		known[b.ID] = b
	}
}

// Lookup returns the user with id (ok false when there is none).
func (w *World) Lookup(id users.ID) (users.User, bool) {
	c := &w.users
	if c.allRead {
		if i, ok := c.indexOf(id); ok {
			return c.all[i], true
		}
	}
	if u, ok := c.known[id]; ok || c.allRead || w.Failed() {
		return u, ok
	}
	if c.reads++; c.reads > LazyUserReads {
		w.AllUsers()
		return w.lookupKnown(id)
	}
	u, err := c.r.Get(id)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, false
	}
	if w.Fail(err) {
		return users.User{}, false
	}
	c.known[id] = u
	return u, true
}

// KnowUser records u, read in this transaction before the world (the acting user, by the
// operation's gate), unless the world has read u already.
func (w *World) KnowUser(u users.User) {
	if u.ID == 0 {
		return
	}
	if _, ok := w.lookupKnown(u.ID); !ok {
		w.users.known[u.ID] = u
	}
}

// lookupKnown returns the user with id if the world has read it, without reading.
func (w *World) lookupKnown(id users.ID) (users.User, bool) {
	c := &w.users
	if c.allRead {
		if i, ok := c.indexOf(id); ok {
			return c.all[i], true
		}
	}
	u, ok := c.known[id]
	return u, ok
}

// indexOf finds the user with id in all (read). Ids are mostly consecutive, so the first
// guess is the offset from the first id; else a binary search.
func (c *userCache) indexOf(id users.ID) (int, bool) {
	all := c.all
	if len(all) == 0 {
		return 0, false
	}
	if g := id - all[0].ID; g >= 0 && g < users.ID(len(all)) && all[g].ID == id {
		return int(g), true
	}
	i := sort.Search(len(all), func(i int) bool { return all[i].ID >= id })
	return i, i < len(all) && all[i].ID == id
}

// ByUserID orders a user against an id (for binary searches of lists ascending by id).
func ByUserID(u users.User, id users.ID) int { return cmp.Compare(u.ID, id) }

// User returns the user with id, or the zero User (inactive, no role) when there is none.
func (w *World) User(id users.ID) users.User {
	u, _ := w.Lookup(id)
	return u
}

// AllUsers returns every user, ascending by id. The list is shared with other transactions
// (UserReader.ListShared): read it, never modify it.
func (w *World) AllUsers() []users.User {
	c := &w.users
	if !c.allRead && !w.Failed() {
		all, err := c.r.ListShared() // read only: shared with other transactions
		if w.Fail(err) {
			return nil
		}
		// The list answers lookups from now on (binary searches): known keeps what it lacks.
		c.all, c.allRead = all, true
		clear(c.known)
		addSystemBots(c.known)
	}
	return c.all
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

// PreloadUsers reads the given users that are not read yet, in one read. Past LazyUserReads
// of them it takes the store's shared list of every user instead (allUsers), as lookup does:
// a send to a channel of a thousand then copies no user.
func (w *World) PreloadUsers(ids []users.ID) {
	c := &w.users
	if c.allRead || w.Failed() {
		return
	}
	missing := missingKeys(ids, c.known)
	if len(missing) == 0 {
		return
	}
	if len(missing) > LazyUserReads {
		w.AllUsers()
		return
	}
	list, err := c.r.GetMany(missing)
	if w.Fail(err) {
		return
	}
	for _, u := range list {
		c.known[u.ID] = u
	}
}

// UserByEmail finds a user by API email or delivery email, case-insensitively.
func (w *World) UserByEmail(email string) (users.User, bool) {
	c := &w.users
	if c.allRead {
		for _, u := range c.all {
			if strings.EqualFold(u.Email, email) || strings.EqualFold(w.APIEmail(u), email) {
				return u, true
			}
		}
		return users.User{}, false
	}
	// A placeholder address user{id}@{host} names the user whose API email it is.
	if id, ok := PlaceholderID(w.EmailDomain(), email); ok {
		if u, ok := w.Lookup(id); ok && strings.EqualFold(w.APIEmail(u), email) {
			return u, true
		}
	}
	if w.Failed() {
		return users.User{}, false
	}
	u, err := c.r.GetByEmail(email)
	if errors.Is(err, storage.ErrNotFound) {
		return users.User{}, false
	}
	if w.Fail(err) {
		return users.User{}, false
	}
	c.known[u.ID] = u
	return u, true
}

// MutersOf returns the users who muted sender, read once per transaction.
func (w *World) MutersOf(r storage.MutedUserReader, sender users.ID) ([]users.ID, error) {
	if list, ok := w.mutedBy[sender]; ok {
		return list, nil
	}
	if err := w.PreloadMuters(r, []users.ID{sender}); err != nil {
		return nil, err
	}
	return w.mutedBy[sender], nil
}

// PreloadMuters reads, in one read, who muted each of the given senders not read yet.
func (w *World) PreloadMuters(r storage.MutedUserReader, senders []users.ID) error {
	if w.mutedBy == nil {
		w.mutedBy = map[users.ID][]users.ID{}
	}
	missing := missingKeys(senders, w.mutedBy)
	if len(missing) == 0 {
		return nil
	}
	list, err := r.MutedBy(missing)
	if err != nil {
		return err
	}
	for _, id := range missing {
		w.mutedBy[id] = nil
	}
	for _, m := range list {
		w.mutedBy[m.MutedUserID] = append(w.mutedBy[m.MutedUserID], m.UserID)
	}
	return nil
}

// OfUsers is a world that knows only the given users (all of them, ascending by id) and reads
// nothing: for tests of decisions that need no more than users.
func OfUsers(all []users.User) *World {
	return &World{users: userCache{allRead: true, all: all}}
}

// ActiveUserIDs lists every active user (bots included), ascending by id.
func (w *World) ActiveUserIDs() []int64 {
	var out []int64
	for _, u := range w.AllUsers() {
		if u.IsActive {
			out = append(out, int64(u.ID))
		}
	}
	return out
}
