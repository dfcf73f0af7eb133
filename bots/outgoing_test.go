package bots

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/users"
)

func TestResponseContent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		iface   int
		body    string
		want    string
		wantErr string
	}{
		{"content", users.ServiceInterfaceGeneric, `{"content": "Hello"}`, "Hello", ""},
		{"response_not_required wins", users.ServiceInterfaceGeneric, `{"response_not_required": true, "content": "x"}`, "", ""},
		{"response_not_required false", users.ServiceInterfaceGeneric, `{"response_not_required": false, "content": "x"}`, "x", ""},
		{"deprecated response_string first", users.ServiceInterfaceGeneric, `{"response_string": "old", "content": "new"}`, "old", ""},
		{"blank content posts nothing", users.ServiceInterfaceGeneric, `{"content": "  \n"}`, "", ""},
		{"no content", users.ServiceInterfaceGeneric, `{"other": 1}`, "", ""},
		{"number content", users.ServiceInterfaceGeneric, `{"content": 42}`, "42", ""},
		{"old botserver empty string", users.ServiceInterfaceGeneric, `""`, "", ""},
		{"not JSON", users.ServiceInterfaceGeneric, `<html>`, "", "Invalid JSON in response"},
		{"not an object", users.ServiceInterfaceGeneric, `[1, 2]`, "", "Invalid response format"},
		{"slack text", users.ServiceInterfaceSlack, `{"text": "Hi"}`, "Hi", ""},
		{"slack ignores content", users.ServiceInterfaceSlack, `{"content": "Hi"}`, "", ""},
	}
	for _, tt := range tests {
		got, _, err := responseContent(tt.iface, []byte(tt.body))
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tt.want || gotErr != tt.wantErr {
			t.Errorf("%s: responseContent(%s) = %q, %q; want %q, %q", tt.name, tt.body, got, gotErr, tt.want, tt.wantErr)
		}
	}
}

func TestResponseReactions(t *testing.T) {
	t.Parallel()
	code, typ := "1f44d", "unicode_emoji"
	tests := []struct {
		name, body string
		content    string
		want       []Reaction
	}{
		{"content and reactions", `{"content": "hi", "reactions": [{"emoji_name": "thumbs_up", "emoji_code": "1f44d", "reaction_type": "unicode_emoji"}]}`,
			"hi", []Reaction{{EmojiName: "thumbs_up", EmojiCode: &code, ReactionType: &typ}}},
		{"reactions alone", `{"reactions": [{"emoji_name": "tada"}, {}]}`, "", []Reaction{{EmojiName: "tada"}, {}}},
		{"not a list", `{"reactions": "tada"}`, "", nil},
		{"response_string ignores them", `{"response_string": "x", "reactions": [{"emoji_name": "tada"}]}`, "x", nil},
		{"response_not_required ignores them", `{"response_not_required": true, "reactions": [{"emoji_name": "tada"}]}`, "", nil},
	}
	for _, tt := range tests {
		content, got, err := responseContent(users.ServiceInterfaceGeneric, []byte(tt.body))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.want, got); content != tt.content || diff != "" {
			t.Errorf("%s: content %q (want %q), reactions (-want +got):\n%s", tt.name, content, tt.content, diff)
		}
	}
}

func TestPyRepr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		asBytes bool
		want    string
	}{
		{`{"error": "x"}`, true, `b'{"error": "x"}'`},
		{"it's", true, `b"it's"`},
		{`it's "q"`, false, `'it\'s "q"'`},
		{"a\nb\tc\\", true, `b'a\nb\tc\\'`},
		{"caf\u00e9", true, `b'caf\xc3\xa9'`},
		{"caf\u00e9", false, `'café'`},
		{"\x01", false, `'\x01'`},
		{"", true, `b''`},
	}
	for _, tt := range tests {
		if got := pyRepr(tt.in, tt.asBytes); got != tt.want {
			t.Errorf("pyRepr(%q, %v) = %s, want %s", tt.in, tt.asBytes, got, tt.want)
		}
	}
}

func TestSlackForm(t *testing.T) {
	t.Parallel()
	c := webhookCall{
		bot:     users.User{ID: 25},
		service: users.BotService{Token: "tok", Interface: users.ServiceInterfaceSlack},
		trigger: TriggerMention,
		msg: Message{ID: 112, Type: "stream", Content: "@**Bot** hi & bye", SenderID: 5, SenderEmail: "iago@Zulip.com",
			SenderFullName: "Iago", SenderRealmStr: "zulip", StreamID: 5, ChannelName: "Verona", Timestamp: 1527876931},
	}
	want := "token=tok&team_id=zulip&team_domain=zulip.com&channel_id=5&channel_name=Verona&timestamp=1527876931" +
		"&user_id=5&user_name=Iago&text=%40%2A%2ABot%2A%2A+hi+%26+bye&trigger_word=mention&service_id=25"
	if diff := cmp.Diff(want, string(slackForm(c))); diff != "" {
		t.Errorf("slackForm (-want +got):\n%s", diff)
	}
}

func TestTriggers(t *testing.T) {
	t.Parallel()
	people := map[users.ID]users.User{
		1: {ID: 1, IsActive: true},
		2: {ID: 2, IsActive: true, BotType: users.BotOutgoingWebhook},
		3: {ID: 3, IsActive: true, BotType: users.BotEmbedded},
		4: {ID: 4, IsActive: false, BotType: users.BotOutgoingWebhook},
		5: {ID: 5, IsActive: true, BotType: users.BotGeneric},
	}
	lookup := func(id users.ID) (users.User, bool) { u, ok := people[id]; return u, ok }
	tests := []struct {
		name       string
		sender     users.ID
		direct     bool
		recipients []users.ID
		mentioned  []users.ID
		want       []Triggered
	}{
		{"mention in a channel", 1, false, []users.ID{1}, []users.ID{2, 3, 4, 5, 9}, []Triggered{{2, TriggerMention}, {3, TriggerMention}}},
		{"subscribed but not mentioned", 1, false, []users.ID{1, 2, 3}, nil, nil},
		{"direct message", 1, true, []users.ID{1, 2, 4}, []users.ID{3}, []Triggered{{2, TriggerDirectMessage}}},
		{"a bot's message triggers nothing", 5, true, []users.ID{2, 5}, nil, nil},
		{"a service bot's own message", 2, false, []users.ID{2}, []users.ID{2, 3}, nil},
		{"mentioned twice", 1, false, nil, []users.ID{2, 2}, []Triggered{{2, TriggerMention}}},
	}
	for _, tt := range tests {
		got := Triggers(people[tt.sender], tt.direct, tt.recipients, tt.mentioned, lookup)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: Triggers (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestDecodeMessage(t *testing.T) {
	t.Parallel()
	stream, err := DecodeMessage(`{"id": 7, "type": "stream", "stream_id": 3, "display_recipient": "Verona", "subject": "a b"}`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Destination{ChannelID: 3, Topic: "a b"}, stream.Where()); diff != "" {
		t.Errorf("Where (-want +got):\n%s", diff)
	}
	if got, want := stream.URL("https://chat.example.com/"), "https://chat.example.com/#narrow/channel/3-Verona/topic/a.20b/near/7"; got != want {
		t.Errorf("URL = %s, want %s", got, want)
	}
	dm, err := DecodeMessage(`{"id": 8, "type": "private", "display_recipient": [{"id": 1, "email": "a@x"}, {"id": 4, "email": "b@x"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Destination{UserIDs: []users.ID{1, 4}}, dm.Where()); diff != "" {
		t.Errorf("Where (-want +got):\n%s", diff)
	}
	if got, want := dm.URL("https://chat.example.com"), "https://chat.example.com/#narrow/dm/1,4/near/8"; got != want {
		t.Errorf("URL = %s, want %s", got, want)
	}
	for _, bad := range []string{`{`, `{"type": "private", "display_recipient": "x"}`, `{"type": "stream", "display_recipient": []}`} {
		if _, err := DecodeMessage(bad); err == nil {
			t.Errorf("DecodeMessage(%s): no error", bad)
		}
	}
}

func TestWithoutMention(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"@**Echo** hello", "hello"},
		{"@_**Echo**\n hello", "hello"},
		{"hello @**Echo**", "hello @**Echo**"},
		{"@**Echoes** hi", "@**Echoes** hi"},
	}
	for _, tt := range tests {
		if got := withoutMention(tt.in, "Echo"); got != tt.want {
			t.Errorf("withoutMention(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzResponseContent: a webhook's response is untrusted input; reading it never panics and
// gives either content or one of Zulip's two errors.
func FuzzResponseContent(f *testing.F) {
	for _, s := range []string{`{"content": "x"}`, `""`, `[]`, `{"response_not_required": 1}`, `{"text": {"a": 1}}`, "\xff", "1E1000", `{"response_not_required": 1E1000, "content": "x"}`, "1 2"} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, body string, slack bool) {
		iface := users.ServiceInterfaceGeneric
		if slack {
			iface = users.ServiceInterfaceSlack
		}
		got, reactions, err := responseContent(iface, []byte(body))
		if err != nil {
			msg := err.Error()
			if msg != "Invalid JSON in response" && msg != "Invalid response format" {
				t.Fatalf("responseContent(%q): unexpected error %q", body, msg)
			}
			if json.Valid([]byte(body)) && msg == "Invalid JSON in response" {
				t.Fatalf("responseContent(%q): valid JSON called invalid", body)
			}
			return
		}
		if len(reactions) > maxReactions {
			t.Fatalf("responseContent(%q): %d reactions, more than %d", body, len(reactions), maxReactions)
		}
		_ = pyRepr(got, false)
		_ = pyRepr(body, true)
	})
}

// FuzzDecodeMessage: the recorded message is read back by the worker; a damaged one is an
// error, never a panic.
func FuzzDecodeMessage(f *testing.F) {
	f.Add(`{"id": 8, "type": "private", "display_recipient": [{"id": 1, "email": "a@x"}]}`)
	f.Add(`{"id": 7, "type": "stream", "stream_id": 3, "display_recipient": "Verona", "subject": "a b"}`)
	f.Fuzz(func(t *testing.T, data string) {
		m, err := DecodeMessage(data)
		if err != nil {
			return
		}
		_ = m.URL("https://x")
		_ = m.Where()
	})
}
