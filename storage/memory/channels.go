package memory

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// channelTx is the channels accessor; j is nil in a read-only transaction.
type channelTx struct {
	t *readTx
	j *journal
}

func (a channelTx) Get(id channels.ID) (channels.Channel, error) {
	if err := a.t.live(); err != nil {
		return channels.Channel{}, err
	}
	c, ok := a.t.d.channels[id]
	if !ok {
		return channels.Channel{}, notFound("channel", id)
	}
	return c.Clone(), nil
}

func (a channelTx) GetByName(name string) (channels.Channel, error) {
	if err := a.t.live(); err != nil {
		return channels.Channel{}, err
	}
	id, ok := a.t.d.channelByName[channels.NormalizeName(name)]
	if !ok {
		return channels.Channel{}, notFound("channel named", name)
	}
	return a.t.d.channels[id].Clone(), nil
}

func (a channelTx) GetMany(ids []channels.ID) ([]channels.Channel, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids = sortedSet(ids)
	out := make([]channels.Channel, 0, len(ids))
	for _, id := range ids {
		if c, ok := a.t.d.channels[id]; ok {
			out = append(out, c.Clone())
		}
	}
	return out, nil
}

func (a channelTx) List() ([]channels.Channel, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.channels, channels.Channel.Clone), nil
}

func (a channelTx) ListShared() ([]channels.Channel, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	// Stored channels are never modified in place (put stores a copy), so the list can hold
	// them as they are.
	return keptSorted(&a.t.d.channelList, a.t.d.channels), nil
}

func (a channelTx) Create(c channels.Channel) (channels.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if _, ok := a.t.d.channelByName[channels.NormalizeName(c.Name)]; ok {
		return 0, conflict("channel name")
	}
	c.ID = nextID(a.j, &a.t.d.channelSeq)
	a.put(c.Clone())
	return c.ID, nil
}

func (a channelTx) Update(c channels.Channel) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.channels[c.ID]
	if !ok {
		return notFound("channel", c.ID)
	}
	if id, ok := a.t.d.channelByName[channels.NormalizeName(c.Name)]; ok && id != c.ID {
		return conflict("channel name")
	}
	deleteKey(a.j, a.t.d.channelByName, channels.NormalizeName(old.Name))
	a.put(c.Clone())
	return nil
}

func (a channelTx) put(c channels.Channel) {
	// The shared list goes with any write, and again when the write is undone.
	a.t.d.channelList.Store(nil)
	a.j.undo = append(a.j.undo, func() { a.t.d.channelList.Store(nil) })
	setKey(a.j, a.t.d.channels, c.ID, c)
	setKey(a.j, a.t.d.channelByName, channels.NormalizeName(c.Name), c.ID)
}

// subKey identifies a subscription row.
type subKey struct {
	user    users.ID
	channel channels.ID
}

// subscriptionTx is the subscriptions accessor; j is nil in a read-only transaction.
type subscriptionTx struct {
	t *readTx
	j *journal
}

func (a subscriptionTx) Get(u users.ID, c channels.ID) (channels.Subscription, error) {
	if err := a.t.live(); err != nil {
		return channels.Subscription{}, err
	}
	s, ok := a.t.d.subsByChannel[c][u]
	if !ok {
		return channels.Subscription{}, notFound("subscription", subKey{u, c})
	}
	return s.Clone(), nil
}

func (a subscriptionTx) ListForUsers(ids []users.ID) ([]channels.Subscription, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids = sortedSet(ids)
	n, most := 0, 0
	for _, u := range ids {
		n += len(a.t.d.subsByUser[u])
		most = max(most, len(a.t.d.subsByUser[u]))
	}
	out := make([]channels.Subscription, 0, n)
	keys := make([]channels.ID, 0, most) // sized once (appends grew it a few times per user)
	for _, u := range ids {
		out, keys = a.appendUserRows(out, keys, u)
	}
	return out, nil
}

// AppendForUser appends what ListForUsers returns for u alone to dst, a buffer of the
// caller's (GET /users/me/subscriptions reuses one: the rows were a third of what it
// allocated).
func (a subscriptionTx) AppendForUser(dst []channels.Subscription, u users.ID) ([]channels.Subscription, error) {
	if err := a.t.live(); err != nil {
		return dst, err
	}
	dst, _ = a.appendUserRows(dst, make([]channels.ID, 0, len(a.t.d.subsByUser[u])), u)
	return dst, nil
}

// appendUserRows appends u's rows (copies), ascending by channel, to dst; keys is a buffer for
// u's channel ids, returned for reuse.
func (a subscriptionTx) appendUserRows(dst []channels.Subscription, keys []channels.ID, u users.ID) ([]channels.Subscription, []channels.ID) {
	keys = sortedKeys(keys[:0], a.t.d.subsByUser[u])
	for _, c := range keys {
		dst = append(dst, a.t.d.subsByChannel[c][u].Clone())
	}
	return dst, keys
}

// ListForChannels is on the path of every operation that loads the channels' subscribers
// (register, GET /users/me/subscriptions, sending): it sizes the result once and reads each
// channel's rows from that channel's own map.
func (a subscriptionTx) ListForChannels(ids []channels.ID, activeOnly bool) ([]channels.Subscription, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids = sortedSet(ids)
	n := 0
	for _, c := range ids {
		n += len(a.t.d.subsByChannel[c])
	}
	out := make([]channels.Subscription, 0, n)
	var keys []users.ID
	for _, c := range ids {
		rows := a.t.d.subsByChannel[c]
		keys = sortedKeys(keys[:0], rows) // sorting ids is far cheaper than sorting rows
		for _, u := range keys {
			s := rows[u]
			if activeOnly && !s.Active {
				continue
			}
			out = append(out, s.Clone())
		}
	}
	return out, nil
}

// ActiveSubscribers returns the kept lists of the channels' active subscribers, building
// the missing ones.
func (a subscriptionTx) ActiveSubscribers(ids []channels.ID) ([]storage.SubscriberList, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	kept := &a.t.d.subscriberLists
	out := make([]storage.SubscriberList, len(ids))
	for i, c := range ids {
		if l, ok := kept.Load(c); ok {
			out[i] = l.(storage.SubscriberList)
			continue
		}
		rows := a.t.d.subsByChannel[c]
		var l storage.SubscriberList
		l.IDs = make([]users.ID, 0, len(rows))
		for u, s := range rows {
			if s.Active {
				l.IDs = append(l.IDs, u)
			}
		}
		slices.Sort(l.IDs)
		l.IDs = slices.Clip(l.IDs)
		for _, u := range l.IDs {
			if s := rows[u]; storage.Customized(s) {
				l.Customized = append(l.Customized, s.Clone())
			}
		}
		l.Customized = slices.Clip(l.Customized)
		kept.Store(c, l)
		out[i] = l
	}
	return out, nil
}

// dropSubscriberLists forgets channel c's kept subscriber list, now and when the write is
// undone.
func (a subscriptionTx) dropSubscriberLists(c channels.ID) {
	kept := &a.t.d.subscriberLists
	kept.Delete(c)
	a.j.undo = append(a.j.undo, func() { kept.Delete(c) })
}

// sortedKeys appends the keys of m to buf, ascending.
func sortedKeys[K cmp.Ordered, V any](buf []K, m map[K]V) []K {
	for k := range m {
		buf = append(buf, k)
	}
	slices.Sort(buf)
	return buf
}

func (a subscriptionTx) Put(subs []channels.Subscription) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, s := range subs {
		byUser, ok := a.t.d.subsByUser[s.UserID]
		if !ok {
			byUser = map[channels.ID]struct{}{}
			setKey(a.j, a.t.d.subsByUser, s.UserID, byUser)
		}
		setKey(a.j, byUser, s.ChannelID, struct{}{})
		byChannel, ok := a.t.d.subsByChannel[s.ChannelID]
		if !ok {
			byChannel = map[users.ID]channels.Subscription{}
			setKey(a.j, a.t.d.subsByChannel, s.ChannelID, byChannel)
		}
		old := byChannel[s.UserID]
		a.dropSubscriberLists(s.ChannelID)
		setKey(a.j, byChannel, s.UserID, s.Clone())
		if s.Active != old.Active && a.t.d.users[s.UserID].IsActive {
			a.addCount(s.UserID, s.ChannelID, s.Active)
		}
	}
	return nil
}

// Counts returns the maintained subscriber counts.
func (a subscriptionTx) Counts() (map[channels.ID]int, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := make(map[channels.ID]int, len(a.t.d.subCounts))
	for c, n := range a.t.d.subCounts {
		if n > 0 {
			out[c] = n
		}
	}
	return out, nil
}

// CountsOf returns the maintained subscriber counts of the given channels.
func (a subscriptionTx) CountsOf(ids []channels.ID) (map[channels.ID]int, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := make(map[channels.ID]int, len(ids))
	for _, c := range ids {
		if n := a.t.d.subCounts[c]; n > 0 {
			out[c] = n
		}
	}
	return out, nil
}

// CountsInto writes CountsOf's counts into counts, by the index of each channel in ids (0 for
// none): into a buffer of the caller's (GET /users/me/subscriptions reuses one).
func (a subscriptionTx) CountsInto(counts []int, ids []channels.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for i, c := range ids {
		counts[i] = max(a.t.d.subCounts[c], 0)
	}
	return nil
}

// addCount moves the subscriber count of c by one, up when up is set, down otherwise: user u
// starts or stops receiving c, and their receiving interval opens or closes (receivers.go).
func (a subscriptionTx) addCount(u users.ID, c channels.ID, up bool) {
	a.t.d.receive(a.j, u, c, up)
	n := a.t.d.subCounts[c]
	if up {
		n++
	} else {
		n--
	}
	setKey(a.j, a.t.d.subCounts, c, n)
}

// folderTx is the channel-folders accessor; j is nil in a read-only transaction.
type folderTx struct {
	t *readTx
	j *journal
}

func (a folderTx) Get(id channels.FolderID) (channels.Folder, error) {
	if err := a.t.live(); err != nil {
		return channels.Folder{}, err
	}
	f, ok := a.t.d.folders[id]
	if !ok {
		return channels.Folder{}, notFound("channel folder", id)
	}
	return f, nil
}

func (a folderTx) List() ([]channels.Folder, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.folders, same[channels.Folder]), nil
}

func (a folderTx) Create(f channels.Folder) (channels.FolderID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	f.ID = nextID(a.j, &a.t.d.folderSeq)
	setKey(a.j, a.t.d.folders, f.ID, f)
	return f.ID, nil
}

func (a folderTx) Update(f channels.Folder) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.folders[f.ID]; !ok {
		return notFound("channel folder", f.ID)
	}
	setKey(a.j, a.t.d.folders, f.ID, f)
	return nil
}
