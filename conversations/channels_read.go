package conversations

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// PartialSubscribersThreshold is the subscriber count from which include_subscribers=partial
// sends partial_subscribers instead of subscribers; PartialSubscribersActiveDays is how
// recently a user must have been active (sent a message, joined) to be among them.
const (
	PartialSubscribersThreshold  = 250
	PartialSubscribersActiveDays = 14
)

// recentUsers reads, on first use, the users active since a time (for partial_subscribers):
// those whose recorded activity (a sent message, their creation) or reported presence is
// that recent.
type recentUsers struct {
	r     storage.UserReader
	p     storage.PresenceReader
	since time.Time
	set   map[users.ID]bool
}

// newRecentUsers reads from tx the users active in the PartialSubscribersActiveDays before now.
func newRecentUsers(tx storage.ReadTx, now time.Time) *recentUsers {
	return &recentUsers{r: tx.Users(), p: tx.Presence(), since: now.Add(-PartialSubscribersActiveDays * 24 * time.Hour)}
}

func (ru *recentUsers) has(w *world.World, id users.ID) bool {
	if ru.set == nil {
		ids, err := ru.r.ActiveSince(ru.since.Unix())
		if w.Fail(err) {
			return false
		}
		ru.set = make(map[users.ID]bool, len(ids))
		for _, u := range ids {
			ru.set[u] = true
		}
		ps, err := ru.p.List(storage.PresenceFilter{ConnectedSince: ru.since})
		if w.Fail(err) {
			return false
		}
		for _, p := range ps {
			if !p.LastActiveTime.Before(ru.since) {
				ru.set[p.UserID] = true
			}
		}
	}
	return ru.set[id]
}

// GetSubscriptionsParams are the parameters of GET /users/me/subscriptions.
type GetSubscriptionsParams struct {
	// IncludeSubscribers is "", "false", "true" or "partial".
	IncludeSubscribers string
}

// GetSubscriptionsResult lists the actor's active subscriptions, by channel name.
type GetSubscriptionsResult struct {
	Subscriptions []SubscriptionRecord `json:"subscriptions"`
	// json is the Service's cache of channel members' JSON (nil: encode every record).
	json *recordJSONCache
	// pool takes the records' array back on Release (nil: nowhere).
	pool *sync.Pool
}

// Release hands the records' array back to the Service for a later GetSubscriptions (the
// HTTP layer calls it once it has written the response: the array, twenty kilobytes for twenty
// subscriptions, was most of what a request allocated). Neither r nor a copy of it may be used
// afterwards. Not calling it is fine: the array is then collected as usual.
func (r GetSubscriptionsResult) Release() {
	if r.pool == nil || cap(r.Subscriptions) == 0 || cap(r.Subscriptions) > maxPooledRecords {
		return
	}
	l := r.Subscriptions[:0]
	r.pool.Put(&l)
}

// maxPooledRecords is the capacity of the largest records array kept for reuse.
const maxPooledRecords = 256

// pooledRecords returns a zeroed records slice of length n, from pool when it holds an array
// large enough.
func pooledRecords(pool *sync.Pool, n int) []SubscriptionRecord {
	if p, ok := pool.Get().(*[]SubscriptionRecord); ok && cap(*p) >= n {
		l := (*p)[:n]
		clear(l)
		return l
	}
	return make([]SubscriptionRecord, n)
}

// AppendJSON appends the result's JSON object, as encoding/json writes it, with the records'
// own encoders (and the JSON of records equal to ones written before: recordJSONCache).
func (r GetSubscriptionsResult) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"subscriptions":`...)
	if r.Subscriptions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Subscriptions {
			if i > 0 {
				b = append(b, ',')
			}
			b = r.Subscriptions[i].appendJSON(b, r.json)
		}
		b = append(b, ']')
	}
	return append(b, '}'), nil
}

// checkIncludeSubscribers validates include_subscribers.
func checkIncludeSubscribers(v string) error {
	switch v {
	case "", "false", "true", "partial":
		return nil
	}
	return engine.InvalidArgument("include_subscribers", "")
}

// GetSubscriptions lists the actor's subscriptions (archived channels included). Its world
// is the store's shared channel list (loadWorldShared): it copies no channel.
func (s *Service) GetSubscriptions(ctx context.Context, actor engine.Actor, p GetSubscriptionsParams) (GetSubscriptionsResult, error) {
	if err := checkIncludeSubscribers(p.IncludeSubscribers); err != nil {
		return GetSubscriptionsResult{}, err
	}
	res := GetSubscriptionsResult{json: &s.recordJSON, pool: &s.recordArrays}
	sc, _ := s.subscriptionReads.Get().(*subscriptionsScratch)
	if sc == nil {
		sc = new(subscriptionsScratch)
	}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, me := o.Tx, o.Me
		rows, err := userRows(tx.Subscriptions(), sc.rows[:0], me.ID)
		if err != nil {
			return err
		}
		sc.rows = rows
		// The world is zeroed here, not when it goes back to the pool: once per request. Its map
		// of users is cleared and kept.
		sc.w.Reset()
		o.UseWorld(world.LoadInto(&sc.w, tx, o.Now.Unix(), nil))
		var recent *recentUsers // partial subscriber lists alone ask who was active recently
		if p.IncludeSubscribers == "partial" {
			recent = newRecentUsers(tx, o.Now)
		}
		res.Subscriptions = activeSubscriptions(o.World(), me, rows, p.IncludeSubscribers, recent,
			func(n int) []SubscriptionRecord { return pooledRecords(&s.recordArrays, n) }, &sc.buffers)
		return nil
	})
	if cap(sc.rows) > maxPooledRecords {
		sc.rows, sc.buffers = nil, readBuffers{} // a user of many channels: left to the collector
	}
	sc.w.TrimKnown(maxPooledRecords) // a large map: left to the collector
	s.subscriptionReads.Put(sc)
	return res, err
}

// subscriptionsScratch is what a GetSubscriptions read reuses from an earlier one (a pool in
// the Service): its world (two kilobytes) and the buffers of the user's subscription rows and
// of their channels' facts. Nothing a result holds points into them: records copy the rows'
// fields (their notification settings point at the store's copies) and the facts' values, and
// hold the world's strings alone.
type subscriptionsScratch struct {
	w       world.World
	rows    []channels.Subscription
	buffers readBuffers
}

// readBuffers are activeSubscriptions' buffers.
type readBuffers struct {
	active []activeRow
	ids    []channels.ID
	facts  channelFacts
}

// userRowsAppender is a SubscriptionReader that appends one user's rows to a buffer of the
// caller's (the memory store).
type userRowsAppender interface {
	AppendForUser(dst []channels.Subscription, u users.ID) ([]channels.Subscription, error)
}

// userRows reads u's subscription rows (ListForUsers for u alone), into buf when r can append
// to it.
func userRows(r storage.SubscriptionReader, buf []channels.Subscription, u users.ID) ([]channels.Subscription, error) {
	if a, ok := r.(userRowsAppender); ok {
		return a.AppendForUser(buf, u)
	}
	return r.ListForUsers([]users.ID{u})
}

// activeSubscriptions renders viewer's active subscriptions (rows are every subscription row
// of viewer) by channel name, archived channels included, for GET /users/me/subscriptions;
// include is include_subscribers. What the records need of the channels (their activity,
// subscriber counts, subscriber lists) is read for those channels alone, each in one read,
// and used as read (no map of them is built); buf's buffers are reused. alloc returns a zeroed
// records slice of length n.
func activeSubscriptions(w *world.World, viewer users.User, rows []channels.Subscription, include string, recent *recentUsers, alloc func(n int) []SubscriptionRecord, buf *readBuffers) []SubscriptionRecord {
	withSubscribers := include == "true" || include == "partial"
	if withSubscribers {
		w.NoteUserRows(viewer.ID, rows) // for canSeeSubscribers
	}
	active := buf.active[:0]
	for i := range rows {
		if !rows[i].Active {
			continue
		}
		if c := w.ChannelPtr(rows[i].ChannelID); c != nil {
			active = append(active, activeRow{c: c, row: i})
		}
	}
	sortRowsByName(active)
	ids := slices.Grow(buf.ids[:0], len(active))[:len(active)]
	for i, r := range active {
		ids[i] = r.c.ID
	}
	buf.active, buf.ids = active, ids
	if withSubscribers {
		w.PreloadChannels(ids)
	}
	facts := &buf.facts
	readChannelFacts(w, facts, ids, !withSubscribers)
	out := alloc(len(active))
	activeUsers := lastActive{w: w}
	slots := newRecordSlots(len(active))
	for i, r := range active {
		c := r.c
		rec := &out[i]
		fillChannelSettingsWith(w, &rec.ChannelRecord, c, activeUsers.is, slots, i)
		if withSubscribers {
			rec.SubscriberCount = w.ActiveSubscriberCount(c.ID) // from the lists read
		} else {
			rec.SubscriberCount = facts.counts[i]
		}
		fillChannelActivity(&rec.ChannelRecord, c, facts.activity(c.ID), w.UnixNow(), slots, i)
		fillSubscriptionFields(rec, &rows[r.row])
		if withSubscribers {
			attachSubscribers(w, &rec.ChannelRecord, *c, viewer, include, recent)
		}
	}
	return out
}

// channelFacts is the message activity (traffic counts included) and the subscriber counts of
// a few channels, as read (readChannelFacts).
type channelFacts struct {
	acts   []storage.ChannelActivity // ascending by channel (MessageReader.Activity)
	counts []int                     // by the index of the channel in the ids read
}

// activityAppender is a MessageReader that appends Activity's entries to a buffer of the
// caller's (the memory store).
type activityAppender interface {
	AppendActivity(dst []storage.ChannelActivity, ids []channels.ID, since, until int64) ([]storage.ChannelActivity, error)
}

// countsFiller is a SubscriptionReader that writes CountsOf's counts into a buffer of the
// caller's, by index (the memory store).
type countsFiller interface {
	CountsInto(counts []int, ids []channels.ID) error
}

// readChannelFacts reads into f (reusing its buffers) the activity of the channels ids, and
// with counts their subscriber counts (as activeSubscriberCount gives them when no subscriber
// list is read), in one read each; a failed read is the world's sticky error, and its facts
// are zero.
func readChannelFacts(w *world.World, f *channelFacts, ids []channels.ID, counts bool) {
	f.acts, f.counts = f.acts[:0], f.counts[:0]
	if w.Failed() || len(ids) == 0 {
		return
	}
	if r := w.MessageReader(); r != nil {
		today := w.UnixNow() - w.UnixNow()%86400
		var acts []storage.ChannelActivity
		var err error
		if a, ok := r.(activityAppender); ok {
			acts, err = a.AppendActivity(f.acts, ids, today-world.TrafficWindowDays*86400, today)
		} else {
			acts, err = r.Activity(ids, today-world.TrafficWindowDays*86400, today)
		}
		if w.Fail(err) {
			f.acts = f.acts[:0]
			return
		}
		f.acts = acts
	}
	if counts {
		f.counts = slices.Grow(f.counts, len(ids))[:len(ids)]
		if cf, ok := w.SubscriptionReader().(countsFiller); ok {
			w.Fail(cf.CountsInto(f.counts, ids))
			return
		}
		n, err := w.SubscriptionReader().CountsOf(ids)
		if w.Fail(err) {
			return
		}
		for i, id := range ids {
			f.counts[i] = n[id]
		}
	}
}

// activity is channel c's activity (zero when it was not read).
func (f channelFacts) activity(c channels.ID) storage.ChannelActivity {
	// sort.Search over indexes, as groupNameOf: slices.BinarySearchFunc copied each entry.
	i := sort.Search(len(f.acts), func(k int) bool { return f.acts[k].ChannelID >= c })
	if i < len(f.acts) && f.acts[i].ChannelID == c {
		return f.acts[i]
	}
	return storage.ChannelActivity{ChannelID: c}
}

// SubscriptionState is a user's subscriptions, unsubscribed and never-subscribed channels.
type SubscriptionState struct {
	Subscriptions   []SubscriptionRecord `json:"subscriptions"`
	Unsubscribed    []SubscriptionRecord `json:"unsubscribed"`
	NeverSubscribed []ChannelRecord      `json:"never_subscribed"`
}

// subscriptionState computes viewer's subscriptions, unsubscribed and never_subscribed
// channels. include is the include_subscribers value; archived keeps archived channels.
// subscriptionsView says what subscriptionState renders: include_subscribers, whether
// archived channels are shown, and the recently active users (partial subscriber lists).
type subscriptionsView struct {
	include  string
	archived bool
	recent   *recentUsers
	// built holds channel records built already in this transaction (register's streams),
	// by channel: a record is the same whichever section shows it (subscribers apart).
	built map[channels.ID]*ChannelRecord
}

// fillChannelRecord renders c into rec, a zero record: a copy of the record built already,
// or built now.
func (o subscriptionsView) fillChannelRecord(w *world.World, rec *ChannelRecord, c *channels.Channel) {
	if built, ok := o.built[c.ID]; ok {
		*rec = *built
		return
	}
	fillChannelRecord(w, rec, c)
}

func subscriptionState(w *world.World, viewer users.User, rows []channels.Subscription, o subscriptionsView) *SubscriptionState {
	w.NoteUserRows(viewer.ID, rows)
	active, inactive := subscriptionRowsByName(w, viewer, rows, o)
	if o.include == "true" || o.include == "partial" {
		ids := make([]channels.ID, len(w.AllChannels()))
		for i, c := range w.AllChannels() {
			ids[i] = c.ID
		}
		w.PreloadChannels(ids)
	}
	st := &SubscriptionState{
		Subscriptions:   make([]SubscriptionRecord, len(active)),
		Unsubscribed:    make([]SubscriptionRecord, len(inactive)),
		NeverSubscribed: []ChannelRecord{},
	}
	fill := func(recs []SubscriptionRecord, byName []subscriptionRow) {
		for i, r := range byName {
			c := w.ChannelPtr(r.id)
			o.fillChannelRecord(w, &recs[i].ChannelRecord, c)
			fillSubscriptionFields(&recs[i], &rows[r.row])
			attachSubscribers(w, &recs[i].ChannelRecord, *c, viewer, o.include, o.recent)
		}
	}
	fill(st.Subscriptions, active)
	fill(st.Unsubscribed, inactive)
	had := make(map[channels.ID]bool, len(rows))
	for _, r := range rows {
		had[r.ChannelID] = true
	}
	for c := range w.ChannelsByName() {
		if had[c.ID] || c.IsArchived && !o.archived || !w.Metadata(*c, viewer) {
			continue
		}
		st.NeverSubscribed = append(st.NeverSubscribed, ChannelRecord{})
		rec := &st.NeverSubscribed[len(st.NeverSubscribed)-1]
		o.fillChannelRecord(w, rec, c)
		attachSubscribers(w, rec, *c, viewer, o.include, o.recent)
	}
	return st
}

// activeRow is an active subscription row (rows[row]) and its channel, in the world's list
// (read only; found once, by binary search).
type activeRow struct {
	c   *channels.Channel
	row int
}

// sortRowsByName sorts rows by channel name.
func sortRowsByName(rows []activeRow) {
	slices.SortFunc(rows, func(a, b activeRow) int { return strings.Compare(a.c.Name, b.c.Name) })
}

// subscriptionRow is a subscription row (rows[row]) with its channel's name and id.
type subscriptionRow struct {
	name string
	id   channels.ID
	row  int
}

// subscriptionRowsByName splits the viewer's rows into the active subscriptions and the
// unsubscribed channels the viewer may still see, each by channel name: the rows are sorted before
// their records are built (moving records of a kilobyte each cost more than the sort's
// comparisons).
func subscriptionRowsByName(w *world.World, viewer users.User, rows []channels.Subscription, o subscriptionsView) (active, inactive []subscriptionRow) {
	active = make([]subscriptionRow, 0, len(rows))
	for i, r := range rows {
		c, ok := w.Channel(r.ChannelID)
		if !ok || c.IsArchived && !o.archived {
			continue
		}
		if r.Active {
			active = append(active, subscriptionRow{c.Name, c.ID, i})
		} else if w.Metadata(c, viewer) {
			inactive = append(inactive, subscriptionRow{c.Name, c.ID, i})
		}
	}
	byName := func(a, b subscriptionRow) int { return strings.Compare(a.name, b.name) }
	slices.SortFunc(active, byName)
	slices.SortFunc(inactive, byName)
	return active, inactive
}

// attachSubscribers sets subscribers or partial_subscribers per include_subscribers: a
// channel with PartialSubscribersThreshold subscribers or more gets, with partial, its bot
// subscribers and those active recently.
func attachSubscribers(w *world.World, rec *ChannelRecord, c channels.Channel, viewer users.User, include string, recent *recentUsers) {
	switch include {
	case "true":
		rec.Subscribers = subscriberList(w, c, viewer)
	case "partial":
		l := subscriberList(w, c, viewer)
		if len(*l) < PartialSubscribersThreshold {
			rec.Subscribers = l
			return
		}
		part := []users.ID{}
		for _, id := range *l {
			if w.User(id).IsBot() || recent.has(w, id) {
				part = append(part, id)
			}
		}
		rec.PartialSubscribers = &part
	}
}

// resolveNotificationDefaults replaces null notification settings by the user-level defaults
// for clients without the notification_settings_null capability. User settings are not
// stored yet, so these are the defaults of a new user.
func resolveNotificationDefaults(r *SubscriptionRecord) {
	set := func(p **bool, def bool) {
		if *p == nil {
			*p = ptr(def)
		}
	}
	set(&r.DesktopNotifications, false)
	set(&r.AudibleNotifications, false)
	set(&r.PushNotifications, false)
	set(&r.EmailNotifications, false)
	set(&r.WildcardMentionsNotify, true)
}
