package bots

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// The triggers of a service bot (Zulip's get_service_bot_events).
const (
	// TriggerMention: the bot was mentioned (not silently) in a channel message.
	TriggerMention = "mention"
	// TriggerDirectMessage: the bot is a recipient of a direct message (Zulip 8.0, feature
	// level 201, renamed it from private_message).
	TriggerDirectMessage = "direct_message"
)

// Triggered is a service bot a message triggers, and why.
type Triggered struct {
	Bot     users.ID
	Trigger string
}

// IsServiceBot reports whether u is an outgoing webhook or embedded bot.
func IsServiceBot(u users.User) bool {
	return u.BotType == users.BotOutgoingWebhook || u.BotType == users.BotEmbedded
}

// Triggers lists the service bots a message triggers, as Zulip decides: none for a message
// sent by a bot (no bot answers a bot, so bots cannot loop); in a channel, the active service
// bots mentioned by name (not silently; subscribed or not); in a direct message, the active
// service bots among its recipients. lookup finds a user; the result is ordered by bot id.
func Triggers(sender users.User, direct bool, recipients, mentioned []users.ID, lookup func(users.ID) (users.User, bool)) []Triggered {
	if sender.IsBot() {
		return nil
	}
	candidates, trigger := mentioned, TriggerMention
	if direct {
		candidates, trigger = recipients, TriggerDirectMessage
	}
	var out []Triggered
	for _, id := range candidates {
		u, ok := lookup(id)
		if !ok || !u.IsActive || !IsServiceBot(u) || id == sender.ID {
			continue
		}
		out = append(out, Triggered{Bot: id, Trigger: trigger})
	}
	slices.SortFunc(out, func(a, b Triggered) int { return cmp.Compare(a.Bot, b.Bot) })
	return slices.CompactFunc(out, func(a, b Triggered) bool { return a.Bot == b.Bot })
}

// Queue writes the jobs of a message that triggered service bots, due at dueAt (UNIX
// milliseconds), in the send's transaction: they are delivered after the commit, and never
// for a rolled-back send. message is the message as the bots are sent it (the JSON of
// Message).
func Queue(tx storage.Tx, id messages.ID, message string, dueAt int64, triggered []Triggered) error {
	if len(triggered) == 0 {
		return nil
	}
	jobs := make([]storage.ServiceJob, len(triggered))
	for i, t := range triggered {
		jobs[i] = storage.ServiceJob{BotID: t.Bot, MessageID: id, Trigger: t.Trigger, Message: message, DueAt: dueAt}
	}
	return tx.ServiceJobs().Create(jobs)
}
