package memory

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
	"sync"
	"sync/atomic"
)

// data is everything the store holds. Each area keeps its maps and sequences here and its
// accessors in a file of its own.
type data struct {
	realm *realms.Realm

	users map[users.ID]users.User
	// userList caches users ordered by id for List (nil when a write made it stale). Readers
	// build it under the store's read lock, hence the atomic pointer.
	userList    atomic.Pointer[[]users.User]
	userSeq     users.ID
	userByEmail map[string]users.ID
	userByKey   map[string]users.ID
	lastActive  map[users.ID]int64

	groups      map[users.GroupID]users.Group
	groupSeq    users.GroupID
	groupByName map[string]users.GroupID
	// groupList is every group ascending by id, shared by ListShared's callers until a
	// write to groups drops it (nil: not built).
	groupList atomic.Pointer[[]users.Group]

	queues       map[string]storage.SavedQueue
	liveOwners   map[liveKey]int64 // report time, UNIX milliseconds
	drafts       map[drafts.ID]drafts.Draft
	draftSeq     drafts.ID
	draftSyncOff map[users.ID]bool
	snippets     map[drafts.SnippetID]drafts.SavedSnippet
	snippetSeq   drafts.SnippetID
	navViews     map[navKey]navEntry
	navSeq       int64

	linkifiers    map[linkifiers.ID]linkifiers.Linkifier
	linkifierSeq  linkifiers.ID
	playgrounds   map[linkifiers.PlaygroundID]linkifiers.Playground
	playgroundSeq linkifiers.PlaygroundID

	invites   map[users.InviteID]users.Invite
	inviteSeq users.InviteID

	channels      map[channels.ID]channels.Channel
	channelSeq    channels.ID
	channelByName map[string]channels.ID // by channels.NormalizeName
	// channelList is every channel ascending by id, shared by ListShared's callers until a
	// write to channels drops it (nil: not built).
	channelList atomic.Pointer[[]channels.Channel]
	// subsByChannel holds the subscription rows by channel then user (so that listing a
	// channel's rows reads one small map); subsByUser indexes them by user.
	subsByUser    map[users.ID]map[channels.ID]struct{}
	subsByChannel map[channels.ID]map[users.ID]channels.Subscription
	// subCounts is each channel's active subscriptions of active users, kept up to date by
	// subscription and user writes.
	subCounts map[channels.ID]int
	// subscriberLists keeps each channel's active subscribers (storage.SubscriberList) as
	// ActiveSubscribers built them, until a write of the channel's subscriptions drops them
	// (and its undo again). Readers build them under the store's read lock, hence sync.Map.
	subscriberLists sync.Map
	// channelEmails holds the channels' email addresses by id.
	channelEmails   map[int64]channels.EmailAddress
	channelEmailSeq int64

	msgs       messageData
	emoji      map[emoji.ID]emoji.Custom
	emojiSeq   emoji.ID
	userTopics map[userTopicKey]topics.UserTopic
	folders    map[channels.FolderID]channels.Folder
	folderSeq  channels.FolderID

	settings     map[users.ID]users.Settings
	settingsTrue map[string]map[users.ID]bool // by setting name, the users whose stored value is true
	emailChanges map[string]users.EmailChange

	profileFields   map[users.ProfileFieldID]users.ProfileField
	profileFieldSeq users.ProfileFieldID
	profileValues   map[profileKey]users.ProfileValue

	alertWords  map[users.ID][]string
	presence    map[users.ID]users.Presence
	presenceSeq int64

	attach       attachmentData
	scheduled    map[messages.ScheduledID]messages.Scheduled // made on first write
	scheduledSeq messages.ScheduledID
	statuses     map[users.ID]users.Status
	mutes        map[muteKey]users.MutedUser

	devices    map[int64]storage.Device // by id; nil until the first device
	deviceSeq  int64
	botConfigs map[users.ID]users.BotConfig
	// botStorage holds bots' storage; serviceJobs the service bots' pending jobs (both nil
	// until the first write).
	botStorage    map[botStoreKey]string
	serviceJobs   map[int64]storage.ServiceJob
	serviceJobSeq int64
	// pendingEmails are the missed-message email notifications waiting (nil when none).
	pendingEmails   map[int64]storage.PendingEmail
	pendingEmailSeq int64
	// digestDays are the days whose digest was queued (nil when none).
	digestDays map[int64]struct{}
	// archives holds what retention passes removed (nil until the first).
	archives   map[storage.ArchiveID]storage.Archive
	archiveSeq storage.ArchiveID
	// onboarding holds each user's read onboarding steps, sorted.
	onboarding map[users.ID][]string
	sessions   map[string]storage.Session // by key; nil until the first session
	exports    map[int64]storage.Export   // by id; nil until the first export
	exportSeq  int64
}

func newData() *data {
	return &data{
		attach:      newAttachmentData(),
		users:       map[users.ID]users.User{},
		userByEmail: map[string]users.ID{},
		userByKey:   map[string]users.ID{},
		lastActive:  map[users.ID]int64{},
		groups:      map[users.GroupID]users.Group{},
		groupByName: map[string]users.GroupID{},
		queues:      map[string]storage.SavedQueue{},
		liveOwners:  map[liveKey]int64{},
		msgs:        newMessageData(),
		emoji:       map[emoji.ID]emoji.Custom{},
		userTopics:  map[userTopicKey]topics.UserTopic{},

		drafts:       map[drafts.ID]drafts.Draft{},
		draftSyncOff: map[users.ID]bool{},
		snippets:     map[drafts.SnippetID]drafts.SavedSnippet{},
		navViews:     map[navKey]navEntry{},
		linkifiers:   map[linkifiers.ID]linkifiers.Linkifier{},
		playgrounds:  map[linkifiers.PlaygroundID]linkifiers.Playground{},
		invites:      map[users.InviteID]users.Invite{},

		channels:      map[channels.ID]channels.Channel{},
		channelByName: map[string]channels.ID{},
		channelEmails: map[int64]channels.EmailAddress{},
		subsByUser:    map[users.ID]map[channels.ID]struct{}{},
		subsByChannel: map[channels.ID]map[users.ID]channels.Subscription{},
		subCounts:     map[channels.ID]int{},
		folders:       map[channels.FolderID]channels.Folder{},

		settings:     map[users.ID]users.Settings{},
		settingsTrue: map[string]map[users.ID]bool{},
		emailChanges: map[string]users.EmailChange{},

		profileFields: map[users.ProfileFieldID]users.ProfileField{},
		profileValues: map[profileKey]users.ProfileValue{},

		alertWords: map[users.ID][]string{},
		presence:   map[users.ID]users.Presence{},

		statuses: map[users.ID]users.Status{},
		mutes:    map[muteKey]users.MutedUser{},

		botConfigs: map[users.ID]users.BotConfig{},
		onboarding: map[users.ID][]string{},
	}
}

func (t *readTx) UserSettings() storage.UserSettingsReader  { return settingsTx{t: t} }
func (t *readTx) ProfileFields() storage.ProfileFieldReader { return profileTx{t: t} }
func (t *tx) ProfileFields() storage.ProfileFieldWriter     { return profileTx{t: &t.readTx, j: t.j} }
func (t *tx) UserSettings() storage.UserSettingsWriter      { return settingsTx{t: &t.readTx, j: t.j} }

// Accessors of the read-only transaction.
func (t *readTx) Realm() storage.RealmReader { return realmTx{t: t} }
func (t *readTx) Users() storage.UserReader  { return userTx{t: t} }
func (t *readTx) Groups() storage.GroupReader {
	return groupTx{t: t}
}
func (t *readTx) Queues() storage.QueueReader          { return queueTx{t: t} }
func (t *readTx) Drafts() storage.DraftReader          { return draftTx{t: t} }
func (t *readTx) SavedSnippets() storage.SnippetReader { return snippetTx{t: t} }
func (t *readTx) NavigationViews() storage.NavigationViewReader {
	return navViewTx{t: t}
}
func (t *readTx) Linkifiers() storage.LinkifierReader   { return linkifierTx{t: t} }
func (t *readTx) Playgrounds() storage.PlaygroundReader { return playgroundTx{t: t} }
func (t *readTx) Invites() storage.InviteReader         { return inviteTx{t: t} }
func (t *readTx) Channels() storage.ChannelReader       { return channelTx{t: t} }
func (t *readTx) Subscriptions() storage.SubscriptionReader {
	return subscriptionTx{t: t}
}
func (t *readTx) ChannelFolders() storage.ChannelFolderReader { return folderTx{t: t} }

// Accessors of the read-write transaction.
func (t *tx) Realm() storage.RealmWriter { return realmTx{t: &t.readTx, j: t.j} }
func (t *tx) Users() storage.UserWriter  { return userTx{t: &t.readTx, j: t.j} }
func (t *tx) Groups() storage.GroupWriter {
	return groupTx{t: &t.readTx, j: t.j}
}
func (t *tx) Queues() storage.QueueWriter          { return queueTx{t: &t.readTx, j: t.j} }
func (t *tx) Drafts() storage.DraftWriter          { return draftTx{t: &t.readTx, j: t.j} }
func (t *tx) SavedSnippets() storage.SnippetWriter { return snippetTx{t: &t.readTx, j: t.j} }
func (t *tx) NavigationViews() storage.NavigationViewWriter {
	return navViewTx{t: &t.readTx, j: t.j}
}
func (t *tx) Linkifiers() storage.LinkifierWriter   { return linkifierTx{t: &t.readTx, j: t.j} }
func (t *tx) Playgrounds() storage.PlaygroundWriter { return playgroundTx{t: &t.readTx, j: t.j} }
func (t *tx) Invites() storage.InviteWriter         { return inviteTx{t: &t.readTx, j: t.j} }
func (t *tx) Channels() storage.ChannelWriter       { return channelTx{t: &t.readTx, j: t.j} }
func (t *tx) Subscriptions() storage.SubscriptionWriter {
	return subscriptionTx{t: &t.readTx, j: t.j}
}
func (t *tx) ChannelFolders() storage.ChannelFolderWriter {
	return folderTx{t: &t.readTx, j: t.j}
}

// Accessors of the messages area.
func (t *readTx) Messages() storage.MessageReader     { return messageTx{t: t} }
func (t *readTx) UserTopics() storage.UserTopicReader { return userTopicTx{t: t} }
func (t *tx) Messages() storage.MessageWriter         { return messageTx{t: &t.readTx, j: t.j} }
func (t *tx) UserTopics() storage.UserTopicWriter     { return userTopicTx{t: &t.readTx, j: t.j} }

var (
	_ storage.ReadTx = (*readTx)(nil)
	_ storage.Tx     = (*tx)(nil)
)
