package chat_test

import (
	"encoding/json"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

// TestEventEncodedOncePerForm: a message to a channel reaches 15 queues of five users, which
// registered with apply_markdown on or off: the event is encoded twice (once per form), not
// once per queue, and each queue gets its own form. Not parallel: it reads a process-wide
// count.
func TestEventEncodedOncePerForm(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	viewers := []string{"owner", "admin", "member", "guest", "bot"}
	c := mustChannel(t, f, "forms", chat.NewChannelSettings{}, viewers...)
	type reg struct {
		user, queue string
		markdown    bool
	}
	var regs []reg
	for _, v := range viewers {
		for _, markdown := range []bool{true, false, true} {
			res, err := f.svc.RegisterQueue(ctx, f.actor(v), chat.RegisterQueueParams{ApplyMarkdown: markdown, EventTypes: []string{"message"}})
			if err != nil {
				t.Fatal(err)
			}
			regs = append(regs, reg{v, *res.QueueID, markdown})
		}
	}
	before := chat.FormsEncoded()
	if _, err := f.svc.SendMessage(ctx, f.actor("owner"), chat.SendMessageParams{
		Type: "stream", ChannelID: &c, Topic: ptr("forms"), Content: "**bold**",
	}); err != nil {
		t.Fatal(err)
	}
	for _, r := range regs {
		evs := eventJSON(t, f.poll(t, r.user, r.queue, -1, true))
		if len(evs) != 1 {
			t.Fatalf("%s: %d events, want 1", r.user, len(evs))
		}
		content, _ := evs[0]["message"].(map[string]any)["content"].(string)
		if rendered := strings.Contains(content, "<strong>"); rendered != r.markdown {
			t.Errorf("%s (apply_markdown %v): content %q", r.user, r.markdown, content)
		}
	}
	if n := chat.FormsEncoded() - before; n != 2 {
		t.Errorf("the message event was encoded %d times for %d queues, want 2 (one per form)", n, len(regs))
	}
}

// TestGetEventsResultQueueID: the queue id of a GET /events result is encoded as
// json.Marshal encodes it, whether it takes the plain path (printable ASCII) or not.
func TestGetEventsResultQueueID(t *testing.T) {
	t.Parallel()
	for _, id := range []string{
		"node-1:0b8f6e8e-9d2e-4d5f-8b1a-2f3c4d5e6f70", "a", `quote"d`, `back\slash`, "<tag>&", "tab\there",
		"ünïcode", "\x7f", "\u2028", "bad\xffutf8",
	} {
		got, err := chat.GetEventsResult{QueueID: id}.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		q, _ := json.Marshal(id)
		if want := `{"events":[],"queue_id":` + string(q) + `}`; string(got) != want {
			t.Errorf("queue id %q: %s, want %s", id, got, want)
		}
	}
}
