package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage/memory"
)

func newSeededService(t *testing.T, seed *Seed) *chat.Service {
	t.Helper()
	store := memory.New()
	svc, err := chat.New(chat.Options{Store: store, Dev: true, PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	if err := seed.apply(context.Background(), svc, "http://localhost:9991"); err != nil {
		t.Fatalf("apply: %v", err)
	}
	return svc
}

func TestDevSeedChannelsAndGroups(t *testing.T) {
	t.Parallel()
	svc := newSeededService(t, devSeed("devpassword"))
	ctx := context.Background()
	zoe, err := svc.DevFetchAPIKey(ctx, chat.DevFetchAPIKeyParams{Username: "ZOE@zulip.com"})
	if err != nil {
		t.Fatal(err)
	}
	subs, err := svc.GetSubscriptions(ctx, chat.Actor{UserID: zoe.UserID}, chat.GetSubscriptionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range subs.Subscriptions {
		names = append(names, s.Name)
	}
	if want := []string{"Denmark", "Rome", "Scotland", "Venice", "Verona"}; !slices.Equal(names, want) {
		t.Errorf("ZOE's subscriptions = %v, want %v", names, want)
	}
	groups, err := svc.GetUserGroups(ctx, chat.Actor{UserID: zoe.UserID}, chat.GetUserGroupsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(groups.UserGroups, func(g chat.UserGroupRecord) bool {
		return g.Name == "hamletcharacters" && len(g.Members) == 2
	}) {
		t.Errorf("hamletcharacters with two members missing from %+v", groups.UserGroups)
	}
}

func TestSeedRefusesUnknownSubscriber(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "seed.json")
	if err := os.WriteFile(path, []byte(`{"organization":{"name":"Acme"},
		"users":[{"email":"ada@acme.test","full_name":"Ada","role":100}],
		"channels":[{"name":"general","subscribers":["nobody@acme.test"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	seed, err := loadSeed(path)
	if err != nil {
		t.Fatal(err)
	}
	store := memory.New()
	svc, err := chat.New(chat.Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { svc.Close(); store.Close() }()
	if err := seed.apply(context.Background(), svc, "http://acme.test"); err == nil {
		t.Fatal("a seed naming an unknown subscriber was applied")
	}
}
