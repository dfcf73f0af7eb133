package chat_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// publicQueueView sums up what a queue received: the contents and flags of its message
// events and the kinds of its other events.
type publicQueueView struct {
	Messages []string
	Flags    [][]string
	Others   []string
}

func viewOfQueue(t *testing.T, events []chat.Event) publicQueueView {
	t.Helper()
	v := publicQueueView{Messages: []string{}, Flags: [][]string{}, Others: []string{}}
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Type    string `json:"type"`
			Op      string `json:"op"`
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
			Flags    []string `json:"flags"`
			Name     string   `json:"name"`
			Property string   `json:"property"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		switch {
		case m.Type == "message":
			v.Messages = append(v.Messages, m.Message.Content)
			v.Flags = append(v.Flags, m.Flags)
		case m.Type == "stream" && m.Op == "update":
			v.Others = append(v.Others, m.Type+"/"+m.Op+" "+m.Name+" "+m.Property)
		case m.Op != "":
			v.Others = append(v.Others, m.Type+"/"+m.Op)
		default:
			v.Others = append(v.Others, m.Type)
		}
	}
	slices.Sort(v.Others)
	v.Others = slices.Compact(v.Others)
	return v
}

// Zulip's rules for queues that watch public channels their user is not subscribed to
// (events_public.go): all_public_streams queues get every public channel's messages, narrowed
// queues those their narrow keeps, never as a guest; the other events of those channels'
// messages go to their recipients and subscribers only; stream and peer events go to whoever
// may see the channel, whatever the queue.
func TestPublicChannelQueuesOnEveryBackend(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		if err := f.store.Update(ctx, func(tx storage.Tx) error {
			r, err := tx.Realm().Get()
			if err != nil {
				return err
			}
			r.EnableSpectatorAccess = true // for web-public channels
			return tx.Realm().Put(r)
		}); err != nil {
			t.Fatal(err)
		}
		lobby := mustChannel(t, f, "lobby", chat.NewChannelSettings{}, "member")
		open := mustChannel(t, f, "open", chat.NewChannelSettings{IsWebPublic: true}, "member")
		secret := mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "member")
		register := func(who string, p chat.RegisterQueueParams) string {
			t.Helper()
			res, err := f.svc.RegisterQueue(ctx, f.actor(who), p)
			if err != nil {
				t.Fatalf("register %s: %v", who, err)
			}
			return *res.QueueID
		}
		yes := true
		queues := map[string]struct{ who, id string }{
			"all public streams": {"admin", register("admin", chat.RegisterQueueParams{AllPublicStreams: &yes})},
			"narrowed to lobby":  {"admin", register("admin", chat.RegisterQueueParams{Narrow: [][]string{{"channel", "lobby"}}})},
			"plain":              {"admin", register("admin", chat.RegisterQueueParams{})},
			"guest narrowed":     {"guest", register("guest", chat.RegisterQueueParams{Narrow: [][]string{{"topic", "t"}}})},
			"subscriber":         {"member", register("member", chat.RegisterQueueParams{EventTypes: []string{"message"}})},
		}
		inLobby := mustSendToChannel(t, f, "member", lobby, "t", "public message")
		mustSendToChannel(t, f, "member", open, "t", "web-public message")
		mustSendToChannel(t, f, "member", secret, "t", "private message")
		mustDo(t, "AddReaction", errOf(f.svc.AddReaction(ctx, f.actor("member"), chat.AddReactionParams{MessageID: inLobby, EmojiName: "smile"})))
		edited := "public message, edited"
		mustDo(t, "UpdateMessage", errOf(f.svc.UpdateMessage(ctx, f.actor("member"), chat.UpdateMessageParams{MessageID: inLobby, Content: &edited})))
		mustDo(t, "DeleteMessage", errOf(f.svc.DeleteMessage(ctx, f.actor("member"), chat.DeleteMessageParams{MessageID: inLobby})))
		description := "the lobby"
		mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(ctx, f.actor("owner"), chat.UpdateStreamParams{StreamID: lobby, Description: &description})))
		mustDo(t, "Subscribe", errOf(f.svc.Subscribe(ctx, f.actor("owner"), chat.SubscribeParams{
			Subscriptions: []chat.SubscriptionRequest{{Name: "lobby"}}, Principals: chat.Principals{IDs: []users.ID{f.ids["owner"]}},
		})))

		// An administrator sees every channel's metadata, the private one's too.
		seesChannels := []string{"stream/update lobby description", "stream/update lobby first_message_id",
			"stream/update open first_message_id", "stream/update secret first_message_id", "subscription/peer_add"}
		want := map[string]publicQueueView{
			"all public streams": {Messages: []string{"public message", "web-public message"}, Flags: [][]string{{}, {}}, Others: seesChannels},
			"narrowed to lobby":  {Messages: []string{"public message"}, Flags: [][]string{{}}, Others: seesChannels},
			"plain":              {Messages: []string{}, Flags: [][]string{}, Others: seesChannels},
			"guest narrowed":     {Messages: []string{}, Flags: [][]string{}, Others: []string{"stream/update open first_message_id"}},
			"subscriber": {Messages: []string{"public message", "web-public message", "private message"},
				Flags: [][]string{{"read"}, {"read"}, {"read"}}, Others: []string{}},
		}
		for name, q := range queues {
			got := viewOfQueue(t, f.poll(t, q.who, q.id, -1, true))
			if diff := cmp.Diff(want[name], got); diff != "" {
				t.Errorf("%s queue of %s (-want +got):\n%s", name, q.who, diff)
			}
		}
		no := true
		_, err := f.svc.RegisterQueue(ctx, f.actor("guest"), chat.RegisterQueueParams{AllPublicStreams: &no})
		wantMsg(t, "a guest", err, "User not authorized for this query")
	})
}

// A public channel's message reaches the watching queues even when nobody receives it as a
// recipient (a channel without subscribers, written to by a bot that is not subscribed).
func TestPublicChannelWithoutRecipientsStillReachesWatchers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	empty := mustChannel(t, f, "empty", chat.NewChannelSettings{})
	yes := true
	res, err := f.svc.RegisterQueue(ctx, f.actor("admin"), chat.RegisterQueueParams{AllPublicStreams: &yes, EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	mustSendToChannel(t, f, "webhook", empty, "alerts", "disk full")
	got := viewOfQueue(t, f.poll(t, "admin", *res.QueueID, -1, true))
	if diff := cmp.Diff(publicQueueView{Messages: []string{"disk full"}, Flags: [][]string{{}}, Others: []string{}}, got); diff != "" {
		t.Errorf("watcher of an empty channel (-want +got):\n%s", diff)
	}
}

// Queues restored after a restart keep watching public channels: the all_public_streams and
// the narrowed ones.
func TestPublicChannelWatchersSurviveRestart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	lobby := mustChannel(t, f, "lobby", chat.NewChannelSettings{}, "member")
	yes := true
	var queues []string
	for _, p := range []chat.RegisterQueueParams{
		{AllPublicStreams: &yes, EventTypes: []string{"message"}},
		{Narrow: [][]string{{"channel", "lobby"}}, EventTypes: []string{"message"}},
	} {
		res, err := f.svc.RegisterQueue(ctx, f.actor("admin"), p)
		if err != nil {
			t.Fatal(err)
		}
		queues = append(queues, *res.QueueID)
	}
	if err := f.svc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	svc2, err := chat.New(chat.Options{Store: f.store, Now: f.clock.Now, HeartbeatWait: time.Hour})
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	t.Cleanup(func() { svc2.Close() })
	topic := "t"
	if _, err := svc2.SendMessage(ctx, f.actor("member"), chat.SendMessageParams{Type: "stream", ChannelID: &lobby, Topic: &topic, Content: "after the restart"}); err != nil {
		t.Fatal(err)
	}
	for _, q := range queues {
		got, err := svc2.GetEvents(ctx, f.actor("admin"), chat.GetEventsParams{QueueID: q, LastEventID: ptr(int64(-1)), DontBlock: true})
		if err != nil {
			t.Fatal(err)
		}
		if messages := viewOfQueue(t, got.Events).Messages; !cmp.Equal(messages, []string{"after the restart"}) {
			t.Errorf("restored queue %s got the messages %q, want the public channel's new one", q, messages)
		}
	}
}
