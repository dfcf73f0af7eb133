package sqlstore

import "github.com/teamchat/chat/storage"

// readTx is a read-only transaction; its accessors only read.
type readTx struct{ t *txn }

// tx is a read-write transaction.
type tx struct{ readTx }

// Accessors of the read-only transaction.
func (r *readTx) Realm() storage.RealmReader { return realmTx{r.t} }
func (r *readTx) Users() storage.UserReader  { return userTx{r.t} }
func (r *readTx) Groups() storage.GroupReader {
	return groupTx{r.t}
}
func (r *readTx) Queues() storage.QueueReader          { return queueTx{r.t} }
func (r *readTx) Drafts() storage.DraftReader          { return draftTx{r.t} }
func (r *readTx) SavedSnippets() storage.SnippetReader { return snippetTx{r.t} }
func (r *readTx) NavigationViews() storage.NavigationViewReader {
	return navViewTx{r.t}
}
func (r *readTx) Channels() storage.ChannelReader       { return channelTx{r.t} }
func (r *readTx) Linkifiers() storage.LinkifierReader   { return linkifierTx{r.t} }
func (r *readTx) Messages() storage.MessageReader       { return messageTx{r.t} }
func (r *readTx) Invites() storage.InviteReader         { return inviteTx{r.t} }
func (r *readTx) UserTopics() storage.UserTopicReader   { return userTopicTx{r.t} }
func (r *readTx) Playgrounds() storage.PlaygroundReader { return playgroundTx{r.t} }
func (r *readTx) Subscriptions() storage.SubscriptionReader {
	return subscriptionTx{r.t}
}
func (r *readTx) ChannelFolders() storage.ChannelFolderReader { return folderTx{r.t} }
func (r *readTx) UserSettings() storage.UserSettingsReader    { return settingsTx{r.t} }
func (r *readTx) ProfileFields() storage.ProfileFieldReader   { return profileTx{r.t} }

// Accessors of the read-write transaction.
func (w *tx) Realm() storage.RealmWriter { return realmTx{w.t} }
func (w *tx) Users() storage.UserWriter  { return userTx{w.t} }
func (w *tx) Groups() storage.GroupWriter {
	return groupTx{w.t}
}
func (w *tx) Queues() storage.QueueWriter          { return queueTx{w.t} }
func (w *tx) Drafts() storage.DraftWriter          { return draftTx{w.t} }
func (w *tx) SavedSnippets() storage.SnippetWriter { return snippetTx{w.t} }
func (w *tx) NavigationViews() storage.NavigationViewWriter {
	return navViewTx{w.t}
}
func (w *tx) Channels() storage.ChannelWriter       { return channelTx{w.t} }
func (w *tx) Linkifiers() storage.LinkifierWriter   { return linkifierTx{w.t} }
func (w *tx) Messages() storage.MessageWriter       { return messageTx{w.t} }
func (w *tx) Invites() storage.InviteWriter         { return inviteTx{w.t} }
func (w *tx) UserTopics() storage.UserTopicWriter   { return userTopicTx{w.t} }
func (w *tx) Playgrounds() storage.PlaygroundWriter { return playgroundTx{w.t} }
func (w *tx) Subscriptions() storage.SubscriptionWriter {
	return subscriptionTx{w.t}
}
func (w *tx) ChannelFolders() storage.ChannelFolderWriter { return folderTx{w.t} }
func (w *tx) UserSettings() storage.UserSettingsWriter    { return settingsTx{w.t} }
func (w *tx) ProfileFields() storage.ProfileFieldWriter   { return profileTx{w.t} }

var (
	_ storage.ReadTx = (*readTx)(nil)
	_ storage.Tx     = (*tx)(nil)
)
