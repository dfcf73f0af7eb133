package chat_test

import (
	"context"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// serviceBotsConsistencyCases are the bots area's mutations: bot storage (no client state)
// and the delivery of a service bot's job, whose reply is a message sent by the bot.
func serviceBotsConsistencyCases() []consistencyCase {
	storeSome := func(t *testing.T, f *fixture) {
		mustDo(t, "UpdateBotStorage", errOf(f.svc.UpdateBotStorage(t.Context(), f.actor("bot"), chat.UpdateBotStorageParams{
			Storage: map[string]string{"a": "1", "b": "2"},
		})))
	}
	echo := func(t *testing.T, f *fixture) {
		res := mustProvision(t, f, chat.ProvisionUserParams{Email: "echo-bot@example.com", FullName: "Echo",
			BotType: users.BotEmbedded, BotOwnerID: f.ids["member"]})
		f.ids["echo"] = res.UserID
		f.svc.HandleEmbeddedBot(res.UserID, chat.EmbeddedBotHandlerFunc(func(_ context.Context, tr chat.EmbeddedBotTrigger) (chat.EmbeddedBotReply, error) {
			return chat.EmbeddedBotReply{Content: "echo: " + tr.Message.Content}, nil
		}))
		mustDo(t, "SendMessage", errOf(f.svc.SendMessage(t.Context(), f.actor("member"), chat.SendMessageParams{Type: "private",
			UserIDs: []users.ID{res.UserID}, Content: "hello"})))
	}
	return []consistencyCase{
		{method: "NotifyBotOwner", name: "the notification bot tells a bot's owner", run: func(t *testing.T, f *fixture) {
			bot := mustProvision(t, f, chat.ProvisionUserParams{Email: "hook-bot@example.com", FullName: "Hook",
				BotType: users.BotIncomingWebhook, BotOwnerID: f.ids["member"]})
			res, err := f.svc.NotifyBotOwner(t.Context(), chat.NotifyBotOwnerParams{BotID: bot.UserID, Content: "check your integration"})
			if err != nil || !res.Sent {
				t.Fatalf("NotifyBotOwner = %+v, %v; want sent", res, err)
			}
		}},
		{method: "UpdateBotStorage", name: "a bot stores entries", run: storeSome},
		{method: "RemoveBotStorage", name: "a bot removes an entry", setup: storeSome, run: func(t *testing.T, f *fixture) {
			mustDo(t, "RemoveBotStorage", errOf(f.svc.RemoveBotStorage(t.Context(), f.actor("bot"), chat.RemoveBotStorageParams{Keys: []string{"a"}})))
		}},
		{method: "DeliverServiceJobs", name: "an embedded bot answers a direct message", setup: echo, run: func(t *testing.T, f *fixture) {
			res, err := f.svc.DeliverServiceJobs(t.Context())
			if err != nil || res.Delivered != 1 {
				t.Fatalf("DeliverServiceJobs = %+v, %v; want one delivered", res, err)
			}
		}},
	}
}
