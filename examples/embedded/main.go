// Command embedded runs the chat engine inside a Go program, without HTTP: it creates an
// organization on the in-memory store, registers an event queue for one user, creates another
// user, creates a channel with both of them subscribed, lets the second user post to it, and
// prints the events the first user receives.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

func main() {
	if err := run(context.Background()); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	store := memory.New()
	defer store.Close()
	svc, err := chat.New(chat.Options{Store: store})
	if err != nil {
		return err
	}
	defer svc.Close()

	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{
		Name: "Embedded", URL: "https://chat.example.com",
	}); err != nil {
		return err
	}
	ada, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{
		Email: "ada@example.com", FullName: "Ada Lovelace", Role: users.RoleOwner,
	})
	if err != nil {
		return err
	}
	me := chat.Actor{UserID: ada.UserID}
	reg, err := svc.RegisterQueue(ctx, me, chat.RegisterQueueParams{EventTypes: []string{"realm_user", "stream", "subscription", "message"}})
	if err != nil {
		return err
	}
	fmt.Printf("registered queue; %d user(s) in the organization\n", len(reg.RealmUsers))

	charles, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{
		Email: "charles@example.com", FullName: "Charles Babbage",
	})
	if err != nil {
		return err
	}
	engines, err := svc.CreateChannel(ctx, me, chat.CreateChannelParams{
		Name: "engines", Description: "The **analytical** engine",
		Subscribers: []users.ID{ada.UserID, charles.UserID},
	})
	if err != nil {
		return err
	}
	if _, err := svc.SendMessage(ctx, chat.Actor{UserID: charles.UserID}, chat.SendMessageParams{
		Type: "stream", ChannelID: &engines.ID, Topic: ptr("gears"), Content: "The *difference* engine works!",
	}); err != nil {
		return err
	}
	res, err := svc.GetEvents(ctx, me, chat.GetEventsParams{
		QueueID: *reg.QueueID, LastEventID: &reg.LastEventID, DontBlock: true,
	})
	if err != nil {
		return err
	}
	for _, ev := range res.Events {
		body, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		fmt.Printf("event %d %s: %s\n", ev.ID, ev.Type, body)
	}
	return nil
}

func ptr[T any](v T) *T { return &v }
