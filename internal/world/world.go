package world

import (
	"iter"
	"slices"
	"sort"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// World is what decisions need from one transaction: the organization, every group (as a
// Membership), every channel, and, read as decisions name them, the users (users.go), the
// channels' subscribers (subscribers.go) and the channels' message activity (activity.go). An
// operation gets it from its op (engine.ReadOp.World), which reads it on first
// use.
//
// A read that fails in the middle of a decision is kept as the world's sticky error (Fail);
// the reading method returns a zero value, the world reads nothing more, and the operation's
// helper (read, mutate) returns the error when the operation's closure returns, so the
// transaction fails as if the read had been made up front while the world's methods stay free
// of error plumbing. Nothing panics.
type World struct {
	err error // the first failed read (see fail)

	realm realms.Realm
	// emailDomain is the domain of the world's made-up addresses (EmailDomain); empty until
	// UseFakeEmailDomain or EmailDomain sets it.
	emailDomain string
	groups      []users.Group            // ascending by id (GroupReader.ListShared)
	groupByNm   map[string]users.GroupID // nil until groupID
	m           *users.Membership
	channels    []channels.Channel
	// sharedChannels says channels is the store's shared list (LoadShared): read only,
	// sorted by id, byID and byName nil until needed.
	sharedChannels bool
	byName         map[string]int // NormalizeName → index in channels
	byID           map[channels.ID]int
	// byNameOrder is the indices of channels ordered by name (nil until channelsByName;
	// setChannel drops it).
	byNameOrder []int
	// linkify is the organization's linkifiers (nil when none), compiled from linkifierList,
	// as the store listed them, on first use (compiled says it is): a send whose content was
	// rendered before its transaction (checked against linkifierList: messages_prerender.go)
	// compiles nothing.
	linkify       markdown.Linkify
	compiled      bool
	linkifierList []linkifiers.Linkifier
	// Pre is the early rendering of the content that this transaction sends (nil but in
	// SendMessage's).
	Pre EarlyRendering
	// described memoizes rendered channel descriptions by source (a channel's record is built
	// once per subscriber of an event).
	described map[string]string
	// emptyDescription is the rendered empty description, once emptyDescribed.
	emptyDescription string
	emptyDescribed   bool

	users    userCache
	subs     subscriberCache
	activity activityCache

	// mutedBy memoizes who muted each sender of this transaction's messages (nil before the
	// first; deliverMessage), for transactions that send many (the scheduler).
	mutedBy map[users.ID][]users.ID
}

// Fail records err (when not nil) as the world's sticky error, unless one is recorded already,
// and reports whether the world has failed.
func (w *World) Fail(err error) bool {
	if w.err == nil {
		w.err = err
	}
	return w.err != nil
}

// Failed reports whether a read of the world failed; the world reads nothing more then.
func (w *World) Failed() bool { return w.err != nil }

// Load reads the world from tx, for an operation at now. A failed read comes back as the
// world's sticky error: the world is empty but usable.
func Load(tx storage.ReadTx, now int64) *World {
	return LoadWith(tx, now, tx.Channels().List)
}

// LoadShared is Load over the store's shared channel list (ChannelReader.ListShared)
// as it is, for operations that only read (register, GET /users/me/subscriptions) and for
// sends, which change channels only through setChannel (readOp.sharedWorld): no channel
// is copied and no index over them is built up front (channel looks an id up in the list,
// which is sorted by id; channelByName indexes the names on first use). Nothing may modify a
// channel's slices; setChannel copies the list before its first change.
func LoadShared(tx storage.ReadTx, now int64) *World {
	return LoadWith(tx, now, nil)
}

// LoadWith is Load with the channels that listChannels reads (nil: the store's
// shared list, LoadShared).
func LoadWith(tx storage.ReadTx, now int64, listChannels func() ([]channels.Channel, error)) *World {
	return LoadInto(new(World), tx, now, listChannels)
}

// LoadInto is LoadWith into w, a zero world (one reused from an earlier read:
// GetSubscriptions keeps them in a pool, the world being two kilobytes) but for its map of the
// users read, which it reuses when not nil.
func LoadInto(w *World, tx storage.ReadTx, now int64, listChannels func() ([]channels.Channel, error)) *World {
	w.users = newUserCache(tx.Users(), w.users.known)
	w.subs = newSubscriberCache(tx.Subscriptions())
	w.activity = activityCache{r: tx.Messages(), now: now}
	if listChannels == nil {
		w.sharedChannels = true
		listChannels = tx.Channels().ListShared
	}
	realm, err := tx.Realm().Get()
	if w.Fail(err) {
		return w
	}
	groups, err := tx.Groups().ListShared() // read only: shared with other transactions
	if w.Fail(err) {
		return w
	}
	chs, err := listChannels()
	if w.Fail(err) {
		return w
	}
	linkifierList, err := tx.Linkifiers().List()
	if w.Fail(err) {
		return w
	}
	w.realm, w.groups, w.channels, w.emailDomain = realm, groups, chs, ""
	w.linkifierList = linkifierList
	w.realm.ApplyDefaultGroups(w.GroupID)
	if !w.sharedChannels {
		w.index()
	}
	return w
}

// index builds the channels' indexes by id and by name.
func (w *World) index() {
	w.byID = make(map[channels.ID]int, len(w.channels))
	w.byName = make(map[string]int, len(w.channels))
	for i, c := range w.channels {
		w.byName[channels.NormalizeName(c.Name)] = i
		w.byID[c.ID] = i
	}
}

// indexOf finds the channel with id in the list: from the index, or in a shared world (no
// index by id) by binary search, the list being sorted by id.
func (w *World) indexOf(id channels.ID) (int, bool) {
	if w.byID != nil {
		i, ok := w.byID[id]
		return i, ok
	}
	l := w.channels
	// sort.Search over indexes: a search function taking a Channel by value would copy the
	// kilobyte-sized struct on every comparison.
	i := sort.Search(len(l), func(k int) bool { return l[k].ID >= id })
	return i, i < len(l) && l[i].ID == id
}

// Org is the organization.
func (w *World) Org() realms.Realm { return w.realm }

// UseFakeEmailDomain sets the server's fake email domain (its FAKE_EMAIL_DOMAIN), the fallback
// of the world's made-up addresses (EmailDomain), and returns w. The engine sets it on every
// world it loads.
func (w *World) UseFakeEmailDomain(fake string) *World {
	w.emailDomain = w.realm.EmailDomain(fake)
	return w
}

// EmailDomain is the domain of the addresses the server makes up (bots' addresses, the
// placeholders of hidden addresses): realms.Realm.EmailDomain with the server's fake email
// domain (UseFakeEmailDomain; none when it was not set).
func (w *World) EmailDomain() string {
	if w.emailDomain == "" {
		w.emailDomain = w.realm.EmailDomain("")
	}
	return w.emailDomain
}

// APIEmail is u's API email (see the function APIEmail) in this world's organization.
func (w *World) APIEmail(u users.User) string { return APIEmail(w.EmailDomain(), u) }

// Membership answers group membership questions (who is in a group, directly or not). It is
// built on first use (reads of a user's own subscriptions never need it).
func (w *World) Membership() *users.Membership {
	if w.m == nil {
		w.m = users.NewSortedMembershipFunc(w.groups, func(id users.ID) bool { return w.User(id).IsActive })
	}
	return w.m
}

// AllGroups is every group, as listed by the store. The list and its groups' slices are
// shared with other transactions (GroupReader.ListShared): read them, never modify them.
func (w *World) AllGroups() []users.Group { return w.groups }

// GroupID returns the id of a group by name (0 when there is none). The names are indexed on
// first use (most reads need none: a record names its groups by id).
func (w *World) GroupID(name string) users.GroupID {
	if w.groupByNm == nil {
		w.groupByNm = make(map[string]users.GroupID, len(w.groups))
		for _, g := range w.groups {
			w.groupByNm[g.Name] = g.ID
		}
	}
	return w.groupByNm[name]
}

// GroupNameOf returns the name of a group ("" when there is none), by binary search over the
// groups (ascending by id).
func (w *World) GroupNameOf(id users.GroupID) string {
	l := w.groups
	// sort.Search over indexes, as indexOf: a group is too large to pass by value per step.
	i := sort.Search(len(l), func(k int) bool { return l[k].ID >= id })
	if i < len(l) && l[i].ID == id {
		return l[i].Name
	}
	return ""
}

// Linkifiers is the organization's linkifiers (nil when it has none), compiled on first use.
func (w *World) Linkifiers() markdown.Linkify {
	if !w.compiled {
		w.linkify, w.compiled = CompileLinkifiers(w.linkifierList), true
	}
	return w.linkify
}

// UseLinkifiers makes linkify w's compiled linkifiers; it must have been compiled from a list
// equal to w.linkifierList (a send takes the Service's snapshot: messages_prerender.go).
func (w *World) UseLinkifiers(linkify markdown.Linkify) {
	w.linkify, w.compiled = linkify, true
}

// AllChannels is every channel, archived ones included. The list belongs to the world.
func (w *World) AllChannels() []channels.Channel { return w.channels }

// ChannelsByName yields every channel (as allChannels), ordered by name, for reading only:
// lists of records built in this order need no sort (moving records of a kilobyte each cost
// more than building them). The order is sorted once per world (its indices: a channel is
// large too).
func (w *World) ChannelsByName() iter.Seq[*channels.Channel] {
	if w.byNameOrder == nil {
		order := make([]int, len(w.channels))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(w.channels[a].Name, w.channels[b].Name) })
		w.byNameOrder = order
	}
	return func(yield func(*channels.Channel) bool) {
		for _, i := range w.byNameOrder {
			if !yield(&w.channels[i]) {
				return
			}
		}
	}
}

// Channel returns the channel with id (ok false when unknown).
func (w *World) Channel(id channels.ID) (channels.Channel, bool) {
	i, ok := w.indexOf(id)
	if !ok {
		return channels.Channel{}, false
	}
	return w.channels[i], true
}

// ChannelPtr returns the world's channel with id (nil when unknown), for reading only: it
// saves decisions that read many channels a copy of each.
func (w *World) ChannelPtr(id channels.ID) *channels.Channel {
	i, ok := w.indexOf(id)
	if !ok {
		return nil
	}
	return &w.channels[i]
}

// ChannelByName returns the channel with a name (compared as channels.NormalizeName does; ok
// false when unknown).
func (w *World) ChannelByName(name string) (channels.Channel, bool) {
	if w.byName == nil {
		w.index()
	}
	i, ok := w.byName[channels.NormalizeName(name)]
	if !ok {
		return channels.Channel{}, false
	}
	return w.channels[i], true
}

// SetChannel records a created or changed channel in the world.
func (w *World) SetChannel(c channels.Channel) {
	w.byNameOrder = nil
	if w.sharedChannels { // the store's list: copy it before changing it
		w.channels, w.sharedChannels = slices.Clone(w.channels), false
		w.index()
	}
	if i, ok := w.byID[c.ID]; ok {
		delete(w.byName, channels.NormalizeName(w.channels[i].Name))
		w.channels[i] = c
		w.byName[channels.NormalizeName(c.Name)] = i
		return
	}
	w.channels = append(w.channels, c)
	w.byID[c.ID] = len(w.channels) - 1
	w.byName[channels.NormalizeName(c.Name)] = len(w.channels) - 1
	w.subs.created(c.ID)
}

// Viewer is the access-rule view of u for channel c.
func (w *World) Viewer(c channels.ID, u users.User) channels.Viewer {
	return channels.Viewer{User: u, Subscribed: w.IsSubscribed(c, u.ID)}
}

func (w *World) Metadata(c channels.Channel, u users.User) bool {
	return channels.HasMetadataAccess(w.Membership(), c, w.Viewer(c.ID, u))
}

func (w *World) Content(c channels.Channel, u users.User) bool {
	return channels.HasContentAccess(w.Membership(), c, w.Viewer(c.ID, u))
}

// CanSeeSubscribers reports whether u may know who is subscribed to c: metadata access and,
// for private channels, a subscription or the right to administer.
func (w *World) CanSeeSubscribers(c channels.Channel, u users.User) bool {
	if !w.Metadata(c, u) {
		return false
	}
	if !c.InviteOnly {
		return true
	}
	v := w.Viewer(c.ID, u)
	return v.Subscribed || channels.CanAdminister(w.Membership(), c, v) || u.Role.IsAdmin()
}

// Watchers lists the active users with metadata access to c, ascending, leaving out skip.
func (w *World) Watchers(c channels.Channel, skip []users.ID) []int64 {
	w.SubscribersOf(c.ID) // one read instead of one per user
	all := w.AllUsers()
	out := make([]int64, 0, len(all))
	for _, u := range all {
		if !u.IsActive || slices.Contains(skip, u.ID) {
			continue
		}
		if w.Metadata(c, u) {
			out = append(out, int64(u.ID))
		}
	}
	return out
}

// RenderDescription renders a channel description with the organization's linkifiers, once
// per source text in the world's transaction.
func (w *World) RenderDescription(src string) string {
	if src == "" { // most channels: no map for it
		if !w.emptyDescribed {
			w.emptyDescription, w.emptyDescribed = markdown.RenderLinkified("", w.Linkifiers()), true
		}
		return w.emptyDescription
	}
	if html, ok := w.described[src]; ok {
		return html
	}
	if w.described == nil {
		w.described = map[string]string{}
	}
	html := markdown.RenderLinkified(src, w.Linkifiers())
	w.described[src] = html
	return html
}

// Err is the world's sticky error: the first read that failed (nil: none).
func (w *World) Err() error { return w.err }

// LinkifierList is the organization's linkifiers as the store listed them.
func (w *World) LinkifierList() []linkifiers.Linkifier { return w.linkifierList }

// Reset zeroes a world for reuse by another transaction (a pooled world: GetSubscriptions),
// keeping its map of known users, which the next load clears.
func (w *World) Reset() {
	known := w.users.known
	*w = World{}
	w.users.known = known
}

// TrimKnown drops the map of known users when it holds more than max users (a large map is
// left to the collector rather than kept in a pool).
func (w *World) TrimKnown(max int) {
	if len(w.users.known) > max {
		w.users.known = nil
	}
}

// HistoryChannels lists the channels whose whole history u may read: content access and a
// history that is public (to subscribers).
func (w *World) HistoryChannels(u users.User) []channels.ID {
	var out []channels.ID
	for _, c := range w.AllChannels() {
		if (!c.InviteOnly || c.HistoryPublicToSubscribers) && w.Content(c, u) {
			out = append(out, c.ID)
		}
	}
	return out
}

// CanRead reports whether u may read m: received (u has a row for it), or in a channel whose
// history u may read.
func (w *World) CanRead(u users.User, m messages.Message, received bool) bool {
	if received {
		return true
	}
	if m.IsDirect() {
		return false
	}
	c, ok := w.Channel(m.ChannelID)
	return ok && (!c.InviteOnly || c.HistoryPublicToSubscribers) && w.Content(c, u)
}
