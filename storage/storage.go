package storage

import (
	"context"
	"errors"
)

// Sentinel errors every backend returns, wrapped with %w.
var (
	ErrNotFound = errors.New("storage: not found")
	ErrConflict = errors.New("storage: conflict")
	// ErrInvalidString refuses a string that not every backend keeps alike (see
	// ValidString): one holding a NUL byte, which PostgreSQL refuses in text while SQLite and
	// memory would keep it, or bytes that are not UTF-8.
	ErrInvalidString = errors.New("storage: string holds a NUL byte or is not UTF-8")
	// ErrContention is a transaction that kept losing races with concurrent ones
	// (PostgreSQL serialization failures or deadlocks, SQLite busy) and was run again until
	// the backend's retry budget ran out: nothing was written, and running it again later may
	// succeed. It is not ErrConflict, which is a uniqueness violation.
	ErrContention = errors.New("storage: transaction kept conflicting with concurrent ones")
)

// Storage is a transactional store of one organization.
type Storage interface {
	View(ctx context.Context, fn func(ReadTx) error) error
	Update(ctx context.Context, fn func(Tx) error) error
	Close() error
}

// ReadTx is a read-only transaction.
type ReadTx interface {
	Realm() RealmReader
	Users() UserReader
	Groups() GroupReader
	Queues() QueueReader
	Drafts() DraftReader
	SavedSnippets() SnippetReader
	NavigationViews() NavigationViewReader
	Linkifiers() LinkifierReader
	Playgrounds() PlaygroundReader
	Invites() InviteReader
	Channels() ChannelReader
	Subscriptions() SubscriptionReader
	Messages() MessageReader
	UserTopics() UserTopicReader
	ChannelFolders() ChannelFolderReader
	UserSettings() UserSettingsReader
	ProfileFields() ProfileFieldReader
	AlertWords() AlertWordReader
	Presence() PresenceReader
	Attachments() AttachmentReader
	ScheduledMessages() ScheduledMessageReader
	UserStatuses() UserStatusReader
	MutedUsers() MutedUserReader
	Devices() DeviceReader
	BotConfigs() BotConfigReader
	BotStorage() BotStorageReader
	ServiceJobs() ServiceJobReader
	PendingEmails() PendingEmailReader
	OnboardingSteps() OnboardingStepReader
	Sessions() SessionReader
	Exports() ExportReader
	Archives() ArchiveReader
}

// Tx is a read-write transaction. Its accessors include every read of ReadTx.
type Tx interface {
	Realm() RealmWriter
	Users() UserWriter
	Groups() GroupWriter
	Queues() QueueWriter
	Drafts() DraftWriter
	SavedSnippets() SnippetWriter
	NavigationViews() NavigationViewWriter
	Linkifiers() LinkifierWriter
	Playgrounds() PlaygroundWriter
	Invites() InviteWriter
	Channels() ChannelWriter
	Subscriptions() SubscriptionWriter
	Messages() MessageWriter
	UserTopics() UserTopicWriter
	ChannelFolders() ChannelFolderWriter
	UserSettings() UserSettingsWriter
	ProfileFields() ProfileFieldWriter
	AlertWords() AlertWordWriter
	Presence() PresenceWriter
	Attachments() AttachmentWriter
	ScheduledMessages() ScheduledMessageWriter
	UserStatuses() UserStatusWriter
	MutedUsers() MutedUserWriter
	Devices() DeviceWriter
	BotConfigs() BotConfigWriter
	BotStorage() BotStorageWriter
	ServiceJobs() ServiceJobWriter
	PendingEmails() PendingEmailWriter
	OnboardingSteps() OnboardingStepWriter
	Sessions() SessionWriter
	Exports() ExportWriter
	Archives() ArchiveWriter
}
