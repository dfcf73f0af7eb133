package chat_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// Embed the engine on the in-memory store: create an organization and a user, register an
// event queue and receive the event of a second user joining.
func Example() {
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
	me := chat.Actor{UserID: ada.UserID}
	reg, err := svc.RegisterQueue(ctx, me, chat.RegisterQueueParams{EventTypes: []string{"realm_user"}})
	if err != nil {
		panic(err)
	}
	fmt.Println("users at register:", len(reg.RealmUsers))

	if _, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "charles@example.com", FullName: "Charles Babbage"}); err != nil {
		panic(err)
	}
	res, err := svc.GetEvents(ctx, me, chat.GetEventsParams{QueueID: *reg.QueueID, LastEventID: &reg.LastEventID, DontBlock: true})
	if err != nil {
		panic(err)
	}
	for _, ev := range res.Events {
		add := ev.Payload.(chat.RealmUserEvent)
		fmt.Println(ev.ID, ev.Type, add.Op, add.Person.(chat.UserRecord).FullName)
	}
	// Output:
	// users at register: 1
	// 0 realm_user add Charles Babbage
}

// Exchange a password for an API key, then authenticate a request with it.
func ExampleService_FetchAPIKey() {
	ctx := context.Background()
	store := memory.New()
	defer store.Close()
	svc, _ := chat.New(chat.Options{Store: store, PasswordHashing: chat.PasswordHashing{MemoryKiB: 1024}})
	defer svc.Close()
	_, _ = svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Example", URL: "https://chat.example.com"})
	_, _ = svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "ada@example.com", FullName: "Ada Lovelace", Password: "analytical engine"})

	key, err := svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "ada@example.com", Password: "analytical engine"})
	if err != nil {
		panic(err)
	}
	actor, err := svc.AuthenticateAPIKey(ctx, key.Email, key.APIKey)
	fmt.Println(len(key.APIKey), actor.UserID == key.UserID, err)

	_, err = svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "ada@example.com", Password: "difference engine"})
	fmt.Println(err)
	// Output:
	// 32 true <nil>
	// AUTHENTICATION_FAILED: Your username or password is incorrect
}

// Create a channel with subscribers and read the subscriptions of one of them.
func ExampleService_CreateChannel() {
	ctx := context.Background()
	store := memory.New()
	defer store.Close()
	svc, _ := chat.New(chat.Options{Store: store})
	defer svc.Close()
	_, _ = svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Example", URL: "https://chat.example.com"})
	ada, _ := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "ada@example.com", FullName: "Ada Lovelace", Role: users.RoleOwner})
	charles, _ := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "charles@example.com", FullName: "Charles Babbage"})

	created, err := svc.CreateChannel(ctx, chat.Actor{UserID: ada.UserID}, chat.CreateChannelParams{
		Name: "engines", Description: "The **analytical** engine", Subscribers: []users.ID{ada.UserID, charles.UserID},
	})
	if err != nil {
		panic(err)
	}
	subs, err := svc.GetSubscriptions(ctx, chat.Actor{UserID: charles.UserID}, chat.GetSubscriptionsParams{})
	if err != nil {
		panic(err)
	}
	for _, s := range subs.Subscriptions {
		fmt.Println(s.StreamID == created.ID, s.Name, s.RenderedDescription, s.SubscriberCount)
	}
	// Output:
	// true engines <p>The <strong>analytical</strong> engine</p> 2
}

// Send a message to a channel, move its topic, and read the topic back through a narrow.
func ExampleService_UpdateMessage() {
	ctx := context.Background()
	store := memory.New()
	defer store.Close()
	svc, _ := chat.New(chat.Options{Store: store})
	defer svc.Close()
	_, _ = svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Example", URL: "https://chat.example.com"})
	ada, _ := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "ada@example.com", FullName: "Ada Lovelace", Role: users.RoleOwner})
	me := chat.Actor{UserID: ada.UserID}
	engines, _ := svc.CreateChannel(ctx, me, chat.CreateChannelParams{Name: "engines", Subscribers: []users.ID{ada.UserID}})

	topic := "notes"
	sent, err := svc.SendMessage(ctx, me, chat.SendMessageParams{Type: "stream", ChannelID: &engines.ID, Topic: &topic, Content: "The engine *weaves* patterns."})
	if err != nil {
		panic(err)
	}
	moved := "Note G"
	quiet := false // no notification bot notice in the new topic
	if _, err := svc.UpdateMessage(ctx, me, chat.UpdateMessageParams{MessageID: sent.ID, Topic: &moved, SendNotificationToNewThread: &quiet}); err != nil {
		panic(err)
	}
	got, err := svc.GetMessages(ctx, me, chat.GetMessagesParams{Anchor: "newest", NumBefore: 10, Narrow: []chat.NarrowTerm{
		{Operator: "channel", Operand: "engines"}, {Operator: "topic", Operand: "Note G"},
	}})
	if err != nil {
		panic(err)
	}
	for _, m := range got.Messages {
		fmt.Println(m.ID == sent.ID, m.Subject, m.Content)
	}
	// Output:
	// true Note G <p>The engine <em>weaves</em> patterns.</p>
}

// Keep words that should draw the user's attention: words differing only in case are kept
// once (in the last spelling given); over-long words are refused.
func ExampleService_AddAlertWords() {
	ctx := context.Background()
	store := memory.New()
	defer store.Close()
	svc, _ := chat.New(chat.Options{Store: store})
	defer svc.Close()
	_, _ = svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Example", URL: "https://chat.example.com"})
	ada, _ := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "ada@example.com", FullName: "Ada Lovelace"})

	res, err := svc.AddAlertWords(ctx, chat.Actor{UserID: ada.UserID}, chat.AlertWordsParams{AlertWords: []string{"engine", "Bernoulli", "ENGINE"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.AlertWords)
	_, err = svc.AddAlertWords(ctx, chat.Actor{UserID: ada.UserID}, chat.AlertWordsParams{AlertWords: []string{strings.Repeat("x", 101)}})
	fmt.Println(err)
	// Output:
	// [ENGINE Bernoulli]
	// BAD_REQUEST: alert_words[0] is too long (limit: 100 characters)
}

// Schedule a direct message for later, then let the scheduler send it when the (injected)
// clock reaches its time. A server calls StartScheduler instead of delivering by hand.
func ExampleService_DeliverScheduledMessages() {
	ctx := context.Background()
	store := memory.New()
	defer store.Close()
	now := time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)
	svc, _ := chat.New(chat.Options{Store: store, Now: func() time.Time { return now }})
	defer svc.Close()
	_, _ = svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Example", URL: "https://chat.example.com"})
	ada, _ := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "ada@example.com", FullName: "Ada Lovelace"})
	charles, _ := svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "charles@example.com", FullName: "Charles Babbage"})

	_, err := svc.CreateScheduledMessage(ctx, chat.Actor{UserID: ada.UserID}, chat.CreateScheduledMessageParams{
		Type: "direct", To: chat.ScheduledTo{UserIDs: []users.ID{charles.UserID}}, Content: "Good morning!",
		ScheduledDeliveryTimestamp: now.Add(time.Hour).Unix(),
	})
	if err != nil {
		panic(err)
	}
	res, _ := svc.DeliverScheduledMessages(ctx, chat.DeliverScheduledMessagesParams{})
	fmt.Println("at 9:00 delivered", res.Delivered)
	now = now.Add(time.Hour)
	res, _ = svc.DeliverScheduledMessages(ctx, chat.DeliverScheduledMessagesParams{})
	fmt.Println("at 10:00 delivered", res.Delivered)
	// Output:
	// at 9:00 delivered 0
	// at 10:00 delivered 1
}
