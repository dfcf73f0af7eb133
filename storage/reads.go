package storage

// ReadsOf is the read-only view of a write transaction, so that code reading either kind of
// transaction takes a ReadTx. (An accessor added to ReadTx and Tx gets a line here.)
func ReadsOf(tx Tx) ReadTx { return txReads{tx} }

type txReads struct{ tx Tx }

func (r txReads) Realm() RealmReader                        { return r.tx.Realm() }
func (r txReads) Users() UserReader                         { return r.tx.Users() }
func (r txReads) Groups() GroupReader                       { return r.tx.Groups() }
func (r txReads) Queues() QueueReader                       { return r.tx.Queues() }
func (r txReads) Drafts() DraftReader                       { return r.tx.Drafts() }
func (r txReads) SavedSnippets() SnippetReader              { return r.tx.SavedSnippets() }
func (r txReads) NavigationViews() NavigationViewReader     { return r.tx.NavigationViews() }
func (r txReads) Linkifiers() LinkifierReader               { return r.tx.Linkifiers() }
func (r txReads) Playgrounds() PlaygroundReader             { return r.tx.Playgrounds() }
func (r txReads) Invites() InviteReader                     { return r.tx.Invites() }
func (r txReads) Channels() ChannelReader                   { return r.tx.Channels() }
func (r txReads) Subscriptions() SubscriptionReader         { return r.tx.Subscriptions() }
func (r txReads) Messages() MessageReader                   { return r.tx.Messages() }
func (r txReads) UserTopics() UserTopicReader               { return r.tx.UserTopics() }
func (r txReads) ChannelFolders() ChannelFolderReader       { return r.tx.ChannelFolders() }
func (r txReads) UserSettings() UserSettingsReader          { return r.tx.UserSettings() }
func (r txReads) ProfileFields() ProfileFieldReader         { return r.tx.ProfileFields() }
func (r txReads) AlertWords() AlertWordReader               { return r.tx.AlertWords() }
func (r txReads) Presence() PresenceReader                  { return r.tx.Presence() }
func (r txReads) Attachments() AttachmentReader             { return r.tx.Attachments() }
func (r txReads) ScheduledMessages() ScheduledMessageReader { return r.tx.ScheduledMessages() }
func (r txReads) UserStatuses() UserStatusReader            { return r.tx.UserStatuses() }
func (r txReads) MutedUsers() MutedUserReader               { return r.tx.MutedUsers() }
func (r txReads) Devices() DeviceReader                     { return r.tx.Devices() }
func (r txReads) BotConfigs() BotConfigReader               { return r.tx.BotConfigs() }
func (r txReads) BotStorage() BotStorageReader              { return r.tx.BotStorage() }
func (r txReads) ServiceJobs() ServiceJobReader             { return r.tx.ServiceJobs() }
func (r txReads) PendingEmails() PendingEmailReader         { return r.tx.PendingEmails() }
func (r txReads) OnboardingSteps() OnboardingStepReader     { return r.tx.OnboardingSteps() }
func (r txReads) Sessions() SessionReader                   { return r.tx.Sessions() }
func (r txReads) Exports() ExportReader                     { return r.tx.Exports() }
func (r txReads) Archives() ArchiveReader                   { return r.tx.Archives() }
