package chat_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/users"
)

func (f *fixture) mustLinkifiers(t *testing.T) []chat.LinkifierRecord {
	t.Helper()
	res, err := f.svc.GetLinkifiers(t.Context(), f.actor("member"), chat.GetLinkifiersParams{})
	if err != nil {
		t.Fatalf("GetLinkifiers: %v", err)
	}
	return res.Linkifiers
}

func (f *fixture) mustAddLinkifier(t *testing.T, p chat.AddLinkifierParams) linkifiers.ID {
	t.Helper()
	res, err := f.svc.AddLinkifier(t.Context(), f.actor("admin"), p)
	if err != nil {
		t.Fatalf("AddLinkifier: %v", err)
	}
	return res.ID
}

// registerWith registers a queue for name with the given capabilities.
func (f *fixture) registerWith(t *testing.T, name string, caps chat.ClientCapabilities) (string, chat.RegisterQueueResult) {
	t.Helper()
	res, err := f.svc.RegisterQueue(t.Context(), f.actor(name), chat.RegisterQueueParams{ClientCapabilities: caps})
	if err != nil {
		t.Fatal(err)
	}
	return *res.QueueID, res
}

func TestLinkifiersLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	modern, _ := f.registerWith(t, "member", chat.ClientCapabilities{LinkifierURLTemplate: true})
	legacy, _ := f.registerWith(t, "guest", chat.ClientCapabilities{})

	a := f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: ` #(?P<id>[0-9]+) `, URLTemplate: "https://github.com/zulip/zulip/issues/{id}"})
	b := f.mustAddLinkifier(t, chat.AddLinkifierParams{
		Pattern: `RFC(?P<n>\d+)`, URLTemplate: "https://rfc.example/{n}", ExampleInput: ptr("RFC6570"), ReverseTemplate: ptr("RFC{n}"),
		AlternativeURLTemplates: []string{"https://www.rfc-editor.example/rfc/rfc{n}"},
	})
	if _, err := f.svc.UpdateLinkifier(ctx, f.actor("owner"), chat.UpdateLinkifierParams{FilterID: a, AddLinkifierParams: chat.AddLinkifierParams{
		Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://github.com/zulip/zulip/pull/{id}", ExampleInput: ptr(""), ReverseTemplate: ptr(""),
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ReorderLinkifiers(ctx, f.actor("admin"), chat.ReorderLinkifiersParams{OrderedLinkifierIDs: []linkifiers.ID{b, a}}); err != nil {
		t.Fatal(err)
	}
	want := []chat.LinkifierRecord{
		{ID: b, Pattern: `RFC(?P<n>\d+)`, URLTemplate: "https://rfc.example/{n}", ExampleInput: ptr("RFC6570"), ReverseTemplate: ptr("RFC{n}"),
			AlternativeURLTemplates: []string{"https://www.rfc-editor.example/rfc/rfc{n}"}},
		{ID: a, Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://github.com/zulip/zulip/pull/{id}", AlternativeURLTemplates: []string{}},
	}
	if diff := cmp.Diff(want, f.mustLinkifiers(t)); diff != "" {
		t.Fatalf("GetLinkifiers (-want +got):\n%s", diff)
	}
	if _, err := f.svc.RemoveLinkifier(ctx, f.actor("admin"), chat.RemoveLinkifierParams{FilterID: b}); err != nil {
		t.Fatal(err)
	}

	got := wireEvents(t, f.poll(t, "member", modern, -1, true))
	if len(got) != 10 {
		t.Fatalf("modern client got %d events, want 5 realm_linkifiers + 5 realm_filters: %v", len(got), got)
	}
	wantLast := fmt.Sprintf(`{"type":"realm_linkifiers","realm_linkifiers":[{"id":%d,"pattern":"#(?P\u003cid\u003e[0-9]+)","url_template":"https://github.com/zulip/zulip/pull/{id}","example_input":null,"reverse_template":null,"alternative_url_templates":[]}],"id":8}`, a)
	if got[8] != wantLast {
		t.Errorf("last realm_linkifiers event\n got %s\nwant %s", got[8], wantLast)
	}
	if got[9] != `{"type":"realm_filters","realm_filters":[],"id":9}` {
		t.Errorf("realm_filters event = %s", got[9])
	}
	legacyEvents := f.poll(t, "guest", legacy, -1, true)
	if len(legacyEvents) != 5 {
		t.Errorf("client without linkifier_url_template got %d events, want 5 realm_filters", len(legacyEvents))
	}
	for _, e := range legacyEvents {
		if e.Type != "realm_filters" {
			t.Errorf("client without linkifier_url_template got %v", wireEvents(t, []chat.Event{e}))
		}
	}

	// Register: realm_linkifiers only with the capability; realm_filters always empty.
	_, res := f.registerWith(t, "member", chat.ClientCapabilities{LinkifierURLTemplate: true})
	if res.DraftsState == nil || res.DraftsState.RealmLinkifiers == nil || len(*res.DraftsState.RealmLinkifiers) != 1 ||
		res.DraftsState.RealmFilters == nil || len(*res.DraftsState.RealmFilters) != 0 {
		t.Errorf("register with the capability: %+v", res.DraftsState)
	}
	_, res = f.registerWith(t, "member", chat.ClientCapabilities{})
	if res.DraftsState == nil || res.DraftsState.RealmLinkifiers == nil || len(*res.DraftsState.RealmLinkifiers) != 0 {
		t.Errorf("register without the capability: %+v", res.DraftsState)
	}
}

func TestLinkifiersRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	a := f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://x/{id}"})
	b := f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: `T(?P<id>[0-9]+)`, URLTemplate: "https://t/{id}"})
	q, _ := f.registerWith(t, "member", chat.ClientCapabilities{LinkifierURLTemplate: true})
	before := f.mustLinkifiers(t)
	add := func(actor string, p chat.AddLinkifierParams) func() error {
		return func() error { _, err := f.svc.AddLinkifier(ctx, f.actor(actor), p); return err }
	}
	update := func(id linkifiers.ID, p chat.AddLinkifierParams) func() error {
		return func() error {
			_, err := f.svc.UpdateLinkifier(ctx, f.actor("admin"), chat.UpdateLinkifierParams{FilterID: id, AddLinkifierParams: p})
			return err
		}
	}
	reorder := func(ids ...linkifiers.ID) func() error {
		return func() error {
			_, err := f.svc.ReorderLinkifiers(ctx, f.actor("admin"), chat.ReorderLinkifiersParams{OrderedLinkifierIDs: ids})
			return err
		}
	}
	tests := []struct {
		name   string
		call   func() error
		code   chat.Code
		msg    string
		errors map[string][]string
	}{
		{"member may not add", add("member", chat.AddLinkifierParams{Pattern: "x", URLTemplate: "https://x"}), chat.CodeUnauthorizedPrincipal, "Must be an organization administrator", nil},
		{"moderator-free guest may not remove", func() error {
			_, err := f.svc.RemoveLinkifier(ctx, f.actor("guest"), chat.RemoveLinkifierParams{FilterID: a})
			return err
		}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator", nil},
		{"bad pattern", add("admin", chat.AddLinkifierParams{Pattern: "(foo", URLTemplate: "https://x"}), chat.CodeBadRequest,
			"Bad regular expression: missing closing ): (foo", map[string][]string{"pattern": {"Bad regular expression: missing closing ): (foo"}}},
		{"bad template", add("admin", chat.AddLinkifierParams{Pattern: `(?P<id>\d)`, URLTemplate: "https://x/{id"}), chat.CodeBadRequest,
			"Invalid URL template.", map[string][]string{"url_template": {"Invalid URL template."}}},
		{"group mismatch", add("admin", chat.AddLinkifierParams{Pattern: `(?P<id>\d)`, URLTemplate: "https://x/{hello}"}), chat.CodeBadRequest,
			"Group 'hello' in URL template is not present in linkifier pattern.", map[string][]string{"__all__": {"Group 'hello' in URL template is not present in linkifier pattern."}}},
		{"reverse does not reproduce", add("admin", chat.AddLinkifierParams{Pattern: `X(?P<id>\d)`, URLTemplate: "https://x/{id}", ExampleInput: ptr("X1"), ReverseTemplate: ptr("Y{id}")}), chat.CodeBadRequest,
			"Reverse template output 'Y1' does not match the example input 'X1'.", nil},
		{"duplicate pattern", add("admin", chat.AddLinkifierParams{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://other/{id}"}), chat.CodeBadRequest,
			"Realm filter with this Realm and Pattern already exists.", nil},
		{"update onto a duplicate pattern", update(b, chat.AddLinkifierParams{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://t/{id}"}), chat.CodeBadRequest,
			"Realm filter with this Realm and Pattern already exists.", nil},
		{"update unknown", update(999, chat.AddLinkifierParams{Pattern: "z", URLTemplate: "https://z"}), chat.CodeBadRequest, "Linkifier not found.", nil},
		{"invalid update", update(a, chat.AddLinkifierParams{Pattern: "", URLTemplate: "https://z"}), chat.CodeBadRequest, "This field cannot be blank.", nil},
		{"remove unknown", func() error {
			_, err := f.svc.RemoveLinkifier(ctx, f.actor("admin"), chat.RemoveLinkifierParams{FilterID: 999})
			return err
		}, chat.CodeBadRequest, "Linkifier not found.", nil},
		{"reorder missing one", reorder(a), chat.CodeBadRequest, "The ordered list must enumerate all existing linkifiers exactly once", nil},
		{"reorder with a duplicate", reorder(a, a), chat.CodeBadRequest, "The ordered list must enumerate all existing linkifiers exactly once", nil},
		{"reorder with an unknown", reorder(a, b, 999), chat.CodeBadRequest, "The ordered list must enumerate all existing linkifiers exactly once", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := wantError(t, tt.call(), tt.code, 400, tt.msg)
			if tt.errors != nil {
				if diff := cmp.Diff(tt.errors, e.Extra["errors"]); diff != "" {
					t.Errorf("errors (-want +got):\n%s", diff)
				}
			}
			if diff := cmp.Diff(before, f.mustLinkifiers(t)); diff != "" {
				t.Errorf("linkifiers changed (-before +after):\n%s", diff)
			}
			if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
				t.Errorf("events after a refusal: %v", wireEvents(t, evs))
			}
		})
	}
}

func TestCodePlaygrounds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "guest")
	res, err := f.svc.AddCodePlayground(ctx, f.actor("admin"), chat.AddCodePlaygroundParams{
		Name: "Python playground", HighlighterLanguage: "Python", URLTemplate: "https://python.example.com?code={code}",
	})
	if err != nil {
		t.Fatal(err)
	}
	got := wireEvents(t, f.poll(t, "guest", q, -1, true))
	want := []string{fmt.Sprintf(`{"type":"realm_playgrounds","realm_playgrounds":[{"id":%d,"name":"Python playground","pygments_language":"Python","highlighter_language":"Python","url_template":"https://python.example.com?code={code}"}],"id":0}`, res.ID)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	state := func() []chat.PlaygroundRecord {
		r, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"realm_playgrounds"}})
		if err != nil {
			t.Fatal(err)
		}
		return *r.DraftsState.RealmPlaygrounds
	}
	before := state()
	if len(before) != 1 || before[0].ID != res.ID {
		t.Fatalf("register realm_playgrounds = %+v", before)
	}
	for _, tt := range []struct {
		name  string
		actor string
		p     chat.AddCodePlaygroundParams
		code  chat.Code
		msg   string
	}{
		{"member", "member", chat.AddCodePlaygroundParams{Name: "P", HighlighterLanguage: "Go", URLTemplate: "https://x?{code}"}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"duplicate", "admin", chat.AddCodePlaygroundParams{Name: "Python playground", HighlighterLanguage: "Python", URLTemplate: "https://y?{code}"}, chat.CodeBadRequest,
			"Realm playground with this Realm, Pygments language and Name already exists."},
		{"no code variable", "admin", chat.AddCodePlaygroundParams{Name: "P", HighlighterLanguage: "Go", URLTemplate: "https://x"}, chat.CodeBadRequest, `Missing the required variable "code" in the URL template`},
		{"extra variable", "admin", chat.AddCodePlaygroundParams{Name: "P", HighlighterLanguage: "Go", URLTemplate: "https://x/{v}?{code}"}, chat.CodeBadRequest, `"code" should be the only variable present in the URL template`},
		{"bad language", "admin", chat.AddCodePlaygroundParams{Name: "P", HighlighterLanguage: "Go!", URLTemplate: "https://x?{code}"}, chat.CodeBadRequest, "Invalid characters in pygments language"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.AddCodePlayground(ctx, f.actor(tt.actor), tt.p)
			wantError(t, err, tt.code, 400, tt.msg)
			if diff := cmp.Diff(before, state()); diff != "" {
				t.Errorf("playgrounds changed (-before +after):\n%s", diff)
			}
		})
	}
	_, err = f.svc.RemoveCodePlayground(ctx, f.actor("member"), chat.RemoveCodePlaygroundParams{PlaygroundID: res.ID})
	wantError(t, err, chat.CodeUnauthorizedPrincipal, 400, "Must be an organization administrator")
	_, err = f.svc.RemoveCodePlayground(ctx, f.actor("admin"), chat.RemoveCodePlaygroundParams{PlaygroundID: res.ID + 5})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid playground")
	if evs := f.poll(t, "guest", q, 0, true); len(evs) != 0 {
		t.Errorf("events after refusals: %v", wireEvents(t, evs))
	}
	if _, err := f.svc.RemoveCodePlayground(ctx, f.actor("admin"), chat.RemoveCodePlaygroundParams{PlaygroundID: res.ID}); err != nil {
		t.Fatal(err)
	}
	if got := wireEvents(t, f.poll(t, "guest", q, 0, true)); len(got) != 1 || got[0] != `{"type":"realm_playgrounds","realm_playgrounds":[],"id":1}` {
		t.Errorf("remove events = %v", got)
	}
}

func TestLinkifiersRender(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://github.com/zulip/zulip/issues/{id}"})
	ch, err := f.svc.CreateChannel(ctx, f.actor("admin"), chat.CreateChannelParams{Name: "dev", Description: "Tracking #42 here", Subscribers: []users.ID{f.ids["admin"], f.ids["member"]}})
	if err != nil {
		t.Fatal(err)
	}
	streams, err := f.svc.GetStreams(ctx, f.actor("member"), chat.GetStreamsParams{})
	if err != nil {
		t.Fatal(err)
	}
	const wantDesc = `<p>Tracking <a href="https://github.com/zulip/zulip/issues/42">#42</a> here</p>`
	found := false
	for _, s := range streams.Streams {
		if s.StreamID == ch.ID {
			found = true
			if s.RenderedDescription != wantDesc {
				t.Errorf("rendered_description = %s, want %s", s.RenderedDescription, wantDesc)
			}
		}
	}
	if !found {
		t.Fatal("channel not listed")
	}
	if _, err := f.svc.SendMessage(ctx, f.actor("member"), chat.SendMessageParams{Type: "stream", ChannelID: &ch.ID, Topic: ptr("bugs"), Content: "Fixed #7, not `#8`"}); err != nil {
		t.Fatal(err)
	}
	msgs, err := f.svc.GetMessages(ctx, f.actor("member"), chat.GetMessagesParams{Anchor: "newest", NumBefore: 1})
	if err != nil {
		t.Fatal(err)
	}
	const wantMsg = `<p>Fixed <a href="https://github.com/zulip/zulip/issues/7">#7</a>, not <code>#8</code></p>`
	if len(msgs.Messages) != 1 || msgs.Messages[0].Content != wantMsg {
		t.Errorf("messages = %+v, want content %s", msgs.Messages, wantMsg)
	}
}
