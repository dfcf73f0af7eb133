// Package conversations is the conversations area of the chat engine: channels and their
// subscriptions and folders, topics, messages with their flags, reactions, edits and
// deletions, and read state (Zulip's /streams, /users/me/subscriptions, /channel_folders,
// /users/me/{stream}/topics, /user_topics, /messages, /mark_all_as_read and their kin).
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine): check the form of the parameters, then one engine Read or Mutate with the
// operation's gate, then shape the result. The package owns its Params, Result, Record and
// Event types; package chat aliases them and its Service delegates to this one. register's
// sections come from ChannelsInitialState and MessagesInitialState. The notification bot's
// messages go through the path every message takes (channels_notices.go, NotifyUser), and the
// areas above this one send through it too: the scheduler of package compose delivers with
// SendAs, Address, RenderMessage and DeliverMessage. The people area's Hooks are
// SubscribeNewUser, DeleteMessages, NotifyUser, AnnounceRead and SendWelcomeMessage.
//
// Files, by aspect (a new operation goes into the file of its aspect, or a new one):
//
//	channels  GetSubscriptions (channels_read.go); GetStreams, GetStreamByID, GetStreamID,
//	          GetSubscribers, GetSubscriptionStatus and register's channels
//	          (channels_streams.go); Subscribe, CreateChannel (channels_subscribe.go);
//	          Unsubscribe (channels_unsubscribe.go); UpdateSubscriptionSettings
//	          (channels_subscription_settings.go); UpdateSubscriptions
//	          (channels_subscriptions_legacy.go); UpdateStream (channels_properties.go);
//	          ArchiveStream (channels_archive.go); AddDefaultStream, RemoveDefaultStream and a
//	          new user's channels (channels_defaults.go); CreateChannelFolder,
//	          GetChannelFolders, UpdateChannelFolder, PatchChannelFolders
//	          (channels_folders.go); records
//	          (channels_record.go, channels_record_cache.go), events (channels_events.go),
//	          activity (channels_activity.go), the new-channel template (channels_template.go),
//	          notices of the notification bot (channels_notices.go)
//	topics    GetStreamTopics (topics_get.go); DeleteTopic (topics_delete.go); UpdateUserTopic,
//	          MuteTopic (topics_user.go)
//	messages  SendMessage (messages_send.go, messages_prerender.go; its answer's links,
//	          messages_send_link.go); GetMessages, GetMessage (messages_get.go);
//	          UpdateMessage (messages_edit*.go); DeleteMessage (messages_delete.go);
//	          UpdateMessageFlags (messages_flags.go); AddReaction, RemoveReaction
//	          (messages_reactions.go); MarkAllAsRead, MarkStreamAsRead, MarkTopicAsRead,
//	          UpdateMessageFlagsForNarrow (messages_read.go); GetMessageHistory
//	          (messages_history.go); RenderMessage (messages_render.go); GetReadReceipts
//	          (messages_receipts.go); CheckMessagesMatchNarrow (messages_matches.go);
//	          ReportMessage (messages_report.go); TestWelcomeBotCustomMessage and the Welcome
//	          Bot's message to new users (messages_welcome.go); records and initial state
//	          (messages_record.go, messages_state.go)
//
// Beside this package: narrows and search, and who may read a message, are package narrows',
// below it (the operations that take a narrow resolve it with narrows.Resolve in their
// transaction); the typing notifications (package typing) and the channels' email gateway
// (package emailgateway, which sends through DeliverMessage) are above it. A new operation
// that only reads this area's facts, as those do, goes into such a package of its own rather
// than here. Imports: narrows, files, people and org (the areas below), internal/engine,
// internal/world, internal/clients, storage and the leaves; never package chat, and no area
// above it.
package conversations
