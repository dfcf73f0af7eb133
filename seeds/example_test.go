package seeds_test

import (
	"context"
	"fmt"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// Apply provisions an organization through a Service and reports the accounts it made.
func ExampleSeed_Apply() {
	store := memory.New()
	defer store.Close()
	svc, err := chat.New(chat.Options{Store: store})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer svc.Close()
	seed := &seeds.Seed{
		Organization: seeds.Organization{Name: "Acme"},
		Users:        []seeds.User{{Email: "ada@acme.test", FullName: "Ada", Role: users.RoleOwner}},
		Bots:         []seeds.Bot{{Email: "ci-bot@acme.test", FullName: "CI", Owner: "ada@acme.test"}},
		Channels:     []seeds.Channel{{Name: "builds", Subscribers: []string{"ada@acme.test", "ci-bot@acme.test"}}},
	}
	accounts, err := seed.Apply(context.Background(), svc, "https://chat.acme.test")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range accounts {
		fmt.Println(a.ID, a.Email, a.BotType == users.BotGeneric)
	}
	// Output:
	// 1 ada@acme.test false
	// 2 ci-bot@acme.test true
}

// Dev is the development organization of `chatserver serve --dev`.
func ExampleDev() {
	dev := seeds.Dev(seeds.DevPassword)
	fmt.Println(dev.Organization.Name, len(dev.Users), "users,", len(dev.Bots), "bots,", len(dev.Channels), "channels")
	// Output:
	// Zulip Dev 10 users, 3 bots, 8 channels
}
