package chat

import "github.com/teamchat/chat/storage"

// readView is the read-only view of a write transaction: a mutation's reads, its gate and its
// world go through the same storage.ReadTx as a read's.
func readView(tx storage.Tx) storage.ReadTx { return txReads{tx} }

type txReads struct{ tx storage.Tx }

func (r txReads) Realm() storage.RealmReader                    { return r.tx.Realm() }
func (r txReads) Users() storage.UserReader                     { return r.tx.Users() }
func (r txReads) Groups() storage.GroupReader                   { return r.tx.Groups() }
func (r txReads) Queues() storage.QueueReader                   { return r.tx.Queues() }
func (r txReads) Drafts() storage.DraftReader                   { return r.tx.Drafts() }
func (r txReads) SavedSnippets() storage.SnippetReader          { return r.tx.SavedSnippets() }
func (r txReads) NavigationViews() storage.NavigationViewReader { return r.tx.NavigationViews() }
func (r txReads) Linkifiers() storage.LinkifierReader           { return r.tx.Linkifiers() }
func (r txReads) Playgrounds() storage.PlaygroundReader         { return r.tx.Playgrounds() }
func (r txReads) Invites() storage.InviteReader                 { return r.tx.Invites() }
func (r txReads) Channels() storage.ChannelReader               { return r.tx.Channels() }
func (r txReads) Subscriptions() storage.SubscriptionReader     { return r.tx.Subscriptions() }
func (r txReads) Messages() storage.MessageReader               { return r.tx.Messages() }
func (r txReads) UserTopics() storage.UserTopicReader           { return r.tx.UserTopics() }
func (r txReads) ChannelFolders() storage.ChannelFolderReader   { return r.tx.ChannelFolders() }
func (r txReads) UserSettings() storage.UserSettingsReader      { return r.tx.UserSettings() }
func (r txReads) ProfileFields() storage.ProfileFieldReader     { return r.tx.ProfileFields() }
func (r txReads) AlertWords() storage.AlertWordReader           { return r.tx.AlertWords() }
func (r txReads) Presence() storage.PresenceReader              { return r.tx.Presence() }
