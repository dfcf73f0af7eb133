package chat_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// webhookServer is an outgoing webhook's server: it records each call and answers with
// respond (n counts the calls, from 1).
type webhookServer struct {
	*httptest.Server
	mu      sync.Mutex
	calls   []webhookCall
	respond func(n int, w http.ResponseWriter, r *http.Request)
}

// webhookCall is one recorded call.
type webhookCall struct {
	Method, ContentType, UserAgent string
	Body                           []byte
}

func newWebhookServer(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) *webhookServer {
	t.Helper()
	s := &webhookServer{respond: respond}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body)) // respond may read it too
		s.mu.Lock()
		s.calls = append(s.calls, webhookCall{r.Method, r.Header.Get("Content-Type"), r.Header.Get("User-Agent"), body})
		n := len(s.calls)
		s.mu.Unlock()
		s.respond(n, w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *webhookServer) recorded() []webhookCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// answer is a respond function answering every call with the status and body.
func answer(status int, body string) func(int, http.ResponseWriter, *http.Request) {
	return func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// botScene is a fixture with the channel Verona (the member subscribed) and an outgoing
// webhook bot owned by the member.
type botScene struct {
	*fixture
	bot      users.ID
	botEmail string
	token    string
	verona   channels.ID
}

const botName = "Outgoing webhook test"

func newBotScene(t *testing.T, store storage.Storage, payloadURL string, iface int, opts ...func(*chat.Options)) *botScene {
	t.Helper()
	f := newFixtureOn(t, store, opts...)
	ctx := t.Context()
	if _, err := f.svc.Subscribe(ctx, f.actor("member"), chat.SubscribeParams{
		Subscriptions: []chat.SubscriptionRequest{{Name: "Verona"}},
	}); err != nil {
		t.Fatalf("Subscribe: %v", err)
	}
	c, err := f.svc.GetStreamID(ctx, f.actor("member"), chat.GetStreamIDParams{Stream: "Verona"})
	if err != nil {
		t.Fatal(err)
	}
	bot, err := f.svc.CreateBot(ctx, f.actor("member"), chat.CreateBotParams{FullName: botName, ShortName: "outgoing",
		BotType: users.BotOutgoingWebhook, PayloadURL: payloadURL, Interface: iface})
	if err != nil {
		t.Fatalf("CreateBot: %v", err)
	}
	sc := &botScene{fixture: f, bot: bot.UserID, verona: c.StreamID}
	err = store.View(ctx, func(tx storage.ReadTx) error {
		u, err := tx.Users().Get(bot.UserID)
		if err != nil {
			return err
		}
		cfg, err := tx.BotConfigs().Get(bot.UserID)
		sc.botEmail, sc.token = u.Email, cfg.Service.Token
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// allowPrivate lets the Service call the test's loopback servers.
func allowPrivate(o *chat.Options) { o.AllowPrivateWebhookTargets = true }

// mention sends the member's message mentioning the bot in Verona > topic.
func (sc *botScene) mention(t *testing.T, svc *chat.Service, topic, text string) messages.ID {
	t.Helper()
	c := sc.verona
	res, err := svc.SendMessage(t.Context(), sc.actor("member"), chat.SendMessageParams{Type: "stream", ChannelID: &c,
		Topic: &topic, Content: "@**" + botName + "** " + text})
	if err != nil {
		t.Fatalf("SendMessage: %v", err)
	}
	return res.ID
}

// latest returns the member's newest messages (raw Markdown), oldest first.
func (f *fixture) latest(t *testing.T, svc *chat.Service, n int) []chat.MessageRecord {
	t.Helper()
	res, err := svc.GetMessages(t.Context(), f.actor("member"), chat.GetMessagesParams{Anchor: "newest", NumBefore: n,
		ApplyMarkdown: ptr(false), AllowEmptyTopicName: true})
	if err != nil {
		t.Fatalf("GetMessages: %v", err)
	}
	return res.Messages
}

// deliver runs one DeliverServiceJobs and checks its counts.
func deliver(t *testing.T, svc *chat.Service, want chat.DeliverServiceJobsResult) {
	t.Helper()
	got, err := svc.DeliverServiceJobs(t.Context())
	if err != nil {
		t.Fatalf("DeliverServiceJobs: %v", err)
	}
	if got != want {
		t.Fatalf("DeliverServiceJobs = %+v, want %+v", got, want)
	}
}

// pendingJobs counts the stored service jobs.
func pendingJobs(t *testing.T, store storage.Storage) int {
	t.Helper()
	var n int
	err := store.View(t.Context(), func(tx storage.ReadTx) error {
		l, err := tx.ServiceJobs().List()
		n = len(l)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// onEveryBackendWith is onEveryBackend for tests that build their own fixture.
func onEveryBackendWith(t *testing.T, body func(t *testing.T, store storage.Storage)) {
	t.Helper()
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			body(t, b.open(t))
		})
	}
}

// TestOutgoingWebhookMention: a mention in a channel calls the bot's URL with Zulip's
// payload (api/outgoing-webhooks: every documented field, field by field), and the reply is
// posted by the bot in the same topic.
func TestOutgoingWebhookMention(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, answer(200, `{"content": "Hello back"}`))
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceGeneric, allowPrivate)
		text := "Zulip is the world’s most productive group chat!"
		id := sc.mention(t, sc.svc, "Verona2", text)
		if n := pendingJobs(t, store); n != 1 {
			t.Fatalf("jobs after the send = %d, want 1", n)
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Delivered: 1})
		calls := hook.recorded()
		if len(calls) != 1 {
			t.Fatalf("the webhook got %d calls, want 1", len(calls))
		}
		call := calls[0]
		if call.Method != http.MethodPost || call.ContentType != "application/json" ||
			!strings.HasPrefix(call.UserAgent, "ZulipOutgoingWebhook/") {
			t.Errorf("call = %s %q %q, want POST application/json ZulipOutgoingWebhook/...", call.Method, call.ContentType, call.UserAgent)
		}
		var payload map[string]any
		if err := json.Unmarshal(call.Body, &payload); err != nil {
			t.Fatal(err)
		}
		content := "@**" + botName + "** " + text
		msg, _ := payload["message"].(map[string]any)
		delete(payload, "message")
		if diff := cmp.Diff(map[string]any{"bot_email": sc.botEmail, "bot_full_name": botName, "data": content,
			"token": sc.token, "trigger": "mention"}, payload); diff != "" {
			t.Errorf("payload (-want +got):\n%s", diff)
		}
		// The message, in the format of GET /messages with rendered_content: the fields of
		// Zulip's documented example, each checked.
		senderEmail := fmt.Sprintf("user%d@chat.example.com", sc.ids["member"])
		want := map[string]any{
			"client": "API", "content": content, "display_recipient": "Verona", "id": float64(id),
			"is_me_message": false, "reactions": []any{}, "sender_email": senderEmail,
			"sender_full_name": "Mia Member", "sender_id": float64(sc.ids["member"]), "sender_realm_str": "chat",
			"stream_id": float64(sc.verona), "subject": "Verona2", "submessages": []any{},
			"timestamp": float64(sc.clock.Now().Unix()), "topic_links": []any{}, "type": "stream",
			"rendered_content": fmt.Sprintf(`<p><span class="user-mention" data-user-id="%d">@%s</span> %s</p>`, sc.bot, botName, text),
		}
		for key, v := range want {
			if diff := cmp.Diff(v, msg[key]); diff != "" {
				t.Errorf("message[%q] (-want +got):\n%s", key, diff)
			}
		}
		for _, key := range []string{"avatar_url", "recipient_id"} {
			if _, ok := msg[key]; !ok {
				t.Errorf("message has no %q", key)
			}
		}
		got := sc.latest(t, sc.svc, 1)[0]
		if got.SenderID != sc.bot || got.Content != "Hello back" || got.Subject != "Verona2" || got.Type != "stream" ||
			got.Client != "OutgoingWebhookResponse" {
			t.Errorf("reply = %d %q %q %s %q, want the bot's Hello back in Verona2", got.SenderID, got.Content, got.Subject, got.Type, got.Client)
		}
		if n := pendingJobs(t, store); n != 0 {
			t.Errorf("jobs after delivery = %d, want 0", n)
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{}) // nothing twice
	})
}

// TestOutgoingWebhookDirectMessage: a direct message to the bot triggers direct_message; the
// reply goes to the same conversation; response_not_required posts nothing; a message
// without mention or a bot's own message triggers nothing.
func TestOutgoingWebhookDirectMessage(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			if body, _ := io.ReadAll(r.Body); bytes.Contains(body, []byte(`"data":"quiet"`)) {
				io.WriteString(w, `{"response_not_required": true}`)
				return
			}
			io.WriteString(w, `{"content": "pong"}`)
		})
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceGeneric, allowPrivate)
		ctx := t.Context()
		// The calls run concurrently: the webhook tells them apart by the body it reads.
		for _, text := range []string{"quiet", "ping"} {
			if _, err := sc.svc.SendMessage(ctx, sc.actor("member"), chat.SendMessageParams{Type: "private",
				UserIDs: []users.ID{sc.bot}, Content: text}); err != nil {
				t.Fatal(err)
			}
		}
		// Neither a channel message without a mention nor a bot's message triggers anything.
		c, topic := sc.verona, "t"
		if _, err := sc.svc.SendMessage(ctx, sc.actor("member"), chat.SendMessageParams{Type: "stream", ChannelID: &c,
			Topic: &topic, Content: "no mention of " + botName}); err != nil {
			t.Fatal(err)
		}
		if _, err := sc.svc.SendMessage(ctx, chat.Actor{UserID: sc.bot}, chat.SendMessageParams{Type: "private",
			UserIDs: []users.ID{sc.ids["member"]}, Content: "from the bot"}); err != nil {
			t.Fatal(err)
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Delivered: 2})
		calls := hook.recorded()
		if len(calls) != 2 {
			t.Fatalf("the webhook got %d calls, want 2", len(calls))
		}
		var p struct {
			Trigger, Data string
			Message       struct {
				Type             string
				DisplayRecipient []struct{ ID users.ID } `json:"display_recipient"`
			}
		}
		for _, c := range calls {
			if err := json.Unmarshal(c.Body, &p); err != nil {
				t.Fatal(err)
			}
			if p.Data == "ping" {
				break
			}
		}
		if p.Trigger != "direct_message" || p.Data != "ping" || p.Message.Type != "private" || len(p.Message.DisplayRecipient) != 2 {
			t.Errorf("payload = %+v, want a direct_message trigger of ping between two", p)
		}
		got := sc.latest(t, sc.svc, 1)[0]
		if got.SenderID != sc.bot || got.Content != "pong" || got.Type != "private" {
			t.Errorf("newest = %d %q %s, want the bot's pong in the direct message", got.SenderID, got.Content, got.Type)
		}
		for _, m := range sc.latest(t, sc.svc, 6) {
			if m.SenderID == sc.bot && m.Content != "pong" && m.Content != "from the bot" {
				t.Errorf("unexpected message of the bot: %q", m.Content)
			}
		}
	})
}

// TestOutgoingWebhookTimeoutRetries: a webhook that does not answer in time is tried again,
// 1+MaxServiceRetries times in all; then the conversation gets "Failure! Bot is unavailable"
// and the bot's owner Zulip's notice with the reason.
func TestOutgoingWebhookTimeoutRetries(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		})
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceGeneric, allowPrivate,
			func(o *chat.Options) { o.OutgoingWebhookTimeout = 200 * time.Millisecond })
		id := sc.mention(t, sc.svc, "slow", "are you there?")
		for range 3 {
			deliver(t, sc.svc, chat.DeliverServiceJobsResult{Retried: 1})
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Failed: 1})
		if n := len(hook.recorded()); n != 4 {
			t.Errorf("the webhook got %d calls, want 4", n)
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{})
		got := sc.latest(t, sc.svc, 2)
		if got[0].SenderID != sc.bot || got[0].Content != "Failure! Bot is unavailable" || got[0].Subject != "slow" {
			t.Errorf("conversation = %d %q %q, want the bot's failure in slow", got[0].SenderID, got[0].Content, got[0].Subject)
		}
		want := fmt.Sprintf("[A message](https://chat.example.com/#narrow/channel/%d-Verona/topic/slow/near/%d) to your bot "+
			"@_**%s** triggered an outgoing webhook.\nRequest timed out after 0.2 seconds.", sc.verona, id, botName)
		if got[1].SenderID != sc.bot || got[1].Type != "private" || got[1].Content != want {
			t.Errorf("owner's notice = %d %s %q,\nwant %q", got[1].SenderID, got[1].Type, got[1].Content, want)
		}
	})
}

// TestOutgoingWebhookErrorStatus: an error status is not retried: the conversation and the
// owner are told, the owner with the status and the payload as Zulip quotes it.
func TestOutgoingWebhookErrorStatus(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, answer(500, `{"error": "boom"}`))
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceGeneric, allowPrivate)
		id := sc.mention(t, sc.svc, "errors", "fail please")
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Failed: 1})
		got := sc.latest(t, sc.svc, 2)
		if got[0].Content != "Failure! Third party responded with 500" {
			t.Errorf("conversation = %q", got[0].Content)
		}
		want := fmt.Sprintf("[A message](https://chat.example.com/#narrow/channel/%d-Verona/topic/errors/near/%d) to your bot "+
			"@_**%s** triggered an outgoing webhook.\nThe webhook got a response with status code *500*.\n"+
			"The response contains the following payload:\n```\nb'{\"error\": \"boom\"}'\n```", sc.verona, id, botName)
		if got[1].Content != want {
			t.Errorf("owner's notice = %q,\nwant %q", got[1].Content, want)
		}
		if n := len(hook.recorded()); n != 1 {
			t.Errorf("the webhook got %d calls, want 1", n)
		}
	})
}

// TestOutgoingWebhookRefusesPrivateAddress: by default the guard refuses the loopback server
// before any byte is sent; Zulip's texts for a private network follow.
func TestOutgoingWebhookRefusesPrivateAddress(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, answer(200, `{"content": "should not be called"}`))
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceGeneric)
		id := sc.mention(t, sc.svc, "ssrf", "hello")
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Failed: 1})
		if n := len(hook.recorded()); n != 0 {
			t.Errorf("the loopback server got %d calls, want none", n)
		}
		got := sc.latest(t, sc.svc, 2)
		want := fmt.Sprintf("[A message](https://chat.example.com/#narrow/channel/%d-Verona/topic/ssrf/near/%d) to your bot "+
			"@_**%s** triggered an outgoing webhook.\nThe URL configured for the webhook is for a private or disallowed network.",
			sc.verona, id, botName)
		if got[0].Content != "Failure! Third party responded with 407" || got[1].Content != want {
			t.Errorf("messages = %q, %q;\nwant the 407 failure and %q", got[0].Content, got[1].Content, want)
		}
	})
}

// TestOutgoingWebhookSlack: Slack's format is a form with Slack's fields; its text is the
// reply; direct messages are refused with Zulip's text.
func TestOutgoingWebhookSlack(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, answer(200, `{"text": "slack says hi"}`))
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceSlack, allowPrivate)
		sc.mention(t, sc.svc, "slack", "hi")
		if _, err := sc.svc.SendMessage(t.Context(), sc.actor("member"), chat.SendMessageParams{Type: "private",
			UserIDs: []users.ID{sc.bot}, Content: "direct"}); err != nil {
			t.Fatal(err)
		}
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Delivered: 1, Failed: 1})
		calls := hook.recorded()
		if len(calls) != 1 || calls[0].ContentType != "application/x-www-form-urlencoded" {
			t.Fatalf("calls = %+v, want one form", calls)
		}
		want := fmt.Sprintf("token=%s&team_id=chat&team_domain=chat.example.com&channel_id=%d&channel_name=Verona&timestamp=%d"+
			"&user_id=%d&user_name=Mia+Member&text=%%40%%2A%%2AOutgoing+webhook+test%%2A%%2A+hi&trigger_word=mention&service_id=%d",
			sc.token, sc.verona, sc.clock.Now().Unix(), sc.ids["member"], sc.bot)
		if diff := cmp.Diff(want, string(calls[0].Body)); diff != "" {
			t.Errorf("form (-want +got):\n%s", diff)
		}
		got := sc.latest(t, sc.svc, 3)
		var texts []string
		for _, m := range got {
			if m.SenderID == sc.bot {
				texts = append(texts, m.Content)
			}
		}
		slices.Sort(texts)
		if diff := cmp.Diff([]string{"Failure! Slack outgoing webhooks don't support private messages.", "slack says hi"}, texts); diff != "" {
			t.Errorf("the bot's messages (-want +got):\n%s", diff)
		}
	})
}

// jsonUnmarshal is json.Unmarshal (for handlers that ignore bodies they cannot read).
func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }

// TestOutgoingWebhookReactions: an answer's reactions are added by the bot to the triggering
// message (one it has already added is no error when the job runs again); an emoji that does
// not exist is Zulip's failure of the answer, told in the conversation and to the owner.
func TestOutgoingWebhookReactions(t *testing.T) {
	t.Parallel()
	onEveryBackendWith(t, func(t *testing.T, store storage.Storage) {
		hook := newWebhookServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			if bytes.Contains(body, []byte("** bad")) {
				io.WriteString(w, `{"reactions": [{"emoji_name": "no_such_emoji"}]}`)
				return
			}
			io.WriteString(w, `{"content": "liked", "reactions": [{"emoji_name": "thumbs_up"}]}`)
		})
		sc := newBotScene(t, store, hook.URL, users.ServiceInterfaceGeneric, allowPrivate)
		liked := sc.mention(t, sc.svc, "reactions", "good")
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Delivered: 1})
		res, err := sc.svc.GetMessages(t.Context(), sc.actor("member"), chat.GetMessagesParams{MessageIDs: []messages.ID{liked}})
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Messages[0].Reactions; len(r) != 1 || r[0].EmojiName != "thumbs_up" || r[0].UserID != sc.bot {
			t.Errorf("reactions = %+v, want the bot's thumbs_up", r)
		}
		if got := sc.latest(t, sc.svc, 1)[0]; got.Content != "liked" || got.SenderID != sc.bot {
			t.Errorf("newest = %q by %d, want the bot's reply", got.Content, got.SenderID)
		}
		bad := sc.mention(t, sc.svc, "reactions", "bad")
		deliver(t, sc.svc, chat.DeliverServiceJobsResult{Failed: 1})
		got := sc.latest(t, sc.svc, 2)
		if !strings.HasPrefix(got[0].Content, "Failure! ") || got[0].Subject != "reactions" {
			t.Errorf("conversation = %q in %q, want a failure", got[0].Content, got[0].Subject)
		}
		refusal := strings.TrimPrefix(got[0].Content, "Failure! ")
		want := fmt.Sprintf("[A message](https://chat.example.com/#narrow/channel/%d-Verona/topic/reactions/near/%d) to your bot "+
			"@_**%s** triggered an outgoing webhook.\nThe outgoing webhook server attempted to send a message in Zulip, but that "+
			"request resulted in the following error:\n> %s\nThe response contains the following payload:\n```\n"+
			`'{"reactions": [{"emoji_name": "no_such_emoji"}]}'`+"\n```", sc.verona, bad, botName, refusal)
		if got[1].Content != want {
			t.Errorf("owner's notice = %q,\nwant %q", got[1].Content, want)
		}
	})
}
