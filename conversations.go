package chat

import (
	"context"

	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/emailgateway"
	"github.com/teamchat/chat/typing"
)

// Channels and subscriptions, topics, messages and their flags, reactions, typing, narrows and
// search, and read state are the conversations area's operations (package conversations, with
// packages narrows, typing and emailgateway beside it); the Service delegates.

// The types of the conversations area, defined in package conversations: these aliases keep embedders' code
// compiling.
type (
	NotifyBotOwnerParams                = conversations.NotifyBotOwnerParams
	NotifyBotOwnerResult                = conversations.NotifyBotOwnerResult
	PatchChannelFoldersResult           = conversations.PatchChannelFoldersResult
	MarkTopicAsReadResult               = conversations.MarkTopicAsReadResult
	MarkStreamAsReadResult              = conversations.MarkStreamAsReadResult
	RemoveReactionResult                = conversations.RemoveReactionResult
	AddReactionResult                   = conversations.AddReactionResult
	SetTypingStatusForMessageEditResult = typing.SetTypingStatusForMessageEditResult
	SetTypingStatusResult               = typing.SetTypingStatusResult
	MuteTopicResult                     = conversations.MuteTopicResult
	UpdateUserTopicResult               = conversations.UpdateUserTopicResult
	DeleteMessageResult                 = conversations.DeleteMessageResult
	ArchiveStreamParams                 = conversations.ArchiveStreamParams
	ArchiveStreamResult                 = conversations.ArchiveStreamResult
	DefaultStreamParams                 = conversations.DefaultStreamParams
	DefaultStreamResult                 = conversations.DefaultStreamResult
	GetStreamEmailAddressParams         = emailgateway.GetStreamEmailAddressParams
	GetStreamEmailAddressResult         = emailgateway.GetStreamEmailAddressResult
	TestWelcomeBotCustomMessageParams   = conversations.TestWelcomeBotCustomMessageParams
	EmailMirrorMessageParams            = emailgateway.EmailMirrorMessageParams
	EmailMirrorMessageResult            = emailgateway.EmailMirrorMessageResult
	TestWelcomeBotCustomMessageResult   = conversations.TestWelcomeBotCustomMessageResult
	ChannelFolderRecord                 = conversations.ChannelFolderRecord
	ChannelFolderEvent                  = conversations.ChannelFolderEvent
	CreateChannelFolderParams           = conversations.CreateChannelFolderParams
	CreateChannelFolderResult           = conversations.CreateChannelFolderResult
	GetChannelFoldersParams             = conversations.GetChannelFoldersParams
	GetChannelFoldersResult             = conversations.GetChannelFoldersResult
	UpdateChannelFolderParams           = conversations.UpdateChannelFolderParams
	UpdateChannelFolderResult           = conversations.UpdateChannelFolderResult
	PatchChannelFoldersParams           = conversations.PatchChannelFoldersParams
	ChannelFolderReorderEvent           = conversations.ChannelFolderReorderEvent
	UpdateStreamParams                  = conversations.UpdateStreamParams
	UpdateStreamResult                  = conversations.UpdateStreamResult
	GetSubscriptionsParams              = conversations.GetSubscriptionsParams
	GetSubscriptionsResult              = conversations.GetSubscriptionsResult
	SubscriptionState                   = conversations.SubscriptionState
	GetStreamsParams                    = conversations.GetStreamsParams
	GetStreamsResult                    = conversations.GetStreamsResult
	ChannelsState                       = conversations.ChannelsState
	GetStreamByIDParams                 = conversations.GetStreamByIDParams
	GetStreamByIDResult                 = conversations.GetStreamByIDResult
	GetStreamIDParams                   = conversations.GetStreamIDParams
	GetStreamIDResult                   = conversations.GetStreamIDResult
	GetSubscribersParams                = conversations.GetSubscribersParams
	GetSubscribersResult                = conversations.GetSubscribersResult
	GetSubscriptionStatusParams         = conversations.GetSubscriptionStatusParams
	GetSubscriptionStatusResult         = conversations.GetSubscriptionStatusResult
	ChannelRecord                       = conversations.ChannelRecord
	SubscriptionRecord                  = conversations.SubscriptionRecord
	StreamEvent                         = conversations.StreamEvent
	StreamUpdateEvent                   = conversations.StreamUpdateEvent
	SubscriptionEvent                   = conversations.SubscriptionEvent
	SubscriptionUpdateEvent             = conversations.SubscriptionUpdateEvent
	DefaultStreamsEvent                 = conversations.DefaultStreamsEvent
	SubscriptionRequest                 = conversations.SubscriptionRequest
	NewChannelSettings                  = conversations.NewChannelSettings
	Principals                          = conversations.Principals
	SubscribeParams                     = conversations.SubscribeParams
	SubscribeResult                     = conversations.SubscribeResult
	CreateChannelParams                 = conversations.CreateChannelParams
	CreateChannelResult                 = conversations.CreateChannelResult
	SubscriptionPropertyChange          = conversations.SubscriptionPropertyChange
	UpdateSubscriptionSettingsParams    = conversations.UpdateSubscriptionSettingsParams
	UpdateSubscriptionSettingsResult    = conversations.UpdateSubscriptionSettingsResult
	UpdateSubscriptionsParams           = conversations.UpdateSubscriptionsParams
	UpdateSubscriptionsResult           = conversations.UpdateSubscriptionsResult
	UnsubscribeParams                   = conversations.UnsubscribeParams
	UnsubscribeResult                   = conversations.UnsubscribeResult
	DeleteMessageParams                 = conversations.DeleteMessageParams
	UpdateMessageParams                 = conversations.UpdateMessageParams
	UpdateMessageResult                 = conversations.UpdateMessageResult
	UpdateMessageEvent                  = conversations.UpdateMessageEvent
	TopicLink                           = conversations.TopicLink
	UpdateMessageFlagsParams            = conversations.UpdateMessageFlagsParams
	UpdateMessageFlagsResult            = conversations.UpdateMessageFlagsResult
	UpdateMessageFlagsEvent             = conversations.UpdateMessageFlagsEvent
	UnreadMessageDetails                = conversations.UnreadMessageDetails
	GetMessagesParams                   = conversations.GetMessagesParams
	GetMessagesResult                   = conversations.GetMessagesResult
	GetMessageParams                    = conversations.GetMessageParams
	GetMessageResult                    = conversations.GetMessageResult
	GetMessageHistoryParams             = conversations.GetMessageHistoryParams
	MessageSnapshot                     = conversations.MessageSnapshot
	GetMessageHistoryResult             = conversations.GetMessageHistoryResult
	CheckMessagesMatchNarrowParams      = conversations.CheckMessagesMatchNarrowParams
	NarrowMatch                         = conversations.NarrowMatch
	CheckMessagesMatchNarrowResult      = conversations.CheckMessagesMatchNarrowResult
	NarrowTerm                          = conversations.NarrowTerm
	ReactionRecord                      = conversations.ReactionRecord
	ReactionEvent                       = conversations.ReactionEvent
	ReactionEventUser                   = conversations.ReactionEventUser
	AddReactionParams                   = conversations.AddReactionParams
	RemoveReactionParams                = conversations.RemoveReactionParams
	MarkAllAsReadResult                 = conversations.MarkAllAsReadResult
	MarkStreamAsReadParams              = conversations.MarkStreamAsReadParams
	MarkTopicAsReadParams               = conversations.MarkTopicAsReadParams
	UpdateMessageFlagsForNarrowParams   = conversations.UpdateMessageFlagsForNarrowParams
	UpdateMessageFlagsForNarrowResult   = conversations.UpdateMessageFlagsForNarrowResult
	GetReadReceiptsParams               = conversations.GetReadReceiptsParams
	GetReadReceiptsResult               = conversations.GetReadReceiptsResult
	MessageRecord                       = conversations.MessageRecord
	DisplayRecipientUser                = conversations.DisplayRecipientUser
	MessageEvent                        = conversations.MessageEvent
	RenderMessageParams                 = conversations.RenderMessageParams
	RenderMessageResult                 = conversations.RenderMessageResult
	ReportMessageParams                 = conversations.ReportMessageParams
	ReportMessageResult                 = conversations.ReportMessageResult
	SendMessageParams                   = conversations.SendMessageParams
	SendMessageResult                   = conversations.SendMessageResult
	MessagesState                       = conversations.MessagesState
	UnreadMsgs                          = conversations.UnreadMsgs
	UnreadDirect                        = conversations.UnreadDirect
	UnreadStream                        = conversations.UnreadStream
	UnreadHuddle                        = conversations.UnreadHuddle
	RecentPrivateConversation           = conversations.RecentPrivateConversation
	UserTopicRecord                     = conversations.UserTopicRecord
	SetTypingStatusParams               = typing.SetTypingStatusParams
	SetTypingStatusForMessageEditParams = typing.SetTypingStatusForMessageEditParams
	TypingUser                          = typing.TypingUser
	TypingEvent                         = typing.TypingEvent
	TypingEditMessageEvent              = typing.TypingEditMessageEvent
	TypingEditRecipient                 = typing.TypingEditRecipient
	PublicChannelMessage                = conversations.PublicChannelMessage
	DeleteTopicParams                   = conversations.DeleteTopicParams
	DeleteTopicResult                   = conversations.DeleteTopicResult
	DeleteMessageEvent                  = conversations.DeleteMessageEvent
	StreamFirstMessageEvent             = conversations.StreamFirstMessageEvent
	GetStreamTopicsParams               = conversations.GetStreamTopicsParams
	TopicRecord                         = conversations.TopicRecord
	GetStreamTopicsResult               = conversations.GetStreamTopicsResult
	UpdateUserTopicParams               = conversations.UpdateUserTopicParams
	UserTopicEvent                      = conversations.UserTopicEvent
	MutedTopicsEvent                    = conversations.MutedTopicsEvent
	MuteTopicParams                     = conversations.MuteTopicParams
)

// ArchiveStream archives a channel: it stays readable and its subscriptions can still be
// changed, but it leaves the default channels and no longer appears in most lists. Users who
// could see it receive stream delete with for_archiving true.
func (s *Service) ArchiveStream(ctx context.Context, actor Actor, p ArchiveStreamParams) (ArchiveStreamResult, error) {
	return s.conversations.ArchiveStream(ctx, actor, p)
}

// AddDefaultStream makes a public channel a default channel (administrators only).
func (s *Service) AddDefaultStream(ctx context.Context, actor Actor, p DefaultStreamParams) (DefaultStreamResult, error) {
	return s.conversations.AddDefaultStream(ctx, actor, p)
}

// RemoveDefaultStream removes a channel from the default channels (administrators only).
func (s *Service) RemoveDefaultStream(ctx context.Context, actor Actor, p DefaultStreamParams) (DefaultStreamResult, error) {
	return s.conversations.RemoveDefaultStream(ctx, actor, p)
}

// GetStreamEmailAddress returns the address that posts to a channel by email (empty without
// Options.EmailGatewayPattern); the checks are Zulip's: the actor must be able to post to the
// channel, and the sender must be the Email Gateway bot, the actor or a bot the actor
// administers.
func (s *Service) GetStreamEmailAddress(ctx context.Context, actor Actor, p GetStreamEmailAddressParams) (GetStreamEmailAddressResult, error) {
	return s.emailGateway.GetStreamEmailAddress(ctx, actor, p)
}

// EmailMirrorMessage posts an email received for a channel's email address to the channel,
// as Zulip's email mirror does (a trusted, server-side operation).
func (s *Service) EmailMirrorMessage(ctx context.Context, p EmailMirrorMessageParams) (EmailMirrorMessageResult, error) {
	return s.emailGateway.EmailMirrorMessage(ctx, p)
}

// TestWelcomeBotCustomMessage sends the acting administrator the Welcome Bot's direct message
// with a custom welcome text, as new users would receive it, and returns its id.
func (s *Service) TestWelcomeBotCustomMessage(ctx context.Context, actor Actor, p TestWelcomeBotCustomMessageParams) (TestWelcomeBotCustomMessageResult, error) {
	return s.conversations.TestWelcomeBotCustomMessage(ctx, actor, p)
}

// CreateChannelFolder creates a channel folder (administrators only). Names are unique,
// case-insensitively, among folders that are not archived.
func (s *Service) CreateChannelFolder(ctx context.Context, actor Actor, p CreateChannelFolderParams) (CreateChannelFolderResult, error) {
	return s.conversations.CreateChannelFolder(ctx, actor, p)
}

// GetChannelFolders lists the organization's channel folders.
func (s *Service) GetChannelFolders(ctx context.Context, actor Actor, p GetChannelFoldersParams) (GetChannelFoldersResult, error) {
	return s.conversations.GetChannelFolders(ctx, actor, p)
}

// UpdateChannelFolder renames, describes, archives or unarchives a folder (administrators
// only). A folder that still holds channels that are not archived cannot be archived.
func (s *Service) UpdateChannelFolder(ctx context.Context, actor Actor, p UpdateChannelFolderParams) (UpdateChannelFolderResult, error) {
	return s.conversations.UpdateChannelFolder(ctx, actor, p)
}

// PatchChannelFolders puts the channel folders in the given order (administrators); the list
// must name every folder, archived ones included. Everyone gets channel_folder reorder.
func (s *Service) PatchChannelFolders(ctx context.Context, actor Actor, p PatchChannelFoldersParams) (PatchChannelFoldersResult, error) {
	return s.conversations.PatchChannelFolders(ctx, actor, p)
}

// UpdateStream changes a channel's name, description, privacy, default status, retention,
// topics policy, folder or group settings. Everything is checked before anything changes;
// each changed property sends a stream update event to the users who can see the channel,
// and users who gain or lose sight of it get stream create or delete.
func (s *Service) UpdateStream(ctx context.Context, actor Actor, p UpdateStreamParams) (UpdateStreamResult, error) {
	return s.conversations.UpdateStream(ctx, actor, p)
}

// GetSubscriptions lists the actor's subscriptions (archived channels included). Its world
// is the store's shared channel list (loadWorldShared): it copies no channel.
func (s *Service) GetSubscriptions(ctx context.Context, actor Actor, p GetSubscriptionsParams) (GetSubscriptionsResult, error) {
	return s.conversations.GetSubscriptions(ctx, actor, p)
}

// GetStreams lists the channels the actor asks for among those it may see.
func (s *Service) GetStreams(ctx context.Context, actor Actor, p GetStreamsParams) (GetStreamsResult, error) {
	return s.conversations.GetStreams(ctx, actor, p)
}

// GetStreamByID returns a channel the actor may see ("Invalid channel ID" otherwise).
func (s *Service) GetStreamByID(ctx context.Context, actor Actor, p GetStreamByIDParams) (GetStreamByIDResult, error) {
	return s.conversations.GetStreamByID(ctx, actor, p)
}

// GetStreamID finds a channel by name, case-insensitively.
func (s *Service) GetStreamID(ctx context.Context, actor Actor, p GetStreamIDParams) (GetStreamIDResult, error) {
	return s.conversations.GetStreamID(ctx, actor, p)
}

// GetSubscribers lists the subscribers of a channel the actor may see the subscribers of.
func (s *Service) GetSubscribers(ctx context.Context, actor Actor, p GetSubscribersParams) (GetSubscribersResult, error) {
	return s.conversations.GetSubscribers(ctx, actor, p)
}

// GetSubscriptionStatus reports whether a user is subscribed to a channel.
func (s *Service) GetSubscriptionStatus(ctx context.Context, actor Actor, p GetSubscriptionStatusParams) (GetSubscriptionStatusResult, error) {
	return s.conversations.GetSubscriptionStatus(ctx, actor, p)
}

// Subscribe subscribes the principals (default the actor) to the named channels, creating
// the missing ones with the creation settings. All of it happens in one transaction.
func (s *Service) Subscribe(ctx context.Context, actor Actor, p SubscribeParams) (SubscribeResult, error) {
	return s.conversations.Subscribe(ctx, actor, p)
}

// CreateChannel creates one channel and subscribes exactly the listed users. An existing name
// is CHANNEL_ALREADY_EXISTS (409).
func (s *Service) CreateChannel(ctx context.Context, actor Actor, p CreateChannelParams) (CreateChannelResult, error) {
	return s.conversations.CreateChannel(ctx, actor, p)
}

// UpdateSubscriptionSettings changes properties of the actor's subscriptions. Every item is
// checked (property, value type, access, subscription) before anything changes; then all are
// applied in one transaction. Each change sends a subscription update event to the actor
// (even when the value is unchanged); is_muted and in_home_view send two, in_home_view first.
func (s *Service) UpdateSubscriptionSettings(ctx context.Context, actor Actor, p UpdateSubscriptionSettingsParams) (UpdateSubscriptionSettingsResult, error) {
	return s.conversations.UpdateSubscriptionSettings(ctx, actor, p)
}

// UpdateSubscriptions subscribes the actor to Add and then unsubscribes them from Delete, in
// one transaction: a failure of either half changes nothing. As in Zulip, the subscribe half
// always runs (so guests are refused even when they only leave channels).
func (s *Service) UpdateSubscriptions(ctx context.Context, actor Actor, p UpdateSubscriptionsParams) (UpdateSubscriptionsResult, error) {
	return s.conversations.UpdateSubscriptions(ctx, actor, p)
}

// Unsubscribe removes the principals (default the actor) from the named channels. Removing
// oneself (or one's own bots) is always allowed; removing others needs the right to remove
// subscribers in every listed channel.
func (s *Service) Unsubscribe(ctx context.Context, actor Actor, p UnsubscribeParams) (UnsubscribeResult, error) {
	return s.conversations.Unsubscribe(ctx, actor, p)
}

// DeleteMessage deletes one message, by Zulip's rules: members of the organization's
// can_delete_any_message_group may delete any message they can read, members of the channel's
// can_delete_any_message_group any message of the channel; a sender (or the owner of the
// sending bot) their own message where the organization's or the channel's
// can_delete_own_message_group allows, within the organization's delete time limit.
func (s *Service) DeleteMessage(ctx context.Context, actor Actor, p DeleteMessageParams) (DeleteMessageResult, error) {
	return s.conversations.DeleteMessage(ctx, actor, p)
}

// UpdateMessage edits a message's content (its sender, within the organization's edit
// window) and/or moves it, and with propagate_mode the rest of its topic, to another topic
// and/or channel (can_move_messages_* permissions and the move time limits), and delivers
// update_message events to the users who can see the messages (delete_message to those who
// lose access).
func (s *Service) UpdateMessage(ctx context.Context, actor Actor, p UpdateMessageParams) (UpdateMessageResult, error) {
	return s.conversations.UpdateMessage(ctx, actor, p)
}

// UpdateMessageFlags adds or removes a flag on the actor's messages. Starring a message the
// actor reads from a channel's history adds it to their messages (with the historical flag).
func (s *Service) UpdateMessageFlags(ctx context.Context, actor Actor, p UpdateMessageFlagsParams) (UpdateMessageFlagsResult, error) {
	return s.conversations.UpdateMessageFlags(ctx, actor, p)
}

// GetMessages returns the messages around an anchor that match the narrow and that the actor
// may read: those they received, and the history of channels they may read.
func (s *Service) GetMessages(ctx context.Context, actor Actor, p GetMessagesParams) (GetMessagesResult, error) {
	return s.conversations.GetMessages(ctx, actor, p)
}

// GetMessage returns one message the actor may read; others are "Invalid message(s)".
func (s *Service) GetMessage(ctx context.Context, actor Actor, p GetMessageParams) (GetMessageResult, error) {
	return s.conversations.GetMessage(ctx, actor, p)
}

// GetMessageHistory returns the versions of a message the actor may read, as far as the
// organization's message_edit_history_visibility_policy shows them: every edit ("all"), the
// moves only, without the content changes ("moves"), or an error ("none").
func (s *Service) GetMessageHistory(ctx context.Context, actor Actor, p GetMessageHistoryParams) (GetMessageHistoryResult, error) {
	return s.conversations.GetMessageHistory(ctx, actor, p)
}

// CheckMessagesMatchNarrow tells which of the given messages, among those the actor received,
// match the narrow (the web client asks it for searches it cannot evaluate itself).
func (s *Service) CheckMessagesMatchNarrow(ctx context.Context, actor Actor, p CheckMessagesMatchNarrowParams) (CheckMessagesMatchNarrowResult, error) {
	return s.conversations.CheckMessagesMatchNarrow(ctx, actor, p)
}

// AddReaction adds the actor's emoji reaction to a message they may read. When someone
// already reacted with the same emoji, the reaction counts as a vote for theirs and takes its
// name. A user without a row for the message (a channel's history) gets one.
func (s *Service) AddReaction(ctx context.Context, actor Actor, p AddReactionParams) (AddReactionResult, error) {
	return s.conversations.AddReaction(ctx, actor, p)
}

// RemoveReaction removes the actor's reaction with an emoji from a message. The emoji is not
// checked against the current emoji: a deactivated custom emoji's reaction can be removed.
func (s *Service) RemoveReaction(ctx context.Context, actor Actor, p RemoveReactionParams) (RemoveReactionResult, error) {
	return s.conversations.RemoveReaction(ctx, actor, p)
}

// MarkAllAsRead marks every unread message of the actor read, newest first, in transactions
// of Options.MarkReadBatchSize messages, each with its update_message_flags event. It stops
// after Options.MarkReadBudget (measured with Now) and answers complete=false.
func (s *Service) MarkAllAsRead(ctx context.Context, actor Actor) (MarkAllAsReadResult, error) {
	return s.conversations.MarkAllAsRead(ctx, actor)
}

// MarkStreamAsRead marks the actor's unread messages of a channel read.
func (s *Service) MarkStreamAsRead(ctx context.Context, actor Actor, p MarkStreamAsReadParams) (MarkStreamAsReadResult, error) {
	return s.conversations.MarkStreamAsRead(ctx, actor, p)
}

// MarkTopicAsRead marks the actor's unread messages of a topic read.
func (s *Service) MarkTopicAsRead(ctx context.Context, actor Actor, p MarkTopicAsReadParams) (MarkTopicAsReadResult, error) {
	return s.conversations.MarkTopicAsRead(ctx, actor, p)
}

// UpdateMessageFlagsForNarrow adds or removes a flag on the messages of a narrow around an
// anchor, as GET /messages would select them.
func (s *Service) UpdateMessageFlagsForNarrow(ctx context.Context, actor Actor, p UpdateMessageFlagsForNarrowParams) (UpdateMessageFlagsForNarrowResult, error) {
	return s.conversations.UpdateMessageFlagsForNarrow(ctx, actor, p)
}

// GetReadReceipts lists who has read a message the actor may read, where the organization
// enables read receipts: the active users with the message marked read, except its sender,
// those who turned send_read_receipts off, those the actor muted and those who muted the
// actor (Zulip's rules).
func (s *Service) GetReadReceipts(ctx context.Context, actor Actor, p GetReadReceiptsParams) (GetReadReceiptsResult, error) {
	return s.conversations.GetReadReceipts(ctx, actor, p)
}

// RenderMessage renders content as the actor's message would be rendered (the organization's
// linkifiers, mentions, channel links), storing nothing. Content longer than a message may be
// is refused.
func (s *Service) RenderMessage(ctx context.Context, actor Actor, p RenderMessageParams) (RenderMessageResult, error) {
	return s.conversations.RenderMessage(ctx, actor, p)
}

// ReportMessage reports a message the actor may read to the organization's moderators: the
// notification bot posts the report, with the reported message quoted, to the moderation
// request channel, in the topic of the reported message's sender ("NAME moderation"). An
// organization without a moderation request channel refuses reports.
func (s *Service) ReportMessage(ctx context.Context, actor Actor, p ReportMessageParams) (ReportMessageResult, error) {
	return s.conversations.ReportMessage(ctx, actor, p)
}

// SendMessage sends a message to a channel topic or to users, and delivers message events to
// its recipients.
func (s *Service) SendMessage(ctx context.Context, actor Actor, p SendMessageParams) (SendMessageResult, error) {
	return s.conversations.SendMessage(ctx, actor, p)
}

// SetTypingStatus tells the recipients of the message the actor is composing that they
// started or stopped typing. A start that is not renewed within TypingExpiry ends with a stop
// sent by the Service.
func (s *Service) SetTypingStatus(ctx context.Context, actor Actor, p SetTypingStatusParams) (SetTypingStatusResult, error) {
	return s.typing.SetTypingStatus(ctx, actor, p)
}

// SetTypingStatusForMessageEdit tells whoever would see an edit of the message that the
// actor started or stopped editing it.
func (s *Service) SetTypingStatusForMessageEdit(ctx context.Context, actor Actor, p SetTypingStatusForMessageEditParams) (SetTypingStatusForMessageEditResult, error) {
	return s.typing.SetTypingStatusForMessageEdit(ctx, actor, p)
}

// DeleteTopic deletes the messages of a topic in batches, newest first, each batch in its own
// transaction, until none remain (Complete) or Options.TopicDeleteBudget is spent (not
// Complete: the client repeats the request). Only administrators may; only messages the
// administrator may read are deleted. When the topic is gone, users' visibility policies for
// it are removed.
func (s *Service) DeleteTopic(ctx context.Context, actor Actor, p DeleteTopicParams) (DeleteTopicResult, error) {
	return s.conversations.DeleteTopic(ctx, actor, p)
}

// GetStreamTopics lists the topics of a channel among the messages the actor may read.
func (s *Service) GetStreamTopics(ctx context.Context, actor Actor, p GetStreamTopicsParams) (GetStreamTopicsResult, error) {
	return s.conversations.GetStreamTopics(ctx, actor, p)
}

// UpdateUserTopic sets the actor's visibility policy for a topic (0 removes it). The topic
// need not have messages. Setting the current policy changes nothing and sends no event.
func (s *Service) UpdateUserTopic(ctx context.Context, actor Actor, p UpdateUserTopicParams) (UpdateUserTopicResult, error) {
	return s.conversations.UpdateUserTopic(ctx, actor, p)
}

// MuteTopic is the legacy form of UpdateUserTopic: add mutes the topic, remove unmutes it.
func (s *Service) MuteTopic(ctx context.Context, actor Actor, p MuteTopicParams) (MuteTopicResult, error) {
	return s.conversations.MuteTopic(ctx, actor, p)
}

// The limits of the conversations area, defined in package conversations.
const (
	DefaultMarkReadBatchSize       = conversations.DefaultMarkReadBatchSize
	DefaultMarkReadBudget          = conversations.DefaultMarkReadBudget
	MaxChannelFolders              = conversations.MaxChannelFolders
	MaxChannelSizeForTyping        = typing.MaxChannelSizeForTyping
	MaxDirectRecipients            = conversations.MaxDirectRecipients
	MaxFlagMessages                = conversations.MaxFlagMessages
	MaxLocalIDLength               = conversations.MaxLocalIDLength
	MaxMatchNarrowIDs              = conversations.MaxMatchNarrowIDs
	MaxMessagesPerFetch            = conversations.MaxMessagesPerFetch
	MaxNarrowLength                = conversations.MaxNarrowLength
	MaxPrincipals                  = conversations.MaxPrincipals
	MaxReportDescriptionLength     = conversations.MaxReportDescriptionLength
	MaxSubscribeChannels           = conversations.MaxSubscribeChannels
	MaxSubscriptionPropertyChanges = conversations.MaxSubscriptionPropertyChanges
	MaxUnreadMessages              = conversations.MaxUnreadMessages
	NotificationBotID              = conversations.NotificationBotID
	WelcomeBotID                   = conversations.WelcomeBotID
	EmailGatewayBotID              = emailgateway.EmailGatewayBotID
	MaxEmailMirrorBytes            = emailgateway.MaxEmailMirrorBytes
	PartialSubscribersActiveDays   = conversations.PartialSubscribersActiveDays
	PartialSubscribersThreshold    = conversations.PartialSubscribersThreshold
	TypingExpiry                   = typing.TypingExpiry
)

// AppendSubscriptionsJSON appends the JSON array of l to b (conversations.AppendSubscriptionsJSON).
func AppendSubscriptionsJSON(b []byte, l []SubscriptionRecord) []byte {
	return conversations.AppendSubscriptionsJSON(b, l)
}

// AppendChannelsJSON appends the JSON array of l to b (conversations.AppendChannelsJSON).
func AppendChannelsJSON(b []byte, l []ChannelRecord) []byte {
	return conversations.AppendChannelsJSON(b, l)
}

// NotifyBotOwner sends the notification bot's direct message to the owner of a bot (a
// misused integration URL): a trusted, server-side operation.
func (s *Service) NotifyBotOwner(ctx context.Context, p NotifyBotOwnerParams) (NotifyBotOwnerResult, error) {
	return s.conversations.NotifyBotOwner(ctx, p)
}
