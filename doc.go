// Package chat is a Zulip-compatible team-chat engine: the Service type has one method per
// operation of the Zulip API (named after its operationId), works on any storage.Storage
// backend, and delivers real-time events through in-process event queues.
//
// Every method takes a context first, then the acting user (an Actor produced by one of the
// authentication methods) where the operation has one, then a Params struct; it returns a Result
// struct and an error. Errors are *Error values carrying the API's code and HTTP status.
//
// Each mutation runs in one storage transaction; the events it causes are collected during the
// transaction and published only after it commits, in commit order. Registration of an event
// queue is race-free: the state it returns plus every event delivered after its last_event_id
// equals the true state. The kernel that keeps these promises is internal/engine: read and
// mutate, the gates, the error type and codes, the events of a transaction, and the order of
// commits and publications. On SQLite, whose commits each cost an fsync and come one at a time,
// concurrent mutations share commits (group commit): a group's bodies run in one transaction,
// each as if in a savepoint. On PostgreSQL (without a Bus) sends overlap: their transactions
// run side by side and their events go out in the order of a ticket each takes just before its
// commit. The engine's package documentation gives the argument for each. No operation can
// reach the write lock, the commit groups or the overlap state: they are the engine's own.
//
// Several processes may share one store and its events (Options.Bus, Options.NodeID; the
// PostgreSQL implementation is eventbus/pgbus). The only change to the write path is where the
// events go: the Service hands each transaction's events to the bus inside that transaction
// (the bus finds its own way into it through the optional storage.SQLTx capability), so the
// database delivers them to every process on commit, in commit order, and never for a
// rollback; each process then fills its own queues. Without a Bus the in-process path is
// unchanged. Queue ids name the node holding the queue ("NODE:UUID"); httpapi forwards event
// requests to it. bus.go details the design, including race-free registration across
// processes.
//
// Imports: the area packages (compose, people, org), internal/engine, internal/world,
// internal/clients, the leaf domain packages, storage, queue, ratelimit and markdown; never a
// storage backend and never httpapi.
//
// # Where the code lives
//
// The root is becoming a map (see ARCHITECTURE in the shared docs): a kernel below
// (internal/engine: transactions, gates, errors, events, commit order; internal/world: the
// facts of one transaction and the access predicates; internal/clients: what a client
// declared at register), area packages above it (compose, people, org so far; each owns its
// operations and their Params, Result, Record and Event types, and imports only the kernel,
// storage, the leaves and the areas below it), and this package on top: the Service, whose
// method per operation delegates to an area, register with its initial state, the queues and
// the bus, and the operations that span areas. The areas still in this package are listed in
// the code map below; TestAreaGraph (internal/areagraph) assigns each the package it is to
// become and keeps the references that still go the wrong way in its
// testdata/area-back-edges.txt, a list that only shrinks.
//
// # How to add an operation
//
// A new operation goes into the package of its area (compose, people, org, or the area's file
// here while it has no package yet), and the Service gets a method of one line that delegates
// to it, with aliases of its new types (compose.go, people.go, org.go). The operation is a
// method named after Zulip's operationId. It reads: check the form of the parameters (no
// transaction needed), then one call of the engine's Read (a read-only transaction) or Mutate
// (a write transaction whose events are published after commit) with the operation's gate,
// then shape the result (package compose):
//
//	// DeleteDraftParams are the parameters of DELETE /drafts/{draft_id}.
//	type DeleteDraftParams struct {
//		DraftID drafts.ID
//	}
//
//	// DeleteDraftResult is empty.
//	type DeleteDraftResult struct{}
//
//	// DeleteDraft removes one of the actor's drafts and sends a drafts remove event to the actor.
//	func (s *Service) DeleteDraft(ctx context.Context, actor engine.Actor, p DeleteDraftParams) (DeleteDraftResult, error) {
//		err := s.eng.Mutate(ctx, actor, draftsUsers, func(o *engine.WriteOp) error {
//			if err := engine.NotFound(o.Tx.Drafts().Delete(o.Me.ID, p.DraftID), errDraftNotFound); err != nil {
//				return err
//			}
//			o.Ev.Add("drafts", DraftsEvent{Type: "drafts", Op: "remove", DraftID: p.DraftID}, []int64{int64(o.Me.ID)})
//			return nil
//		})
//		return DeleteDraftResult{}, err
//	}
//
// and a read that decides with the world (topics_get.go, in this package: s.read and s.mutate
// are the engine's Read and Mutate):
//
//	func (s *Service) GetStreamTopics(ctx context.Context, actor Actor, p GetStreamTopicsParams) (GetStreamTopicsResult, error) {
//		res := GetStreamTopicsResult{Topics: []TopicRecord{}}
//		err := s.read(ctx, actor, engine.SignedIn, func(o *readOp) error {
//			me, w := o.Me, o.World()
//			c, ok := w.Channel(p.StreamID)
//			if !ok || !w.Metadata(c, me) {
//				return errInvalidChannelID
//			}
//			list, err := o.Tx.Messages().Topics(c.ID, me.ID, w.Content(c, me))
//			...
//		})
//		...
//	}
//
// What the engine gives the body, o (engine.ReadOp, engine.WriteOp):
//   - o.Me, the acting user, loaded once inside the transaction, who passed the gate:
//     engine.NoActor, Spectators, SignedIn, Humans, Members, Admins, Owners
//     (internal/engine/actor.go), or an area's own gate built on them (draftsUsers,
//     nonGuests, userCreators). Finer checks (the owner of this bot, the administrator of this
//     channel) are the body's first lines.
//   - o.Now, the operation's time, read once per run; never read the clock in or before a body.
//   - o.Tx, the transaction (writable in a mutation); o.World(), the organization, groups,
//     channels, users and subscribers, read on first use and cached for the transaction
//     (internal/world). A failed read of the world is its sticky error: the engine returns it
//     when the body returns, so the body needs no error handling for world reads.
//   - o.Ev (mutations): o.Ev.Add(type, payload, recipients) records an event, published only
//     after the commit; o.Ev.AfterCommit(fn) runs other work then.
//   - engine.NotFound(err, errXNotFound) turns storage.ErrNotFound into the area's error,
//     which each area defines once (errDraftNotFound, errChannelIDNotFound, ...).
//
// The store may run the body more than once (SQLite busy, PostgreSQL serialization failures):
// the body only reads, writes and adds events. Queues, timers, files, mail and network calls
// happen before Mutate, after it returns, or in o.Ev.AfterCommit. Errors are *engine.Error
// values (chat.Error) with Zulip's code and wording (internal/engine/errors.go); validation
// errors name the parameter.
//
// Beside the method: the storage it needs on both backends with a storagetest case; for a
// mutation, a case in the consistency harness (consistency_test.go), a golden file per new
// event and a row in httpapi's authorization matrix; the route in httpapi/routes.go.
//
// # Code map
//
// Every file of the package is named <area>.go or <area>_<aspect>.go, with one of the areas
// below (TestFilesFollowCodeMap keeps it so). An operation lives in its area's file for its
// aspect: the operation X of Zulip's API is the method Service.X, in the file listed beside it.
// A new operation goes into the file of its area and aspect, or a new <area>_<aspect>.go.
//
//	kernel    the adapters of internal/engine and internal/world: read and mutate with the
//	          world (kernel_ops.go); the aliases of the engine's error type and codes
//	          (kernel_errors.go); Actor, the gate type and the users an operation names
//	          (kernel_actors.go); the limits register reports and the areas enforce
//	          (kernel_limits.go)
//	service   New, Close, Now and the publication of events (service.go); CountAPIRequest
//	          (service_ratelimit.go); QueueStats and the Monitor hook (service_stats.go)
//	world     (internal/world) the per-transaction view of the organization that decisions
//	          read: users, groups, channels, subscribers, channel activity, access predicates
//	bus       several processes sharing one store's events (bus.go)
//	auth      AuthenticateAPIKey, AuthenticateWebhookAPIKey, FetchAPIKey, JWTFetchAPIKey,
//	          DevFetchAPIKey, DevListUsers
//	          (auth.go); RegenerateAPIKey (auth_apikeys.go); password hashing (auth_passwords.go);
//	          the cache of checked API keys and sessions and ForgetCredentials (auth_cache.go)
//	          web sessions: StartSession, StartSessionWithPassword, AuthenticateSession,
//	          EndSession, ended by a password change, a new API key and deactivation
//	          (auth_sessions.go)
//	events    RegisterQueue, GetEvents, DeleteQueue (events_register.go); the initial state of
//	          register (events_state.go, and each area's *_state.go or *State function); event
//	          payloads (events.go); queues kept across restarts (events_persist.go); all_public_streams
//	          queues (events_public.go); one encoding per form of an event (events_forms.go)
//	realm     CreateOrganization (realm.go); UpdateRealm (realm_update.go, realm_editing.go);
//	          register's realm keys beyond the settings' own (realm_state.go);
//	          UpdateRealmUserSettingsDefaults (realm_user_defaults.go); GetServerSettings
//	          (realm_server.go); GetCustomProfileFields, CreateCustomProfileField,
//	          UpdateProfileData, RemoveProfileData (realm_profile.go); GetCustomEmoji,
//	          UploadCustomEmoji, DeactivateCustomEmoji, register's
//	          realm_emoji and server_emoji_data_url, the emoji named in requests
//	          (realm_emoji.go); UpdateCustomProfileField, RemoveCustomProfileField,
//	          ReorderCustomProfileFields (realm_profile_fields.go)
//	org       the facade of package org (org.go): CreateZoomVideoCall, CreateWebexVideoCall,
//	          CreateBigBlueButtonVideoCall, JoinBigBlueButtonVideoCall, GetRealmDomains,
//	          CreateRealmDomain, PatchRealmDomain, DeleteRealmDomain, GetLinkifiers,
//	          AddLinkifier, UpdateLinkifier, RemoveLinkifier, ReorderLinkifiers,
//	          AddCodePlayground, RemoveCodePlayground
//	users     ProvisionUser (users.go); GetUsers, GetUser, GetUserByEmail, GetOwnUser
//	          (users_get.go); CreateUser, UpdateUser, UpdateUserByEmail, DeactivateUser,
//	          DeactivateOwnUser, ReactivateUser (users_admin.go); CreateBot (users_bots.go);
//	          GetBots and register's realm_bots (users_bots_admin.go); UpdateBot,
//	          RegenerateBotAPIKey, DeactivateBot (users_bots_update.go); UpdateSettings,
//	          ConfirmEmailChange (users_settings.go); UpdateStatus, UpdateStatusForUser,
//	          GetUserStatus (users_status.go); MuteUser, UnmuteUser (users_muted.go); user
//	          records (users_record.go) and events (users_events.go)
//	people    the facade of package people (people.go): GetAlertWords, AddAlertWords,
//	          RemoveAlertWords, RegisterClientDevice, RemoveClientDevice, RegisterPushDevice,
//	          AddApnsToken, RemoveApnsToken, AddFcmToken, RemoveFcmToken,
//	          MarkOnboardingStepAsRead, UpdatePresence, GetRealmPresence, GetUserPresence
//	groups    GetUserGroups, GetUserGroupMembers, GetUserGroupSubgroups, GetIsUserGroupMember
//	          (groups.go); CreateUserGroup, UpdateUserGroup, UpdateUserGroupMembers,
//	          UpdateUserGroupSubgroups, DeactivateUserGroup (groups_write.go); register's
//	          group records kept across registrations (groups_record_cache.go)
//	channels  GetStreams, GetStreamByID, GetStreamID, GetSubscriptions, GetSubscribers,
//	          GetSubscriptionStatus (channels_read.go); Subscribe, CreateChannel
//	          (channels_subscribe.go); Unsubscribe (channels_unsubscribe.go);
//	          UpdateSubscriptionSettings (channels_subscription_settings.go); UpdateSubscriptions
//	          (channels_subscriptions_legacy.go); UpdateStream (channels_properties.go);
//	          ArchiveStream (channels_archive.go); AddDefaultStream, RemoveDefaultStream
//	          (channels_defaults.go); CreateChannelFolder, GetChannelFolders,
//	          UpdateChannelFolder, PatchChannelFolders (channels_folders.go);
//	          GetStreamEmailAddress (channels_email.go); records (channels_record.go), activity
//	          (channels_activity.go), notices of the notification bot (channels_notices.go)
//	topics    GetStreamTopics (topics_get.go); DeleteTopic (topics_delete.go); UpdateUserTopic,
//	          MuteTopic (topics_user.go)
//	messages  SendMessage (messages_send.go); GetMessages, GetMessage (messages_get.go);
//	          narrows and search, in GET /messages and register (messages_narrow.go);
//	          UpdateMessage (messages_edit*.go); DeleteMessage (messages_delete.go);
//	          UpdateMessageFlags (messages_flags.go); AddReaction, RemoveReaction
//	          (messages_reactions.go); SetTypingStatus, SetTypingStatusForMessageEdit and the
//	          expiry of typing (messages_typing.go); MarkAllAsRead, MarkStreamAsRead,
//	          MarkTopicAsRead, UpdateMessageFlagsForNarrow (messages_read.go); GetMessageHistory
//	          (messages_history.go); RenderMessage (messages_render.go); GetReadReceipts
//	          (messages_receipts.go); CheckMessagesMatchNarrow (messages_matches.go);
//	          ReportMessage (messages_report.go); who may read a message
//	          (messages_access.go); records, rendering, initial state (messages_record.go,
//	          messages_render.go, messages_state.go)
//	compose   the facade of package compose (compose.go): GetDrafts, CreateDrafts, EditDraft,
//	          DeleteDraft, GetSavedSnippets, CreateSavedSnippet, EditSavedSnippet,
//	          DeleteSavedSnippet, GetNavigationViews, AddNavigationView, EditNavigationView,
//	          RemoveNavigationView
//	drafts    register's sections of compose, linkifiers and playgrounds (drafts_state.go)
//	export    the facade of package transfer (export.go): ExportRealm, GetRealmExports,
//	          DeleteRealmExport, GetRealmExportConsents, GetRealmExportFile
//	invites   CreateInviteLink, GetInvites, RevokeInviteLink, RedeemInviteLink (invites.go);
//	          SendInvites, RevokeEmailInvite, ResendEmailInvite and the Mailer (invites_email.go)
//	uploads   UploadFile (uploads.go); GetAttachments, RemoveAttachment, the messages linking
//	          a file (uploads_attachments.go); GetUploadedFile, GetFileTemporaryURL,
//	          GetUploadedFileByToken (uploads_serve.go); thumbnails (uploads_images.go);
//	          SweepUploads (uploads_sweep.go); UploadAvatar, DeleteAvatar, GetAvatarImage,
//	          GetAvatarURL, GetCustomEmojiImage (uploads_avatars.go: the images served under
//	          /user_avatars/)
//	scheduled GetScheduledMessages, CreateScheduledMessage, UpdateScheduledMessage,
//	          DeleteScheduledMessage (scheduled_messages.go); GetReminders,
//	          CreateMessageReminder, DeleteReminder (scheduled_reminders.go); the scheduler:
//	          DeliverScheduledMessages, StartScheduler, register's scheduled_messages and
//	          reminders (scheduled_deliver.go)
//
// # Test files
//
// A test sits beside its code (x.go, x_test.go) or in <area>_<behaviour>_test.go. The shared
// test machinery has its own prefixes:
//
//	applier      the event applier of the consistency harness
//	bench        benchmarks (numbers in BENCHMARKS.md)
//	consistency  the consistency harness: state + events = fresh state, for every mutation
//	cpu          CPU time per benchmark operation
//	doc          this map's test
//	example      Example functions
//	export       test access to unexported names
//	golden       golden files of events (testdata/)
//	helpers      test helpers
//	imports      the import direction of every package
//	stress       concurrent operations under -race
package chat
