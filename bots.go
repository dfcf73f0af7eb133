package chat

import (
	"context"

	"github.com/teamchat/chat/bots"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// Bot storage, outgoing webhooks and embedded bots are the bots area's operations (package
// bots); the Service delegates to it. The conversations lend it their send path (conversations.SendAsBot), and deliverMessage
// queues the jobs of the service bots a message triggers (messages_servicebots.go).

// The types of the bots area, defined in package bots: these aliases keep embedders' code
// compiling.
type (
	GetBotStorageParams       = bots.GetBotStorageParams
	GetBotStorageResult       = bots.GetBotStorageResult
	UpdateBotStorageParams    = bots.UpdateBotStorageParams
	UpdateBotStorageResult    = bots.UpdateBotStorageResult
	RemoveBotStorageParams    = bots.RemoveBotStorageParams
	RemoveBotStorageResult    = bots.RemoveBotStorageResult
	DeliverServiceJobsResult  = bots.DeliverServiceJobsResult
	EmbeddedBotHandler        = bots.Handler
	EmbeddedBotHandlerFunc    = bots.HandlerFunc
	EmbeddedBotTrigger        = bots.Trigger
	EmbeddedBotReply          = bots.Reply
	OutgoingWebhookPayload    = bots.Payload
	ServiceBotMessage         = bots.Message
	ServiceBotMessageReceiver = bots.Recipient
)

// GetBotStorage returns the acting bot's storage, or its values of the keys given; a key it
// does not have is refused. Bots only.
func (s *Service) GetBotStorage(ctx context.Context, actor Actor, p GetBotStorageParams) (GetBotStorageResult, error) {
	return s.bots.GetBotStorage(ctx, actor, p)
}

// UpdateBotStorage creates or replaces entries of the acting bot's storage, within
// bots.StorageSizeLimit characters. Bots only.
func (s *Service) UpdateBotStorage(ctx context.Context, actor Actor, p UpdateBotStorageParams) (UpdateBotStorageResult, error) {
	return s.bots.UpdateBotStorage(ctx, actor, p)
}

// RemoveBotStorage removes entries of the acting bot's storage (all without keys); a missing
// key removes nothing. Bots only.
func (s *Service) RemoveBotStorage(ctx context.Context, actor Actor, p RemoveBotStorageParams) (RemoveBotStorageResult, error) {
	return s.bots.RemoveBotStorage(ctx, actor, p)
}

// DeliverServiceJobs hands every due message that triggered an outgoing webhook or embedded
// bot to its bot and posts the answers (package bots); StartScheduler runs it in the
// background, tests call it after moving their clock.
func (s *Service) DeliverServiceJobs(ctx context.Context) (DeliverServiceJobsResult, error) {
	return s.bots.DeliverServiceJobs(ctx)
}

// HandleEmbeddedBot registers h as the embedded bot's code: the messages that trigger the bot
// (a mention in a channel, a direct message) reach h in process, and its reply is posted where
// they were sent. Nil removes the handler.
func (s *Service) HandleEmbeddedBot(bot users.ID, h EmbeddedBotHandler) {
	s.bots.HandleEmbeddedBot(bot, h)
}

// reactAsBot is how the bots area adds a bot's reaction (bots.Reactor): AddReaction as the
// bot.
func (s *Service) reactAsBot(ctx context.Context, bot users.ID, id messages.ID, r bots.Reaction) error {
	_, err := s.AddReaction(ctx, Actor{UserID: bot}, AddReactionParams{MessageID: id, EmojiName: r.EmojiName,
		EmojiCode: r.EmojiCode, ReactionType: r.ReactionType})
	return err
}
