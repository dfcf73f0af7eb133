package chat_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// embeddedScene is a fixture with Verona and an embedded bot owned by the member, with a
// configuration.
type embeddedScene struct {
	*fixture
	bot    users.ID
	verona chat.GetStreamIDResult
}

func newEmbeddedScene(t *testing.T, store storage.Storage) *embeddedScene {
	t.Helper()
	f := newFixtureOn(t, store)
	ctx := t.Context()
	if _, err := f.svc.Subscribe(ctx, f.actor("member"), chat.SubscribeParams{Subscriptions: []chat.SubscriptionRequest{{Name: "Verona"}}}); err != nil {
		t.Fatal(err)
	}
	c, err := f.svc.GetStreamID(ctx, f.actor("member"), chat.GetStreamIDParams{Stream: "Verona"})
	if err != nil {
		t.Fatal(err)
	}
	bot, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "echo-bot@example.com", FullName: "Echo",
		BotType: users.BotEmbedded, BotOwnerID: f.ids["member"]})
	if err != nil {
		t.Fatal(err)
	}
	err = store.Update(ctx, func(tx storage.Tx) error {
		cfg, err := tx.BotConfigs().Get(bot.UserID)
		if err != nil {
			return err
		}
		cfg.Service.Name, cfg.Service.ConfigData = "echo", map[string]string{"greeting": "Hi"}
		return tx.BotConfigs().Put(cfg)
	})
	if err != nil {
		t.Fatal(err)
	}
	return &embeddedScene{fixture: f, bot: bot.UserID, verona: c}
}

// TestEmbeddedBot: an embedded bot's handler gets the same triggers as an outgoing webhook, in
// process, with its configuration, a mention's content without the mention; its reply is
// posted where the message was sent; an error or a panic of the handler posts nothing.
func TestEmbeddedBot(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		sc := newEmbeddedScene(t, store)
		ctx := t.Context()
		var mu sync.Mutex
		var got []chat.EmbeddedBotTrigger
		sc.svc.HandleEmbeddedBot(sc.bot, chat.EmbeddedBotHandlerFunc(func(_ context.Context, tr chat.EmbeddedBotTrigger) (chat.EmbeddedBotReply, error) {
			mu.Lock()
			got = append(got, tr)
			mu.Unlock()
			switch tr.Message.Content {
			case "fail":
				return chat.EmbeddedBotReply{}, errors.New("the handler failed")
			case "panic":
				panic("the handler panicked")
			}
			return chat.EmbeddedBotReply{Content: tr.Config["greeting"] + ", " + tr.Message.Content}, nil
		}))
		c, topic := sc.verona.StreamID, "echoes"
		if _, err := sc.svc.SendMessage(ctx, sc.actor("member"), chat.SendMessageParams{Type: "stream", ChannelID: &c, Topic: &topic,
			Content: "@**Echo** in the channel"}); err != nil {
			t.Fatal(err)
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Delivered: 1})
		for _, text := range []string{"fail", "panic", "in private"} {
			if _, err := sc.svc.SendMessage(ctx, sc.actor("member"), chat.SendMessageParams{Type: "private",
				UserIDs: []users.ID{sc.bot}, Content: text}); err != nil {
				t.Fatal(err)
			}
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Delivered: 3})
		if len(got) != 4 {
			t.Fatalf("the handler got %d triggers, want 4", len(got))
		}
		first := got[0]
		if first.BotID != sc.bot || first.BotEmail != "echo-bot@example.com" || first.BotFullName != "Echo" ||
			first.Trigger != "mention" || first.Message.Content != "in the channel" || first.Message.ChannelName != "Verona" ||
			first.Message.Subject != "echoes" || first.Message.SenderID != int64(sc.ids["member"]) {
			t.Errorf("first trigger = %+v", first)
		}
		if diff := cmp.Diff(map[string]string{"greeting": "Hi"}, first.Config); diff != "" {
			t.Errorf("Config (-want +got):\n%s", diff)
		}
		var replies []chat.MessageRecord
		for _, m := range sc.latest(t, sc.svc, 10) {
			if m.SenderID == sc.bot {
				replies = append(replies, m)
			}
		}
		if len(replies) != 2 || replies[0].Content != "Hi, in the channel" || replies[0].Subject != "echoes" ||
			replies[1].Content != "Hi, in private" || replies[1].Type != "private" {
			t.Errorf("replies = %+v, want the channel's and the direct message's", replies)
		}
	})
}

// TestEmbeddedBotWithoutHandler: a job of an embedded bot that no handler serves is retried,
// then given up with Zulip's "Bot is unavailable" and a notice to the bot's owner.
func TestEmbeddedBotWithoutHandler(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		sc := newEmbeddedScene(t, store)
		res, err := sc.svc.SendMessage(t.Context(), sc.actor("member"), chat.SendMessageParams{Type: "private",
			UserIDs: []users.ID{sc.bot}, Content: "anyone?"})
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			deliver(t, sc.svc, chat.DeliverServiceJobsResult{Retried: 1})
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Failed: 1})
		got := sc.latest(t, sc.svc, 2)
		member, bot := sc.ids["member"], sc.bot
		want := []string{"Failure! Bot is unavailable", fmt.Sprintf("[A message](https://chat.example.com/#narrow/dm/%d,%d/near/%d) "+
			"to your bot @_**Echo** triggered an outgoing webhook.\nNo handler is registered for this embedded bot.",
			min(member, bot), max(member, bot), res.ID)}
		if diff := cmp.Diff(want, []string{got[0].Content, got[1].Content}); diff != "" {
			t.Errorf("the bot's messages (-want +got):\n%s", diff)
		}
	})
}

// TestEmbeddedBotConfigLimit: an embedded bot's configuration holds bots.BotConfigSizeLimit
// characters in all (Zulip's BOT_CONFIG_SIZE_LIMIT); PATCH /bots past it changes nothing, and
// the handler reads the configuration stored.
func TestEmbeddedBotConfigLimit(t *testing.T) {
	t.Parallel()
	sc := newEmbeddedScene(t, memory.New())
	ctx := t.Context()
	big := map[string]string{}
	for i := range 11 {
		big[fmt.Sprintf("key%02d", i)] = strings.Repeat("v", 995) // 1,000 characters each
	}
	_, err := sc.svc.UpdateBot(ctx, sc.actor("member"), chat.UpdateBotParams{BotID: sc.bot, ConfigData: big})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest,
		"Cannot store configuration. Request would require 11000 characters. The current configuration size limit is 10000 characters.")
	delete(big, "key10")
	if _, err := sc.svc.UpdateBot(ctx, sc.actor("member"), chat.UpdateBotParams{BotID: sc.bot, ConfigData: big}); err != nil {
		t.Fatalf("UpdateBot with 10,000 characters: %v", err)
	}
	got := make(chan map[string]string, 1)
	sc.svc.HandleEmbeddedBot(sc.bot, chat.EmbeddedBotHandlerFunc(func(_ context.Context, tr chat.EmbeddedBotTrigger) (chat.EmbeddedBotReply, error) {
		got <- tr.Config
		return chat.EmbeddedBotReply{}, nil
	}))
	if _, err := sc.svc.SendMessage(ctx, sc.actor("member"), chat.SendMessageParams{Type: "private",
		UserIDs: []users.ID{sc.bot}, Content: "config?"}); err != nil {
		t.Fatal(err)
	}
	deliver(t, sc.svc, chat.DeliverServiceJobsResult{Delivered: 1})
	if diff := cmp.Diff(big, <-got); diff != "" {
		t.Errorf("Config (-want +got):\n%s", diff)
	}
}

// TestEmbeddedBotTimeout: a handler that overruns the timeout is tried again, like a webhook
// that times out, and given up after the last attempt.
func TestEmbeddedBotTimeout(t *testing.T) {
	t.Parallel()
	store := memory.New()
	f := newFixtureOn(t, store, func(o *chat.Options) { o.OutgoingWebhookTimeout = 50 * time.Millisecond })
	bot, err := f.svc.ProvisionUser(t.Context(), chat.ProvisionUserParams{Email: "slow-bot@example.com", FullName: "Slow",
		BotType: users.BotEmbedded, BotOwnerID: f.ids["member"]})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	f.svc.HandleEmbeddedBot(bot.UserID, chat.EmbeddedBotHandlerFunc(func(ctx context.Context, _ chat.EmbeddedBotTrigger) (chat.EmbeddedBotReply, error) {
		calls++
		<-ctx.Done()
		return chat.EmbeddedBotReply{Content: "too late"}, ctx.Err()
	}))
	if _, err := f.svc.SendMessage(t.Context(), f.actor("member"), chat.SendMessageParams{Type: "private",
		UserIDs: []users.ID{bot.UserID}, Content: "take your time"}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		deliver(t, f.svc, chat.DeliverServiceJobsResult{Retried: 1})
	}
	deliver(t, f.svc, chat.DeliverServiceJobsResult{Failed: 1})
	got := f.latest(t, f.svc, 2)
	if calls != 4 || got[0].Content != "Failure! Bot is unavailable" || !strings.HasSuffix(got[1].Content, "\nRequest timed out after 0.05 seconds.") {
		t.Errorf("calls = %d, messages = %q, %q", calls, got[0].Content, got[1].Content)
	}
}
