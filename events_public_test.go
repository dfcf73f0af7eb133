package chat_test

import (
	"context"
	"encoding/json"
	"testing"

	chat "github.com/teamchat/chat"
)

func TestAllPublicStreamsQueuesGetEveryPublicChannelsMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("public")})
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("secret"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("watched")})
	dropNotices(t, f)
	yes := true
	watcher, err := f.svc.RegisterQueue(ctx, f.actor("admin"), chat.RegisterQueueParams{EventTypes: []string{"message"}, AllPublicStreams: &yes})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := f.svc.RegisterQueue(ctx, f.actor("admin"), chat.RegisterQueueParams{EventTypes: []string{"message"}})
	if err != nil {
		t.Fatal(err)
	}
	mustSendToChannel(t, f, "member", f.mustChannel(t, "public").ID, "t", "to a public channel")
	mustSendToChannel(t, f, "member", f.mustChannel(t, "secret").ID, "t", "to a private channel")
	mustSendToChannel(t, f, "admin", f.mustChannel(t, "watched").ID, "t", "to a subscribed channel")
	contents := func(events []chat.Event) []string {
		var out []string
		for _, e := range events {
			b, _ := json.Marshal(e)
			var m struct {
				Message struct {
					Content string `json:"content"`
				} `json:"message"`
				Flags []string `json:"flags"`
			}
			_ = json.Unmarshal(b, &m)
			out = append(out, m.Message.Content)
		}
		return out
	}
	got := contents(f.poll(t, "admin", *watcher.QueueID, -1, true))
	want := []string{"to a public channel", "to a subscribed channel"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("all_public_streams queue got %q, want %q", got, want)
	}
	if got := contents(f.poll(t, "admin", *plain.QueueID, -1, true)); len(got) != 1 || got[0] != want[1] {
		t.Errorf("ordinary queue got %q, want only the subscribed channel's message", got)
	}
	no := true
	_, err = f.svc.RegisterQueue(ctx, f.actor("guest"), chat.RegisterQueueParams{AllPublicStreams: &no})
	wantMsg(t, "a guest", err, "User not authorized for this query")
}
