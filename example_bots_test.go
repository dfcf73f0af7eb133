package chat_test

import (
	"context"
	"fmt"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// An embedded bot written in Go: an echo bot. The program creates the bot (type embedded),
// registers its handler, and every direct message to it, or mention of it in a channel, gets
// the bot's answer where it was sent. StartScheduler delivers in the background; here the
// example delivers at once with DeliverServiceJobs.
func ExampleService_HandleEmbeddedBot() {
	ctx := context.Background()
	store := memory.New()
	defer store.Close()
	svc, err := chat.New(chat.Options{Store: store})
	if err != nil {
		panic(err)
	}
	defer svc.Close()
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Example", URL: "https://chat.example.com"}); err != nil {
		panic(err)
	}
	ada, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "ada@example.com", FullName: "Ada Lovelace", Role: users.RoleOwner})
	if err != nil {
		panic(err)
	}
	echo, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "echo-bot@example.com", FullName: "Echo",
		BotType: users.BotEmbedded, BotOwnerID: ada.UserID})
	if err != nil {
		panic(err)
	}

	svc.HandleEmbeddedBot(echo.UserID, chat.EmbeddedBotHandlerFunc(
		func(_ context.Context, t chat.EmbeddedBotTrigger) (chat.EmbeddedBotReply, error) {
			return chat.EmbeddedBotReply{Content: "You said: " + t.Message.Content}, nil
		}))

	me := chat.Actor{UserID: ada.UserID}
	if _, err := svc.SendMessage(ctx, me, chat.SendMessageParams{Type: "private", UserIDs: []users.ID{echo.UserID},
		Content: "hello"}); err != nil {
		panic(err)
	}
	if _, err := svc.DeliverServiceJobs(ctx); err != nil {
		panic(err)
	}
	no := false
	res, err := svc.GetMessages(ctx, me, chat.GetMessagesParams{Anchor: "newest", NumBefore: 1, ApplyMarkdown: &no})
	if err != nil {
		panic(err)
	}
	m := res.Messages[0]
	fmt.Printf("%s: %s\n", m.SenderFullName, m.Content)
	// Output: Echo: You said: hello
}
