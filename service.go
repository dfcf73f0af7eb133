package chat

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/teamchat/chat/bots"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/compose"
	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/emailgateway"
	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/files"
	"github.com/teamchat/chat/images"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/notify"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/queue"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/retention"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/transfer"
	"github.com/teamchat/chat/typing"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// Service is the chat engine. It is safe for concurrent use. Its methods, by the area package
// each delegates to (the area's doc.go maps its files):
//
//   - org: CreateZoomVideoCall, CreateWebexVideoCall, CreateBigBlueButtonVideoCall,
//     JoinBigBlueButtonVideoCall, GetRealmDomains, CreateRealmDomain, PatchRealmDomain,
//     DeleteRealmDomain, GetLinkifiers, AddLinkifier, UpdateLinkifier, RemoveLinkifier,
//     ReorderLinkifiers, AddCodePlayground, RemoveCodePlayground, CreateOrganization,
//     GetServerSettings, UpdateRealm, UpdateRealmUserSettingsDefaults, GetCustomEmoji,
//     UploadCustomEmoji, DeactivateCustomEmoji, GetServerEmojiData
//   - bots: GetBotStorage, UpdateBotStorage, RemoveBotStorage, DeliverServiceJobs,
//     HandleEmbeddedBot
//   - transfer: ExportRealm, GetRealmExports, DeleteRealmExport, GetRealmExportConsents,
//     GetRealmExportFile
//   - people: GetAlertWords, AddAlertWords, RemoveAlertWords, RegisterClientDevice,
//     RemoveClientDevice, RegisterPushDevice, AddApnsToken, RemoveApnsToken, AddFcmToken,
//     RemoveFcmToken, MarkOnboardingStepAsRead, UpdatePresence, GetRealmPresence,
//     GetUserPresence, AuthenticateAPIKey, AuthenticateWebhookAPIKey, AuthenticateAPIKeyFrom,
//     AuthenticateWebhookAPIKeyFrom, CachedAPIKey, AuthenticationStats, FetchAPIKey,
//     JWTFetchAPIKey, DevFetchAPIKey, DevListUsers, RegenerateAPIKey, ForgetCredentials,
//     StartSession, StartSessionWithPassword, AuthenticateSession, EndSession,
//     GetIsUserGroupMember, GetUserGroups, GetUserGroupMembers, GetUserGroupSubgroups,
//     CreateUserGroup, UpdateUserGroupMembers, UpdateUserGroupSubgroups, UpdateUserGroup,
//     DeactivateUserGroup, CreateInviteLink, GetInvites, RevokeInviteLink, EditInviteLink,
//     RedeemInviteLink,
//     SendInvites, RevokeEmailInvite, ResendEmailInvite, UpdateProfileData, RemoveProfileData,
//     GetCustomProfileFields, CreateCustomProfileField, UpdateCustomProfileField,
//     RemoveCustomProfileField, ReorderCustomProfileFields, ProvisionUser, UpdateUser,
//     UpdateUserByEmail, DeactivateUser, ReactivateUser, CreateUser, DeactivateOwnUser,
//     CreateBot, GetBots, UpdateBot, RegenerateBotAPIKey, DeactivateBot, GetUsers, GetUser,
//     GetUserByEmail, GetOwnUser, MuteUser, UnmuteUser, UpdateSettings, ConfirmEmailChange,
//     UpdateStatus, UpdateStatusForUser, GetUserStatus
//   - files: MaxUploadBytes, UploadFile, GetAttachments, RemoveAttachment, UploadAvatar,
//     DeleteAvatar, GetAvatarImage, GetAvatarURL, GetCustomEmojiImage, GetUploadedFile,
//     GetFileTemporaryURL, GetUploadedFileByToken, SweepUploads
//   - notify: DeliverMissedMessageEmails, QueueDigestEmails, SendTestEmail
//   - retention: ArchiveMessages, RestoreArchive
//   - conversations: ArchiveStream, AddDefaultStream, RemoveDefaultStream, CreateChannelFolder,
//     GetChannelFolders, UpdateChannelFolder, PatchChannelFolders, UpdateStream,
//     GetSubscriptions, GetStreams, GetStreamByID, GetStreamID, GetSubscribers,
//     GetSubscriptionStatus, Subscribe, CreateChannel, UpdateSubscriptionSettings,
//     UpdateSubscriptions, Unsubscribe, DeleteMessage, UpdateMessage, UpdateMessageFlags,
//     GetMessages, GetMessage, GetMessageHistory, CheckMessagesMatchNarrow, AddReaction,
//     RemoveReaction, MarkAllAsRead, MarkStreamAsRead, MarkTopicAsRead,
//     UpdateMessageFlagsForNarrow, GetReadReceipts, RenderMessage, ReportMessage, SendMessage,
//     DeleteTopic, GetStreamTopics, UpdateUserTopic, MuteTopic, NotifyBotOwner,
//     TestWelcomeBotCustomMessage
//   - typing (above conversations): SetTypingStatus, SetTypingStatusForMessageEdit
//   - emailgateway (above conversations): GetStreamEmailAddress, EmailMirrorMessage
//   - compose: GetDrafts, CreateDrafts, EditDraft, DeleteDraft, GetNavigationViews,
//     AddNavigationView, EditNavigationView, RemoveNavigationView, GetSavedSnippets,
//     CreateSavedSnippet, EditSavedSnippet, DeleteSavedSnippet, DeliverScheduledMessages,
//     StartScheduler, GetScheduledMessages, CreateScheduledMessage, UpdateScheduledMessage,
//     DeleteScheduledMessage, GetReminders, CreateMessageReminder, DeleteReminder
//   - the facade itself (register, the queues, the bus, the Service):
//     GetEventsAsync, EventsResult, RegisterQueue, GetEvents, DeleteQueue,
//     AppendRegisterJSON, Now, Close, CountAPIRequest, QueueStats
type Service struct {
	store  storage.Storage
	now    func() time.Time
	log    *slog.Logger
	opts   Options
	queues *queue.Manager
	fanout fanout
	// emoji indexes the unicode emoji (read-only), built on first use: most Services (a
	// test's) never check an emoji, and the index is nearly all of New's allocations.
	emoji func() *emoji.Index

	// eng runs the operations: transactions, gates, and events published in commit order
	// (internal/engine).
	eng *engine.Engine
	// compose is the compose area: drafts, saved snippets, navigation views.
	compose *compose.Service
	// retention is the message retention area (retention.go).
	retention *retention.Service
	// people is the people area: alert words, push devices, onboarding steps, presence.
	people *people.Service
	// conversations is the conversations area: channels, topics, messages; typing its typing
	// notifications, emailGateway the emails posted to channels.
	conversations *conversations.Service
	typing        *typing.Service
	emailGateway  *emailgateway.Service
	// files is the files area: uploads, attachments, thumbnails, avatars.
	files *files.Service
	// org is the org area: video calls, realm domains, code playgrounds, linkifiers.
	org *org.Service
	// bots is the bots area: bot storage, outgoing webhooks, embedded bots.
	bots *bots.Service
	// exports is the data-export area (package transfer): /export/realm.
	exports *transfer.Service
	// notify is the notifications area: missed-message emails.
	notify *notify.Service

	// bus is Options.Bus; busUp (under the engine's Exclusive) says whether it is listening,
	// busPos (likewise) is the id of the last message delivered. busStop and busDone stop and
	// wait for the listener.
	bus     Bus
	busUp   bool
	busPos  uint64
	busStop context.CancelFunc
	busDone chan struct{}
	// live reports the owners of this process's queues to the store (bus_live.go); nil
	// without a Bus.
	live *liveReports

	apiByUser *ratelimit.Limiter
	apiByAddr *ratelimit.Limiter
	// generation is server_generation: when this Service started (Unix seconds).
	generation int64
	// watchers are the owners of all_public_streams queues in this process.
	watchers publicWatchers

	closeOnce sync.Once
}

// fanout delivers committed events to the queues of their recipients. The in-process
// implementation is the queue manager; several processes can share events through another
// implementation.
type fanout interface {
	Publish(owners []int64, typ string, payload any)
}

// New returns a Service on opts.Store. Close it to stop its background work.
func New(opts Options) (*Service, error) {
	if opts.Store == nil {
		return nil, errors.New("chat: Options.Store is required")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.EmojiImages == nil && opts.Blobs != nil {
		opts.EmojiImages = org.NewBlobEmojiImages(opts.Blobs)
	}
	if opts.MaxFileUploadSizeMiB <= 0 {
		opts.MaxFileUploadSizeMiB = uploads.DefaultMaxFileUploadSizeMiB
	}
	if opts.HeartbeatWait <= 0 {
		opts.HeartbeatWait = 50 * time.Second
	}
	if opts.LoginRateLimit == nil {
		opts.LoginRateLimit = &ratelimit.Rule{Window: 30 * time.Minute, Max: 5}
	}
	if opts.APIRateLimit == nil {
		opts.APIRateLimit = &DefaultAPIRateLimit
	}
	if opts.AnonymousAPIRateLimit == nil {
		opts.AnonymousAPIRateLimit = &DefaultAnonymousAPIRateLimit
	}
	if opts.LoginAddressRateLimit == nil {
		opts.LoginAddressRateLimit = &ratelimit.Rule{Window: 30 * time.Minute, Max: 100}
	}
	s := &Service{
		generation: opts.Now().Unix(),
		store:      opts.Store,
		now:        opts.Now,
		log:        opts.Logger,
		opts:       opts,
		queues: queue.New(queue.Options{
			Now:                opts.Now,
			HeartbeatWait:      opts.HeartbeatWait,
			DefaultIdleTimeout: opts.QueueIdleTimeout,
			GCInterval:         opts.QueueGCInterval,
			MaxEventsPerQueue:  opts.MaxEventsPerQueue,
			MaxQueuesPerOwner:  opts.MaxQueuesPerUser,
			Filter:             adaptForQueue,
			IDPrefix:           nodePrefix(opts.NodeID),
			Observe:            observeFanout(opts.Monitor),
		}),
		apiByUser: ratelimit.New(*opts.APIRateLimit, opts.Now),
		apiByAddr: ratelimit.New(*opts.AnonymousAPIRateLimit, opts.Now),
		emoji:     sync.OnceValue(emoji.NewIndex),
	}
	s.fanout = s.queues
	s.bus = opts.Bus
	s.live = newLiveReports(opts) // bus_live.go
	cfg := engine.Config{Store: opts.Store, Now: opts.Now, Log: opts.Logger, Publish: s.publish, FakeEmailDomain: opts.FakeEmailDomain}
	if s.bus != nil {
		cfg.PublishInTx = s.publishInTx
	}
	s.eng = engine.New(cfg)
	// The key that signs the BigBlueButton call links this process gives out.
	callKey := make([]byte, 32)
	_, _ = rand.Read(callKey) // crypto/rand.Read does not fail
	// Uploaded images (thumbnails, avatars, custom emoji) are decoded within one memory
	// budget per Service.
	imgs := images.New(images.Config{})
	s.org = org.New(s.eng, org.Config{
		CallKey: callKey, Dev: opts.Dev, PushNotificationsEnabled: opts.PushNotificationsEnabled,
		EmojiImages: opts.EmojiImages, Emoji: s.emoji, Images: imgs,
	})
	s.files = files.New(s.eng, files.Config{
		Now: opts.Now, Log: opts.Logger, Blobs: opts.Blobs, EmojiImages: opts.EmojiImages,
		MaxFileUploadSizeMiB: opts.MaxFileUploadSizeMiB, UploadQuotaMiB: opts.UploadQuotaMiB,
		FileUploaded: s.monitorUpload, Images: imgs,
	})
	s.people = people.New(s.eng, people.Config{
		Now: opts.Now, Log: opts.Logger, NavigationTourVideoURL: opts.NavigationTourVideoURL,
		Dev: opts.Dev, JWTKey: opts.JWTKey, SessionAge: opts.SessionAge,
		WeakPasswords:             opts.WeakPasswords,
		EmailChangeRequested:      opts.EmailChangeRequested,
		CreateMultiuseInviteGroup: opts.CreateMultiuseInviteGroup,
		InvitationLinkValidity:    opts.InvitationLinkValidity,
		Mailer:                    opts.Mailer,
		EmailSent:                 s.emailSent, // notify.go
		LoginRateLimit:            *opts.LoginRateLimit, LoginAddressRateLimit: *opts.LoginAddressRateLimit,
		PasswordHashing: opts.PasswordHashing,
		CredentialsOff:  s.bus != nil, // until the bus listens
		Org:             s.org,
		Hooks: people.Hooks{
			SubscribeNewUser: func(o *engine.WriteOp, id users.ID, want func(channels.Channel) bool) error {
				return s.conversations.SubscribeNewUser(o, id, want)
			},
			DeleteMessages: func(tx storage.Tx, ev *engine.Events, w *world.World, me users.User, ids []messages.ID) error {
				return s.conversations.DeleteMessages(tx, ev, w, me, ids)
			},
			NotifyUser: func(tx storage.Tx, ev *engine.Events, w *world.World, to users.ID, content string) error {
				return s.conversations.NotifyUser(tx, ev, w, to, content)
			},
			MessagesRead: conversations.AnnounceRead,
			WelcomeNewUser: func(tx storage.Tx, ev *engine.Events, w *world.World, to users.ID, greeting, text string) error {
				return s.conversations.SendWelcomeMessages(tx, ev, w, to, greeting, text)
			},
		},
	})
	s.conversations = conversations.New(s.eng, conversations.Config{
		Now: opts.Now, Log: opts.Logger, Org: s.org, Files: s.files,
		MarkReadBatchSize: opts.MarkReadBatchSize, MarkReadBudget: opts.MarkReadBudget,
		TopicDeleteBatchSize: opts.TopicDeleteBatchSize, TopicDeleteBudget: opts.TopicDeleteBudget,
	})
	s.typing = typing.New(s.eng, typing.Config{Now: opts.Now, Log: opts.Logger})
	s.emailGateway = emailgateway.New(s.eng, emailgateway.Config{Pattern: opts.EmailGatewayPattern, Files: s.files})
	composeCfg := compose.Config{
		Store: opts.Store, Log: opts.Logger,
		SchedulerInterval: opts.SchedulerInterval, SchedulerBatchSize: opts.SchedulerBatchSize,
		Conversations: s.conversations,
	}
	if opts.Monitor != nil {
		composeCfg.Delivered = opts.Monitor.ScheduledMessagesDelivered
	}
	s.compose = compose.New(s.eng, composeCfg)
	s.retention = retention.New(s.eng, retentionConfig(opts, s.files))
	s.bots = bots.New(s.eng, bots.Config{
		Store: opts.Store, Send: conversations.SendAsBot, React: s.reactAsBot, Log: opts.Logger,
		Timeout: opts.OutgoingWebhookTimeout, RetryDelay: opts.OutgoingWebhookRetryDelay, Interval: opts.SchedulerInterval,
		AllowPrivateTargets: opts.AllowPrivateWebhookTargets, UserAgent: "ZulipOutgoingWebhook/" + ServiceVersion,
	})
	s.exports = transfer.New(s.eng, transfer.Config{Store: opts.Store, Blobs: opts.Blobs, Log: opts.Logger})
	s.notify = notify.New(s.eng, s.notifyConfig()) // notify.go
	after, err := s.restoreQueues(context.Background())
	if err != nil {
		s.queues.Close()
		return nil, fmt.Errorf("chat: restoring event queues: %w", err)
	}
	if s.bus != nil {
		if err := s.startBus(after); err != nil {
			s.queues.Close()
			return nil, err
		}
		s.startLiveReports()
	}
	interval := opts.TypingExpiryInterval
	if interval <= 0 {
		interval = time.Second
	}
	s.typing.StartExpiry(interval)
	return s, nil
}

// Now is the time on the Service's clock (Options.Now), the time its operations act at.
func (s *Service) Now() time.Time { return s.now() }

// Close ends every waiting long-poll, stops the Service's background work and saves the event
// queues in the store, so that a Service started later on the same store (with a Bus: with the
// same NodeID) continues them. It does not close the store, which belongs to the caller.
// Mutations that start once Close has begun are refused (503 SERVER_SHUTTING_DOWN, with
// retry-after); those in flight finish first, for up to Options.DrainTimeout.
func (s *Service) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.typing.StopExpiry()
		s.compose.StopScheduler()
		s.retention.Stop()
		s.bots.Stop()
		s.notify.Stop()
		s.exports.Close()
		s.eng.Drain(s.opts.DrainTimeout)
		err = s.eng.Close(func() error {
			s.queues.Close()
			return s.saveQueues()
		})
		s.stopLiveReports()
	})
	s.stopBus()
	return err
}

// publish hands the events of a committed mutation to the queues and ends the queues ev
// names (without a Bus; with one the bus delivers them). The engine calls it in commit order.
func (s *Service) publish(ev *engine.Events) {
	if s.bus != nil {
		return
	}
	for _, p := range ev.List {
		s.fanout.Publish(s.recipientsOf(p), p.Type, p.Payload)
	}
	for _, owner := range ev.End {
		s.queues.DeleteOwner(owner)
	}
}

// storageError passes *Error values through, keeps context errors recognisable and turns
// anything else into a logged internal error.
func (s *Service) storageError(err error) error { return engine.StorageError(s.log, err) }

// nodePrefix is the queue id prefix of a node.
func nodePrefix(node string) string {
	if node == "" {
		return ""
	}
	return node + ":"
}
