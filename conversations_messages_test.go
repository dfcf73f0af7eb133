package chat_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
)

func TestSendMessageToChannelAndFetch(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	memberQ := f.register(t, "member")
	adminQ := f.register(t, "admin")
	guestQ := f.register(t, "guest")
	id := mustSendToChannel(t, f, "member", verona, "party", "hello **world** @**Adam Admin**")

	got, err := f.svc.GetMessage(ctx, f.actor("admin"), chat.GetMessageParams{MessageID: id})
	if err != nil {
		t.Fatal(err)
	}
	if got.RawContent != "hello **world** @**Adam Admin**" || got.Message.Subject != "party" || got.Message.Type != "stream" ||
		got.Message.DisplayRecipient != "Verona" || *got.Message.StreamID != verona || got.Message.ContentType != "text/html" ||
		!strings.Contains(got.Message.Content, "<strong>world</strong>") {
		t.Errorf("GetMessage = %+v", got)
	}
	if diff := cmp.Diff([]string{"mentioned"}, *got.Message.Flags); diff != "" {
		t.Errorf("admin's flags (-want +got):\n%s", diff)
	}

	for _, tt := range []struct {
		who, queue string
		flags      []any
	}{
		{"member", memberQ, []any{"read"}},
		{"admin", adminQ, []any{"mentioned"}},
	} {
		evs := messageEvents(t, f.poll(t, tt.who, tt.queue, -1, true), "message")
		if len(evs) != 1 {
			t.Fatalf("%s: %d message events, want 1", tt.who, len(evs))
		}
		if diff := cmp.Diff(tt.flags, evs[0]["flags"]); diff != "" {
			t.Errorf("%s: flags (-want +got):\n%s", tt.who, diff)
		}
		msg := evs[0]["message"].(map[string]any)
		if msg["id"] != float64(id) || msg["subject"] != "party" || msg["content_type"] != "text/x-markdown" {
			t.Errorf("%s: message = %v", tt.who, msg)
		}
	}
	if evs := messageEvents(t, f.poll(t, "guest", guestQ, -1, true), "message"); len(evs) != 0 {
		t.Errorf("guest (not subscribed) got %v", evs)
	}
	// A public channel's history is readable by non-subscribers who are not guests, through a
	// narrow to the channel (Zulip's ok_to_include_history); the combined feed is only what
	// they received.
	veronaTerm := chat.NarrowTerm{Operator: "channel", Operand: float64(verona)}
	if diff := cmp.Diff([]messages.ID{id}, fetchIDs(t, f, "owner", veronaTerm)); diff != "" {
		t.Errorf("owner sees (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]messages.ID{}, fetchIDs(t, f, "owner")); diff != "" {
		t.Errorf("owner's combined feed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]messages.ID{}, fetchIDs(t, f, "guest")); diff != "" {
		t.Errorf("guest sees (-want +got):\n%s", diff)
	}
	res := fetch(t, f, "owner", chat.GetMessagesParams{Anchor: "newest", NumBefore: 5, Narrow: []chat.NarrowTerm{veronaTerm}})
	if diff := cmp.Diff([]string{"read", "historical"}, *res.Messages[0].Flags); diff != "" {
		t.Errorf("history flags (-want +got):\n%s", diff)
	}
}

func TestPrivateMessagesNeverReachOthers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	secret := mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "member", "admin")
	queues := map[string]string{}
	for _, who := range []string{"owner", "admin", "member", "guest", "bot"} {
		queues[who] = f.register(t, who)
	}
	chanMsg := mustSendToChannel(t, f, "member", secret, "plans", "the password is swordfish")
	dm := mustSendDirect(t, f, "member", "swordfish again", "bot")

	sees := map[string][]messages.ID{
		"owner":  {},
		"admin":  {chanMsg},
		"member": {chanMsg, dm},
		"guest":  {},
		"bot":    {dm},
	}
	for who, want := range sees {
		if diff := cmp.Diff(want, fetchIDs(t, f, who)); diff != "" {
			t.Errorf("%s: GET /messages (-want +got):\n%s", who, diff)
		}
		if diff := cmp.Diff(want, fetchIDs(t, f, who, chat.NarrowTerm{Operator: "search", Operand: "swordfish"})); diff != "" {
			t.Errorf("%s: search (-want +got):\n%s", who, diff)
		}
		evs := messageEvents(t, f.poll(t, who, queues[who], -1, true), "message")
		var got []messages.ID
		for _, e := range evs {
			got = append(got, messages.ID(e["message"].(map[string]any)["id"].(float64)))
		}
		if diff := cmp.Diff(want, got, cmpEmpty); diff != "" {
			t.Errorf("%s: message events (-want +got):\n%s", who, diff)
		}
		for _, id := range []messages.ID{chanMsg, dm} {
			if slices.Contains(want, id) {
				continue
			}
			_, err := f.svc.GetMessage(ctx, f.actor(who), chat.GetMessageParams{MessageID: id})
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid message(s)")
			res := fetch(t, f, who, chat.GetMessagesParams{MessageIDs: []messages.ID{id}})
			if len(res.Messages) != 0 {
				t.Errorf("%s: message_ids=[%d] returned %v", who, id, res.Messages)
			}
		}
	}
	// The owner may know the channel exists (administrators see metadata) but not its content;
	// the guest may not even name it.
	if diff := cmp.Diff([]messages.ID{}, fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(secret)})); diff != "" {
		t.Errorf("owner narrowed to the channel (-want +got):\n%s", diff)
	}
	_, err := f.svc.GetMessages(ctx, f.actor("guest"), chat.GetMessagesParams{Anchor: "newest", NumBefore: 5,
		Narrow: []chat.NarrowTerm{{Operator: "stream", Operand: "secret"}}})
	wantError(t, err, chat.CodeBadNarrow, http.StatusBadRequest, "Invalid narrow operator: unknown channel secret")
	if diff := cmp.Diff([]messages.ID{}, fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "dm", Operand: []any{float64(f.ids["bot"])}})); diff != "" {
		t.Errorf("owner narrowed to the bot's conversation (-want +got):\n%s", diff)
	}
}

func TestGetMessagesAnchors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	var ids []messages.ID
	for i := range 10 {
		ids = append(ids, mustSendToChannel(t, f, "admin", c, "t", "message "+string(rune('a'+i))))
	}
	// The member has read the first four.
	if _, err := f.svc.UpdateMessageFlags(t.Context(), f.actor("member"), chat.UpdateMessageFlagsParams{
		Messages: ids[:4], Op: "add", Flag: "read",
	}); err != nil {
		t.Fatal(err)
	}
	type want struct {
		ids                             []messages.ID
		anchor                          int64
		foundAnchor, foundOld, foundNew bool
	}
	for _, tt := range []struct {
		name string
		p    chat.GetMessagesParams
		want want
	}{
		{"newest", chat.GetMessagesParams{Anchor: "newest", NumBefore: 3, NumAfter: 3},
			want{ids[7:], 10000000000000000, false, false, true}},
		{"oldest", chat.GetMessagesParams{Anchor: "oldest", NumBefore: 3, NumAfter: 3},
			want{ids[:3], 0, false, true, false}},
		{"id in the middle", chat.GetMessagesParams{Anchor: itoa(int64(ids[5])), NumBefore: 2, NumAfter: 2},
			want{ids[3:8], int64(ids[5]), true, false, false}},
		{"id without the anchor", chat.GetMessagesParams{Anchor: itoa(int64(ids[5])), NumBefore: 1, NumAfter: 1, IncludeAnchor: ptr(false)},
			want{[]messages.ID{ids[4], ids[6]}, int64(ids[5]), true, false, false}},
		{"everything", chat.GetMessagesParams{Anchor: itoa(int64(ids[5])), NumBefore: 100, NumAfter: 100},
			want{ids, int64(ids[5]), true, true, true}},
		{"first unread", chat.GetMessagesParams{Anchor: "first_unread", NumBefore: 1, NumAfter: 1},
			want{ids[3:6], int64(ids[4]), true, false, false}},
		{"first unread in a narrow with none", chat.GetMessagesParams{Anchor: "first_unread", NumBefore: 2, NumAfter: 2,
			Narrow: []chat.NarrowTerm{{Operator: "topic", Operand: "nothing here"}}},
			want{[]messages.ID{}, 10000000000000000, false, true, true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := fetch(t, f, "member", tt.p)
			got := want{recordIDs(res.Messages), *res.Anchor, *res.FoundAnchor, *res.FoundOldest, *res.FoundNewest}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(want{}), cmpEmpty); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	_, err := f.svc.GetMessages(t.Context(), f.actor("member"), chat.GetMessagesParams{Anchor: "newest", NumBefore: 4000, NumAfter: 1001})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Too many messages requested (maximum 5000).")
	_, err = f.svc.GetMessages(t.Context(), f.actor("member"), chat.GetMessagesParams{NumBefore: 1})
	wantError(t, err, chat.CodeRequestVariableMissing, http.StatusBadRequest, "Missing 'anchor' argument")
}

func TestGetMessagesNarrows(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	denmark := mustChannel(t, f, "Denmark", chat.NewChannelSettings{}, "member", "admin")
	a := mustSendToChannel(t, f, "admin", verona, "Party", "cake for everyone")
	b := mustSendToChannel(t, f, "member", verona, "lunch", "pizza today")
	c := mustSendToChannel(t, f, "admin", denmark, "party", "more cake")
	d := mustSendDirect(t, f, "admin", "private cake", "member")
	e := mustSendDirect(t, f, "owner", "group hello", "member", "admin")
	if _, err := f.svc.UpdateMessageFlags(t.Context(), f.actor("member"), chat.UpdateMessageFlagsParams{
		Messages: []messages.ID{a, d}, Op: "add", Flag: "starred",
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.UpdateMessageFlags(t.Context(), f.actor("member"), chat.UpdateMessageFlagsParams{
		Messages: []messages.ID{a, c}, Op: "add", Flag: "read",
	}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		narrow []chat.NarrowTerm
		want   []messages.ID
	}{
		{"channel by name", []chat.NarrowTerm{{Operator: "channel", Operand: "verona"}}, []messages.ID{a, b}},
		{"stream by id", []chat.NarrowTerm{{Operator: "stream", Operand: float64(denmark)}}, []messages.ID{c}},
		{"topic, case-insensitive", []chat.NarrowTerm{{Operator: "topic", Operand: "PARTY"}}, []messages.ID{a, c}},
		{"channel and topic", []chat.NarrowTerm{{Operator: "channel", Operand: "Verona"}, {Operator: "topic", Operand: "party"}}, []messages.ID{a}},
		{"sender by email", []chat.NarrowTerm{{Operator: "sender", Operand: "admin@example.com"}}, []messages.ID{a, c, d}},
		{"sender by id, negated", []chat.NarrowTerm{{Operator: "sender", Operand: float64(f.ids["admin"]), Negated: true}}, []messages.ID{b, e}},
		{"one-to-one dm", []chat.NarrowTerm{{Operator: "dm", Operand: []any{float64(f.ids["admin"])}}}, []messages.ID{d}},
		{"group dm by emails", []chat.NarrowTerm{{Operator: "dm", Operand: "owner@example.com,admin@example.com"}}, []messages.ID{e}},
		{"dm-including", []chat.NarrowTerm{{Operator: "dm-including", Operand: float64(f.ids["owner"])}}, []messages.ID{e}},
		{"is:dm", []chat.NarrowTerm{{Operator: "is", Operand: "private"}}, []messages.ID{d, e}},
		{"search", []chat.NarrowTerm{{Operator: "search", Operand: "CAKE"}}, []messages.ID{a, c, d}},
		{"search in topics", []chat.NarrowTerm{{Operator: "search", Operand: "lunch"}}, []messages.ID{b}},
		{"is:starred", []chat.NarrowTerm{{Operator: "is", Operand: "starred"}}, []messages.ID{a, d}},
		{"is:unread", []chat.NarrowTerm{{Operator: "is", Operand: "unread"}}, []messages.ID{d, e}},
		{"not unread", []chat.NarrowTerm{{Operator: "is", Operand: "unread", Negated: true}}, []messages.ID{a, b, c}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, fetchIDs(t, f, "member", tt.narrow...)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, tt := range []struct {
		narrow chat.NarrowTerm
		msg    string
	}{
		{chat.NarrowTerm{Operator: "bogus", Operand: "x"}, "Invalid narrow operator: unknown operator bogus"},
		{chat.NarrowTerm{Operator: "channel", Operand: "nowhere"}, "Invalid narrow operator: unknown channel nowhere"},
		{chat.NarrowTerm{Operator: "sender", Operand: "nobody@example.com"}, "Invalid narrow operator: unknown user nobody@example.com"},
		{chat.NarrowTerm{Operator: "is", Operand: "bogus"}, "Invalid narrow operator: unknown 'is' operand bogus"},
	} {
		_, err := f.svc.GetMessages(t.Context(), f.actor("member"), chat.GetMessagesParams{Anchor: "newest", NumBefore: 5, Narrow: []chat.NarrowTerm{tt.narrow}})
		wantError(t, err, chat.CodeBadNarrow, http.StatusBadRequest, tt.msg)
	}
}

func TestSendMessageRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member")
	strict := mustChannel(t, f, "strict", chat.NewChannelSettings{TopicsPolicy: ptr("disable_empty_topic")}, "member")
	only := mustChannel(t, f, "only", chat.NewChannelSettings{TopicsPolicy: ptr("empty_topic_only")}, "member")
	secret := mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "admin")
	f.setUser(t, "webhook", func(u *usersUser) { u.IsActive = false })
	unknown := channels.ID(9999)
	empty := ""
	topic := "t"
	before := f.messageCount(t)
	for _, tt := range []struct {
		name string
		who  string
		p    chat.SendMessageParams
		code chat.Code
		msg  string
	}{
		{"bad type", "member", chat.SendMessageParams{Type: "huddle", Content: "x"}, chat.CodeBadRequest, "Invalid message type"},
		{"empty content", "member", chat.SendMessageParams{Type: "stream", ChannelID: &verona, Content: " \n "}, chat.CodeBadRequest, "Message must not be empty"},
		{"null byte", "member", chat.SendMessageParams{Type: "stream", ChannelID: &verona, Content: "a\x00b"}, chat.CodeBadRequest, "Message must not contain null bytes"},
		{"unknown channel id", "member", chat.SendMessageParams{Type: "stream", ChannelID: &unknown, Content: "x"}, chat.CodeStreamDoesNotExist, "Channel with ID '9999' does not exist"},
		{"unknown channel name", "member", chat.SendMessageParams{Type: "stream", ChannelName: "Nowhere", Content: "x"}, chat.CodeStreamDoesNotExist, "Channel 'Nowhere' does not exist"},
		{"private channel of others", "member", chat.SendMessageParams{Type: "stream", ChannelID: &secret, Content: "x"}, chat.CodeStreamDoesNotExist, ""},
		{"admin not subscribed to a private channel", "owner", chat.SendMessageParams{Type: "stream", ChannelID: &secret, Content: "x"}, chat.CodeBadRequest, "Not authorized to send to channel 'secret'"},
		{"guest to a public channel they cannot see", "guest", chat.SendMessageParams{Type: "stream", ChannelID: &verona, Content: "x"}, chat.CodeStreamDoesNotExist, ""},
		{"empty topic where disabled", "member", chat.SendMessageParams{Type: "stream", ChannelID: &strict, Topic: &empty, Content: "x"}, chat.CodeBadRequest, "Topics are required in this organization."},
		{"general chat where disabled", "member", chat.SendMessageParams{Type: "stream", ChannelID: &strict, Topic: ptr("general chat"), Content: "x"}, chat.CodeBadRequest, "Topics are required in this organization."},
		{"topic where only the empty one is allowed", "member", chat.SendMessageParams{Type: "stream", ChannelID: &only, Topic: &topic, Content: "x"}, chat.CodeBadRequest, "Only the general chat topic is allowed in this channel."},
		{"topic with a null byte", "member", chat.SendMessageParams{Type: "stream", ChannelID: &verona, Topic: ptr("a\x00"), Content: "x"}, chat.CodeBadRequest, "Invalid topic: Topic must not contain null bytes"},
		{"topic with control characters", "member", chat.SendMessageParams{Type: "stream", ChannelID: &verona, Topic: ptr("Test\n\rTopic"), Content: "x"}, chat.CodeBadRequest, "Invalid character in topic, at position 5!"},
		{"topic with an unassigned code point", "member", chat.SendMessageParams{Type: "stream", ChannelID: &verona, Topic: ptr("Test\ufffeTopic"), Content: "x"}, chat.CodeBadRequest, "Invalid character in topic, at position 5!"},
		{"dm to nobody", "member", chat.SendMessageParams{Type: "direct", Content: "x"}, chat.CodeBadRequest, "Message must have recipients"},
		{"dm to an unknown id", "member", chat.SendMessageParams{Type: "direct", UserIDs: []usersID{9999}, Content: "x"}, chat.CodeBadRequest, "Invalid user ID 9999"},
		{"dm to an unknown email", "member", chat.SendMessageParams{Type: "private", Emails: []string{"x@nowhere"}, Content: "x"}, chat.CodeBadRequest, "Invalid email 'x@nowhere'"},
		{"dm to a deactivated user", "member", chat.SendMessageParams{Type: "direct", Emails: []string{"webhook@example.com"}, Content: "x"}, chat.CodeBadRequest, "'webhook@example.com' is no longer using Zulip."},
	} {
		_, err := f.svc.SendMessage(t.Context(), f.actor(tt.who), tt.p)
		wantError(t, err, tt.code, http.StatusBadRequest, tt.msg)
		if n := f.messageCount(t); n != before {
			t.Fatalf("%s: %d messages after a refusal, want %d", tt.name, n, before)
		}
	}
}

func TestSendMessageNormalises(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member")
	long := strings.Repeat("x", 70)
	id1 := mustSendToChannel(t, f, "member", verona, "  "+long+"  ", strings.Repeat("é", messages.MaxContentLength+5))
	id2 := mustSendToChannel(t, f, "member", verona, "general chat", "\n\nhello  \n")
	res := fetch(t, f, "member", chat.GetMessagesParams{Anchor: "oldest", NumAfter: 5, ApplyMarkdown: ptr(false), AllowEmptyTopicName: true})
	if got := res.Messages[0]; got.ID != id1 || got.Subject != strings.Repeat("x", 57)+"..." ||
		!strings.HasSuffix(got.Content, "\n[message truncated]") || len([]rune(got.Content)) != messages.MaxContentLength {
		t.Errorf("long message: subject %q, content ends %q (%d code points)", got.Subject, got.Content[len(got.Content)-30:], len([]rune(got.Content)))
	}
	if got := res.Messages[1]; got.ID != id2 || got.Subject != "" || got.Content != "hello" {
		t.Errorf("general chat message: subject %q content %q", got.Subject, got.Content)
	}
	// Clients that do not know the empty topic see its display name.
	res = fetch(t, f, "member", chat.GetMessagesParams{Anchor: itoa(int64(id2)), NumBefore: 0, NumAfter: 0})
	if got := res.Messages[0].Subject; got != "general chat" {
		t.Errorf("subject for old clients = %q, want general chat", got)
	}
}

// TestMessageEventsThroughBus: message events reach queues of every register profile in the
// same form through a bus as in one process.
func TestMessageEventsThroughBus(t *testing.T) {
	t.Parallel()
	local, viaBus := newFixture(t), newFixture(t, withBus(newFakeBus()))
	ctx := t.Context()
	profiles := []chat.RegisterQueueParams{
		{EventTypes: []string{"message", "update_message_flags"}},
		{EventTypes: []string{"message", "update_message_flags"}, ApplyMarkdown: true, ClientGravatar: ptr(false)},
		{EventTypes: []string{"message", "update_message_flags"}, ClientCapabilities: chat.ClientCapabilities{EmptyTopicName: true}},
	}
	var got [2][][]map[string]any
	for i, f := range []*fixture{local, viaBus} {
		c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
		var queues []string
		for _, p := range profiles {
			res, err := f.svc.RegisterQueue(ctx, f.actor("member"), p)
			if err != nil {
				t.Fatal(err)
			}
			queues = append(queues, *res.QueueID)
		}
		id := mustSendToChannel(t, f, "admin", c, "", "*hi*")
		mustDo(t, "UpdateMessageFlags", errOf(f.svc.UpdateMessageFlags(ctx, f.actor("member"), chat.UpdateMessageFlagsParams{Messages: []messages.ID{id}, Op: "add", Flag: "read"})))
		mustDo(t, "UpdateMessageFlags", errOf(f.svc.UpdateMessageFlags(ctx, f.actor("member"), chat.UpdateMessageFlagsParams{Messages: []messages.ID{id}, Op: "remove", Flag: "read"})))
		for _, q := range queues {
			if i == 0 {
				got[i] = append(got[i], eventJSON(t, nonHeartbeats(f.poll(t, "member", q, -1, true))))
			} else {
				got[i] = append(got[i], eventJSON(t, f.waitEvents(t, "member", q, 3)))
			}
		}
	}
	for j := range profiles {
		for _, evs := range [][]map[string]any{got[0][j], got[1][j]} {
			for _, e := range evs {
				delete(e, "id")
			}
		}
		if diff := cmp.Diff(got[0][j], got[1][j]); diff != "" {
			t.Errorf("profile %d: bus events differ from in-process ones (-local +bus):\n%s", j, diff)
		}
	}
	if subject := got[0][0][0]["message"].(map[string]any)["subject"]; subject != "general chat" {
		t.Errorf("subject for a client without empty_topic_name = %v", subject)
	}
	if subject := got[0][2][0]["message"].(map[string]any)["subject"]; subject != "" {
		t.Errorf("subject for a client with empty_topic_name = %v", subject)
	}
}
