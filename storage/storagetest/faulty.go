package storagetest

import (
	"context"
	"sync"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Faulty wraps a Storage and makes its writes fail on demand. Reads always pass through.
type Faulty struct {
	storage.Storage

	mu    sync.Mutex
	after int // successful writes left before failing; -1 never fails
	err   error
}

// NewFaulty wraps s; it does not fail until FailWritesAfter is called.
func NewFaulty(s storage.Storage) *Faulty { return &Faulty{Storage: s, after: -1} }

// FailWritesAfter lets n more writes succeed, then fails every write with err. n < 0 stops
// failing.
func (f *Faulty) FailWritesAfter(n int, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.after, f.err = n, err
}

// write is called before every write and says whether it fails.
func (f *Faulty) write() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.after < 0:
		return nil
	case f.after == 0:
		return f.err
	}
	f.after--
	return nil
}

// Update wraps the transaction so that its writes can fail.
func (f *Faulty) Update(ctx context.Context, fn func(storage.Tx) error) error {
	return f.Storage.Update(ctx, func(tx storage.Tx) error { return fn(faultyTx{Tx: tx, f: f}) })
}

// faultyTx overrides each accessor with a wrapper whose write methods consult Faulty.write.
// An area adds its accessor here when it adds write methods.
type faultyTx struct {
	storage.Tx
	f *Faulty
}

func (t faultyTx) Realm() storage.RealmWriter  { return faultyRealm{t.Tx.Realm(), t.f} }
func (t faultyTx) Users() storage.UserWriter   { return faultyUsers{t.Tx.Users(), t.f} }
func (t faultyTx) Groups() storage.GroupWriter { return faultyGroups{t.Tx.Groups(), t.f} }
func (t faultyTx) Drafts() storage.DraftWriter { return faultyDrafts{t.Tx.Drafts(), t.f} }
func (t faultyTx) SavedSnippets() storage.SnippetWriter {
	return faultySnippets{t.Tx.SavedSnippets(), t.f}
}
func (t faultyTx) NavigationViews() storage.NavigationViewWriter {
	return faultyNavViews{t.Tx.NavigationViews(), t.f}
}
func (t faultyTx) Linkifiers() storage.LinkifierWriter {
	return faultyLinkifiers{t.Tx.Linkifiers(), t.f}
}
func (t faultyTx) Playgrounds() storage.PlaygroundWriter {
	return faultyPlaygrounds{t.Tx.Playgrounds(), t.f}
}
func (t faultyTx) Invites() storage.InviteWriter { return faultyInvites{t.Tx.Invites(), t.f} }

type faultyRealm struct {
	storage.RealmWriter
	f *Faulty
}

func (w faultyRealm) Put(r realms.Realm) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.RealmWriter.Put(r)
}

type faultyUsers struct {
	storage.UserWriter
	f *Faulty
}

func (w faultyUsers) Create(u users.User) (users.ID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.UserWriter.Create(u)
}

func (w faultyUsers) Update(u users.User) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserWriter.Update(u)
}

func (w faultyUsers) ReserveIDs(through users.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserWriter.ReserveIDs(through)
}

func (w faultyUsers) SetLastActive(t int64, ids ...users.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserWriter.SetLastActive(t, ids...)
}

type faultyGroups struct {
	storage.GroupWriter
	f *Faulty
}

func (w faultyGroups) Create(g users.Group) (users.GroupID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.GroupWriter.Create(g)
}

func (w faultyGroups) Update(g users.Group) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.GroupWriter.Update(g)
}

func (w faultyGroups) AddMembers(id users.GroupID, m []users.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.GroupWriter.AddMembers(id, m)
}

func (w faultyGroups) RemoveMembers(id users.GroupID, m []users.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.GroupWriter.RemoveMembers(id, m)
}

func (t faultyTx) Queues() storage.QueueWriter { return faultyQueues{t.Tx.Queues(), t.f} }

type faultyQueues struct {
	storage.QueueWriter
	f *Faulty
}

func (w faultyQueues) ReplaceAll(prefix string, qs []storage.SavedQueue) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.QueueWriter.ReplaceAll(prefix, qs)
}

func (t faultyTx) Channels() storage.ChannelWriter { return faultyChannels{t.Tx.Channels(), t.f} }
func (t faultyTx) Subscriptions() storage.SubscriptionWriter {
	return faultySubscriptions{t.Tx.Subscriptions(), t.f}
}

type faultyChannels struct {
	storage.ChannelWriter
	f *Faulty
}

func (w faultyChannels) Create(c channels.Channel) (channels.ID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.ChannelWriter.Create(c)
}

func (w faultyChannels) Update(c channels.Channel) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ChannelWriter.Update(c)
}

func (w faultyChannels) CreateEmailAddress(e channels.EmailAddress) (int64, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.ChannelWriter.CreateEmailAddress(e)
}

type faultySubscriptions struct {
	storage.SubscriptionWriter
	f *Faulty
}

func (w faultySubscriptions) Put(s []channels.Subscription) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.SubscriptionWriter.Put(s)
}

func (w faultyQueues) ReportLive(node string, owners []users.ID, at int64) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.QueueWriter.ReportLive(node, owners, at)
}

func (w faultyQueues) MarkLive(node string, owner users.ID, at int64) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.QueueWriter.MarkLive(node, owner, at)
}
