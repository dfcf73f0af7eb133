package chat_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

func goldenTyping(t *testing.T, f *fixture) {
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	mustDo(t, "SetTypingStatus", errOf(f.svc.SetTypingStatus(ctx, f.actor("admin"), chat.SetTypingStatusParams{Op: "start", To: []usersID{f.ids["member"]}})))
	mustDo(t, "SetTypingStatus", errOf(f.svc.SetTypingStatus(ctx, f.actor("admin"), chat.SetTypingStatusParams{Type: "stream", Op: "stop", StreamID: &c, Topic: ptr("lunch")})))
	id := mustSendDirect(t, f, "admin", "hi", "member")
	mustDo(t, "SetTypingStatusForMessageEdit", errOf(f.svc.SetTypingStatusForMessageEdit(ctx, f.actor("admin"), chat.SetTypingStatusForMessageEditParams{MessageID: id, Op: "start"})))
}

// typingSeen is the last event id each test queue acknowledged (queue ids are unique).
var typingSeen sync.Map

// typingEvents polls a queue for the events after those it returned before, and returns the
// typing and typing_edit_message events among them.
func typingEvents(t *testing.T, f *fixture, who, queue string) []map[string]any {
	t.Helper()
	last := int64(-1)
	if v, ok := typingSeen.Load(queue); ok {
		last = v.(int64)
	}
	var out []map[string]any
	for _, e := range eventJSON(t, f.poll(t, who, queue, last, true)) {
		if id := int64(num(e["id"])); id > last {
			last = id
			typingSeen.Store(queue, last)
		}
		if e["type"] == "typing" || e["type"] == "typing_edit_message" {
			delete(e, "id")
			out = append(out, e)
		}
	}
	return out
}

func TestTypingDirect(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	member := f.register(t, "member", "typing")
	admin := f.register(t, "admin", "typing")
	guest := f.register(t, "guest", "typing")
	// The guest turned typing notifications off: they get none.
	mustDo(t, "UpdateSettings", errOf(f.svc.UpdateSettings(ctx, f.actor("guest"), chat.UpdateSettingsParams{Values: map[string]any{"receives_typing_notifications": false}})))
	if _, err := f.svc.SetTypingStatus(ctx, f.actor("member"), chat.SetTypingStatusParams{Op: "start", To: []usersID{f.ids["admin"], f.ids["guest"]}}); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{{
		"type": "typing", "op": "start", "message_type": "direct",
		"sender": map[string]any{"user_id": float64(f.ids["member"]), "email": "user3@chat.example.com"},
		"recipients": []any{
			map[string]any{"user_id": float64(f.ids["admin"]), "email": "user2@chat.example.com"},
			map[string]any{"user_id": float64(f.ids["guest"]), "email": "user4@chat.example.com"},
			map[string]any{"user_id": float64(f.ids["member"]), "email": "user3@chat.example.com"},
		},
	}}
	for _, q := range []struct{ who, queue string }{{"member", member}, {"admin", admin}} {
		if diff := cmp.Diff(want, typingEvents(t, f, q.who, q.queue)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", q.who, diff)
		}
	}
	if got := typingEvents(t, f, "guest", guest); len(got) != 0 {
		t.Errorf("guest with typing notifications off got %v", got)
	}

	// Without a renewed start, the Service sends the stop once the start expired.
	f.clock.Advance(chat.TypingExpiry - time.Second)
	mustDo(t, "ExpireTyping", f.svc.ExpireTyping(ctx))
	if got := typingEvents(t, f, "admin", admin); len(got) != 0 {
		t.Fatalf("before the expiry: %v", got)
	}
	f.clock.Advance(time.Second)
	mustDo(t, "ExpireTyping", f.svc.ExpireTyping(ctx))
	got := typingEvents(t, f, "admin", admin)
	if len(got) != 1 || got[0]["op"] != "stop" || !cmp.Equal(got[0]["recipients"], want[0]["recipients"]) {
		t.Errorf("after the expiry: %v, want one stop", got)
	}
	mustDo(t, "ExpireTyping", f.svc.ExpireTyping(ctx))
	if got := typingEvents(t, f, "admin", admin); len(got) != 0 {
		t.Errorf("a second stop: %v", got)
	}

	// A client's own stop ends the start: no stop comes later.
	if _, err := f.svc.SetTypingStatus(ctx, f.actor("member"), chat.SetTypingStatusParams{Op: "start", To: []usersID{f.ids["admin"]}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.SetTypingStatus(ctx, f.actor("member"), chat.SetTypingStatusParams{Op: "stop", To: []usersID{f.ids["admin"]}}); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(2 * chat.TypingExpiry)
	mustDo(t, "ExpireTyping", f.svc.ExpireTyping(ctx))
	if got := typingEvents(t, f, "admin", admin); len(got) != 2 || got[1]["op"] != "stop" {
		t.Errorf("start, stop, then expiry: %v, want just the start and the stop", got)
	}
}

func TestTypingChannel(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin", "guest")
	capable, _ := f.registerWith(t, "admin", chat.ClientCapabilities{StreamTypingNotifications: true})
	legacy, _ := f.registerWith(t, "admin", chat.ClientCapabilities{})
	outsider, _ := f.registerWith(t, "owner", chat.ClientCapabilities{StreamTypingNotifications: true})
	if _, err := f.svc.SetTypingStatus(ctx, f.actor("member"), chat.SetTypingStatusParams{Type: "channel", Op: "start", StreamID: &c, Topic: ptr("")}); err != nil {
		t.Fatal(err)
	}
	got := typingEvents(t, f, "admin", capable)
	want := []map[string]any{{
		"type": "typing", "op": "start", "message_type": "stream",
		"sender":    map[string]any{"user_id": float64(f.ids["member"]), "email": "user3@chat.example.com"},
		"stream_id": float64(c), "topic": "general chat",
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("capable client (-want +got):\n%s", diff)
	}
	if got := typingEvents(t, f, "admin", legacy); len(got) != 0 {
		t.Errorf("client without stream_typing_notifications got %v", got)
	}
	if got := typingEvents(t, f, "owner", outsider); len(got) != 0 {
		t.Errorf("non-subscriber got %v", got)
	}
}

func TestTypingErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member")
	secret := mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "admin")
	mustDo(t, "UpdateSettings", errOf(f.svc.UpdateSettings(ctx, f.actor("admin"), chat.UpdateSettingsParams{Values: map[string]any{
		"send_private_typing_notifications": false, "send_stream_typing_notifications": false,
	}})))
	admin := f.register(t, "admin", "typing")
	for _, tt := range []struct {
		name, who string
		p         chat.SetTypingStatusParams
		msg       string
	}{
		{"no op", "member", chat.SetTypingStatusParams{To: []usersID{1}}, "Missing 'op' argument"},
		{"an unknown op", "member", chat.SetTypingStatusParams{Op: "pause", To: []usersID{1}}, "Invalid op"},
		{"an unknown type", "member", chat.SetTypingStatusParams{Type: "private", Op: "start", To: []usersID{1}}, "Invalid type"},
		{"no recipients", "member", chat.SetTypingStatusParams{Op: "start"}, "Missing 'to' argument"},
		{"an empty list", "member", chat.SetTypingStatusParams{Op: "start", To: []usersID{}}, "Empty 'to' list"},
		{"an unknown user", "member", chat.SetTypingStatusParams{Op: "start", To: []usersID{f.ids["admin"], 999}}, "Invalid user ID 999"},
		{"no channel", "member", chat.SetTypingStatusParams{Type: "channel", Op: "start", Topic: ptr("t")}, "Missing channel ID"},
		{"no topic", "member", chat.SetTypingStatusParams{Type: "stream", Op: "start", StreamID: &c}, "Missing topic"},
		{"a private channel", "member", chat.SetTypingStatusParams{Type: "stream", Op: "start", StreamID: &secret, Topic: ptr("t")}, "Channel with ID '" + fmtInt(int64(secret)) + "' does not exist"},
		{"direct typing turned off", "admin", chat.SetTypingStatusParams{Op: "start", To: []usersID{f.ids["member"]}}, "User has disabled typing notifications for direct messages"},
		{"channel typing turned off", "admin", chat.SetTypingStatusParams{Type: "channel", Op: "start", StreamID: &c, Topic: ptr("t")}, "User has disabled typing notifications for channel messages"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.SetTypingStatus(ctx, f.actor(tt.who), tt.p)
			code := chat.CodeBadRequest
			switch {
			case strings.HasPrefix(tt.msg, "Missing '"):
				code = chat.CodeRequestVariableMissing
			case strings.HasPrefix(tt.msg, "Channel with ID"):
				code = chat.CodeStreamDoesNotExist
			}
			wantError(t, err, code, http.StatusBadRequest, tt.msg)
		})
	}
	if got := typingEvents(t, f, "admin", admin); len(got) != 0 {
		t.Errorf("refused requests sent %v", got)
	}
	_, err := f.svc.SetTypingStatusForMessageEdit(ctx, f.actor("member"), chat.SetTypingStatusForMessageEditParams{MessageID: 999, Op: "start"})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid message(s)")
}

// TestTypingThroughBus: a bus delivers a channel's typing to capable clients only, as the
// in-process path does.
func TestTypingThroughBus(t *testing.T) {
	t.Parallel()
	f := newFixture(t, withBus(newFakeBus()))
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	capable, _ := f.registerWith(t, "admin", chat.ClientCapabilities{StreamTypingNotifications: true})
	legacy, _ := f.registerWith(t, "admin", chat.ClientCapabilities{})
	if _, err := f.svc.SetTypingStatus(ctx, f.actor("member"), chat.SetTypingStatusParams{Type: "channel", Op: "start", StreamID: &c, Topic: ptr("t")}); err != nil {
		t.Fatal(err)
	}
	// A direct message after the typing: once it arrived, so did whatever came before it.
	mustSendDirect(t, f, "member", "hi", "admin")
	for _, q := range []struct {
		queue  string
		typing int
	}{{capable, 1}, {legacy, 0}} {
		evs := eventJSON(t, f.waitEvents(t, "admin", q.queue, q.typing+1))
		n := 0
		for _, e := range evs {
			if e["type"] == "typing" {
				n++
			}
		}
		if n != q.typing {
			t.Errorf("queue %s: %d typing events, want %d (%v)", q.queue, n, q.typing, evs)
		}
	}
}
