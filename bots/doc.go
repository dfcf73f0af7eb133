// Package bots is the bots area of the chat engine: what service bots do beyond sending
// messages. It owns three things:
//
//   - Bot storage (Zulip's /bot_storage, zerver/lib/bot_storage.py): GetBotStorage,
//     UpdateBotStorage and RemoveBotStorage, string keys and values a bot keeps between
//     messages, bounded by Zulip's USER_STATE_SIZE_LIMIT and for bots only (feature level 494).
//     CheckBotConfig applies Zulip's BOT_CONFIG_SIZE_LIMIT to an embedded bot's configuration
//     (zerver/lib/bot_config.py), which handlers read as Trigger.Config.
//   - Outgoing webhooks (zerver/lib/outgoing_webhook.py): a message that mentions an outgoing
//     webhook bot in a channel, or is a direct message to it, becomes a job (Triggered, Queue)
//     written in the send's transaction. DeliverServiceJobs claims due jobs as the scheduler
//     claims scheduled messages (row locks that other processes skip, storage.ServiceJobWriter)
//     and leases them, calls the bot's payload URL outside any transaction in Zulip's format or
//     Slack's, adds the reactions its answer asks for, and in one more transaction (per claimed
//     batch) posts the bot's reply where the message was sent (or Zulip's failure texts there
//     and to the bot's owner) and removes the job, or leases it again for a retry (timeouts
//     and connection errors, at most MaxServiceRetries). A process
//     that dies mid-call leaves the job leased; it is due again when the lease ends, so every
//     job is delivered at least once. Calls go through a dialer that refuses loopback,
//     private, link-local and other non-public addresses at connect time (after DNS
//     resolution, so rebinding cannot bypass it) unless Config.AllowPrivateTargets.
//   - Embedded bots in Go: a program embedding the engine registers a Handler for an embedded
//     bot (HandleEmbeddedBot); it gets the same triggers, in process, and its Reply is posted
//     the same way.
//
// Each operation is a method of Service, written the one way the engine describes
// (internal/engine). Sending a message is package chat's: Config.Send is its send path, run
// inside this package's transactions, and Config.React its AddReaction. The worker polls
// every Config.Interval (the scheduler's, 1s by default): a reply comes within that interval
// plus the webhook's answer.
//
// Concurrency: Service is safe for concurrent use. The worker (Start, Stop) runs one loop and
// at most Config.Workers calls at once; DeliverServiceJobs may also be called directly (tests).
//
// A new operation on what bots do goes into the file of its aspect (botstorage.go,
// outgoing.go, embedded.go; the worker, deliver.go); bot accounts themselves (CreateBot,
// UpdateBot) are package people's, and a bot's messages go through the send path of package
// conversations.
//
// Imports: internal/engine, storage and the leaves (users, messages, channels, markdown); never
// package chat, and no other area.
package bots
