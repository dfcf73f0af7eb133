package chat_test

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// mustCreateBot creates a bot as who and returns its id.
func mustCreateBot(t *testing.T, f *fixture, who string, p chat.CreateBotParams) users.ID {
	t.Helper()
	res, err := f.svc.CreateBot(t.Context(), f.actor(who), p)
	if err != nil {
		t.Fatalf("CreateBot(%s): %v", p.ShortName, err)
	}
	return res.UserID
}

func TestBotManagement(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("deploys", "alerts")})
	hook := mustCreateBot(t, f, "member", chat.CreateBotParams{FullName: "Hook Bot", ShortName: "hook", BotType: users.BotOutgoingWebhook,
		PayloadURL: "https://hooks.example.com/zulip", DefaultSendingStream: ptr("deploys")})
	mq := f.register(t, "member", "realm_bot")
	aq := f.register(t, "admin", "realm_bot")
	gq := f.register(t, "guest", "realm_bot")

	got, err := f.svc.GetBots(ctx, f.actor("member"))
	mustDo(t, "GetBots", err)
	if len(got.Bots) != 1 || got.Bots[0].Username != "hook-bot@chat.example.com" || got.Bots[0].DefaultSendingStream == nil || *got.Bots[0].DefaultSendingStream != "deploys" {
		t.Fatalf("GetBots = %+v", got.Bots)
	}
	res, err := f.svc.UpdateBot(ctx, f.actor("member"), chat.UpdateBotParams{BotID: hook, FullName: ptr("Deploy Hook"),
		DefaultSendingStream: ptr(""), DefaultEventsRegisterStream: ptr("alerts"), DefaultAllPublicStreams: ptr(true),
		ServicePayloadURL: ptr("https://hooks.example.com/v2"), ServiceInterface: ptr(2)})
	mustDo(t, "UpdateBot", err)
	if res.FullName != "Deploy Hook" || res.DefaultSendingStream != nil || res.DefaultEventsRegisterStream == nil || !res.DefaultAllPublicStreams || res.BotOwner != "Member@Example.com" {
		t.Errorf("UpdateBot result %+v", res)
	}
	key, err := f.svc.RegenerateBotAPIKey(ctx, f.actor("admin"), chat.BotParams{BotID: hook})
	mustDo(t, "RegenerateBotAPIKey", err)
	if _, err := f.svc.AuthenticateAPIKey(ctx, "hook-bot@chat.example.com", key.APIKey); err != nil {
		t.Errorf("new key does not authenticate: %v", err)
	}
	// The owner changes: the member loses the bot, the guest cannot own... the owner gains it.
	_, err = f.svc.UpdateBot(ctx, f.actor("admin"), chat.UpdateBotParams{BotID: hook, BotOwnerID: ptr(f.ids["owner"])})
	mustDo(t, "UpdateBot owner", err)
	mustDo(t, "DeactivateBot", errOf(f.svc.DeactivateBot(ctx, f.actor("owner"), chat.BotParams{BotID: hook})))

	ops := func(q, who string) []string {
		var out []string
		for _, e := range eventJSON(t, f.poll(t, who, q, -1, true)) {
			out = append(out, e["op"].(string))
		}
		return out
	}
	// member: name, streams (3), all-public, services, key; then the bot goes away.
	if diff := cmp.Diff([]string{"update", "update", "update", "update", "update", "update", "delete"}, ops(mq, "member")); diff != "" {
		t.Errorf("member's realm_bot events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"update", "update", "update", "update", "update", "update", "update", "update"}, ops(aq, "admin")); diff != "" {
		t.Errorf("admin's realm_bot events (-want +got):\n%s", diff)
	}
	if evs := ops(gq, "guest"); len(evs) != 0 {
		t.Errorf("guest got realm_bot events %v", evs)
	}
	reg, err := f.svc.RegisterQueue(ctx, f.actor("owner"), chat.RegisterQueueParams{FetchEventTypes: []string{"realm_bot"}})
	mustDo(t, "RegisterQueue", err)
	var mine *chat.BotRecord
	for i, b := range reg.RealmBots {
		if b.UserID == hook {
			mine = &reg.RealmBots[i]
		}
	}
	want := chat.BotRecord{Email: "hook-bot@chat.example.com", UserID: hook, FullName: "Deploy Hook", BotType: users.BotOutgoingWebhook,
		APIKey: key.APIKey, DefaultEventsRegisterStream: ptr("alerts"), DefaultAllPublicStreams: true, OwnerID: ptr(f.ids["owner"]),
		Services: []chat.BotServiceRecord{{BaseURL: "https://hooks.example.com/v2", Interface: 2}}}
	if mine == nil {
		t.Fatal("the bot is not in the owner's realm_bots")
	}
	mine.AvatarURL, mine.Services[0].Token = "", ""
	if diff := cmp.Diff(want, *mine); diff != "" {
		t.Errorf("realm_bots entry (-want +got):\n%s", diff)
	}
	mustDo(t, "ReactivateUser", errOf(f.svc.ReactivateUser(ctx, f.actor("admin"), chat.ReactivateUserParams{UserID: hook})))
}

func TestBotRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("secret")})
	mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(ctx, f.actor("admin"), chat.UpdateStreamParams{StreamID: f.mustChannel(t, "secret").ID, IsPrivate: ptr(true)})))
	mine := mustCreateBot(t, f, "member", chat.CreateBotParams{FullName: "Mine Bot", ShortName: "mine"})
	update := func(who string, p chat.UpdateBotParams) func() error {
		return func() error { return errOf(f.svc.UpdateBot(ctx, f.actor(who), p)) }
	}
	checkRefusals(t, f, []refusal{
		{"not a bot", update("admin", chat.UpdateBotParams{BotID: f.ids["member"], FullName: ptr("X Y")}), "", "No such bot"},
		{"unknown bot", update("admin", chat.UpdateBotParams{BotID: 999, FullName: ptr("X Y")}), "", "No such bot"},
		{"someone else's bot", update("guest", chat.UpdateBotParams{BotID: mine, FullName: ptr("X Y")}), "", "Insufficient permission"},
		{"a taken name", update("member", chat.UpdateBotParams{BotID: mine, FullName: ptr("Adam Admin")}), "", "Name is already in use!"},
		{"no such owner", update("member", chat.UpdateBotParams{BotID: mine, BotOwnerID: ptr(users.ID(999))}), "", "Failed to change owner, no such user"},
		{"a bot as owner", update("member", chat.UpdateBotParams{BotID: mine, BotOwnerID: ptr(f.ids["bot"])}), "", "Failed to change owner, bots can't own other bots"},
		{"a private channel the member cannot see", update("member", chat.UpdateBotParams{BotID: mine, DefaultSendingStream: ptr("secret")}), "", "Invalid channel name 'secret'"},
		{"a bad payload URL", update("member", chat.UpdateBotParams{BotID: mine, ServicePayloadURL: ptr("ftp://x")}), "", "service_payload_url is not a URL"},
		{"role by a member", update("member", chat.UpdateBotParams{BotID: mine, Role: ptr(users.RoleModerator)}), chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"regenerate someone else's key", func() error {
			return errOf(f.svc.RegenerateBotAPIKey(ctx, f.actor("guest"), chat.BotParams{BotID: mine}))
		}, "", "Insufficient permission"},
		{"deactivate someone else's bot", func() error {
			return errOf(f.svc.DeactivateBot(ctx, f.actor("guest"), chat.BotParams{BotID: mine}))
		}, "", "Insufficient permission"},
		{"create an embedded bot", func() error {
			return errOf(f.svc.CreateBot(ctx, f.actor("member"), chat.CreateBotParams{FullName: "Emb Bot", ShortName: "emb", BotType: users.BotEmbedded}))
		}, "", "Embedded bots are not enabled."},
		{"create an outgoing webhook without URL", func() error {
			return errOf(f.svc.CreateBot(ctx, f.actor("member"), chat.CreateBotParams{FullName: "Out Bot", ShortName: "out", BotType: users.BotOutgoingWebhook}))
		}, "", "payload_url is not a URL"},
	})
}

// botsConsistencyCases are the consistency cases of bot management.
func botsConsistencyCases() []consistencyCase {
	// The cases run in parallel, each on its own fixture: each fixture's hook bot is kept by
	// fixture.
	var mu sync.Mutex
	hooks := map[*fixture]users.ID{}
	setup := func(t *testing.T, f *fixture) {
		f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("deploys")})
		id := mustCreateBot(t, f, "member", chat.CreateBotParams{FullName: "Hook Bot", ShortName: "hook", BotType: users.BotOutgoingWebhook,
			PayloadURL: "https://hooks.example.com/zulip"})
		mu.Lock()
		hooks[f] = id
		mu.Unlock()
	}
	hookOf := func(f *fixture) users.ID {
		mu.Lock()
		defer mu.Unlock()
		return hooks[f]
	}
	return []consistencyCase{
		{method: "CreateBot", name: "outgoing webhook with a default channel", setup: func(t *testing.T, f *fixture) {
			f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("deploys")})
		}, run: func(t *testing.T, f *fixture) {
			mustCreateBot(t, f, "member", chat.CreateBotParams{FullName: "Hook Bot", ShortName: "hook", BotType: users.BotOutgoingWebhook,
				PayloadURL: "https://hooks.example.com/zulip", DefaultSendingStream: ptr("deploys"), DefaultAllPublicStreams: ptr(true)})
		}},
		{method: "UpdateBot", name: "name, channels and service", setup: setup, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateBot", errOf(f.svc.UpdateBot(t.Context(), f.actor("member"), chat.UpdateBotParams{BotID: hookOf(f), FullName: ptr("Deploy Hook"),
				DefaultSendingStream: ptr("deploys"), DefaultEventsRegisterStream: ptr("deploys"), DefaultAllPublicStreams: ptr(true),
				ServicePayloadURL: ptr("https://hooks.example.com/v2"), ServiceInterface: ptr(2)})))
		}},
		{method: "UpdateBot", name: "new owner and role", setup: setup, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateBot", errOf(f.svc.UpdateBot(t.Context(), f.actor("owner"), chat.UpdateBotParams{BotID: hookOf(f), BotOwnerID: ptr(f.ids["guest"]), Role: ptr(users.RoleModerator)})))
		}},
		{method: "UpdateBot", name: "made an administrator", setup: setup, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateBot", errOf(f.svc.UpdateBot(t.Context(), f.actor("owner"), chat.UpdateBotParams{BotID: f.ids["bot"], Role: ptr(users.RoleAdministrator)})))
		}},
		{method: "RegenerateBotAPIKey", name: "owner", setup: setup, run: func(t *testing.T, f *fixture) {
			mustDo(t, "RegenerateBotAPIKey", errOf(f.svc.RegenerateBotAPIKey(t.Context(), f.actor("member"), chat.BotParams{BotID: hookOf(f)})))
		}},
		{method: "RegenerateAPIKey", name: "a bot's own", run: func(t *testing.T, f *fixture) {
			mustDo(t, "RegenerateAPIKey", errOf(f.svc.RegenerateAPIKey(t.Context(), f.actor("bot"))))
		}},
		{method: "DeactivateBot", name: "by its owner, then reactivated", setup: setup, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeactivateBot", errOf(f.svc.DeactivateBot(t.Context(), f.actor("member"), chat.BotParams{BotID: hookOf(f)})))
			mustDo(t, "ReactivateUser", errOf(f.svc.ReactivateUser(t.Context(), f.actor("admin"), chat.ReactivateUserParams{UserID: hookOf(f)})))
		}},
		{method: "UpdateUser", name: "member made an administrator", setup: setup, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateUser", errOf(f.svc.UpdateUser(t.Context(), f.actor("owner"), chat.UpdateUserParams{UserID: f.ids["member"], Role: ptr(users.RoleAdministrator)})))
		}},
	}
}

// goldenRealmBot produces realm_bot add and update events, as the bot's owner sees them.
func goldenRealmBot(t *testing.T, f *fixture) {
	ctx := t.Context()
	id := mustCreateBot(t, f, "member", chat.CreateBotParams{FullName: "Hook Bot", ShortName: "hook", BotType: users.BotOutgoingWebhook,
		PayloadURL: "https://hooks.example.com/zulip"})
	mustDo(t, "UpdateBot", errOf(f.svc.UpdateBot(ctx, f.actor("member"), chat.UpdateBotParams{BotID: id, FullName: ptr("Deploy Hook")})))
	mustDo(t, "UpdateBot", errOf(f.svc.UpdateBot(ctx, f.actor("admin"), chat.UpdateBotParams{BotID: id, BotOwnerID: ptr(f.ids["owner"])})))
}
