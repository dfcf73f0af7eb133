package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/linkifiers"
)

// applyRealmList applies an event that carries a whole organization list (realm_linkifiers,
// realm_filters, realm_playgrounds): the list replaces register's key of the same name.
func applyRealmList(state, ev map[string]any, key string) {
	if _, ok := state[key]; ok {
		state[key] = ev[key]
	}
}

// linkifiersConsistencyCases are the consistency cases of linkifiers and code playgrounds.
func linkifiersConsistencyCases() []consistencyCase {
	seed := func(t *testing.T, f *fixture) {
		f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: `#(?P<id>\d+)`, URLTemplate: "https://x/{id}"})
		f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: `T(?P<id>\d+)`, URLTemplate: "https://t/{id}", ExampleInput: ptr("T1"), ReverseTemplate: ptr("T{id}")})
		if _, err := f.svc.AddCodePlayground(t.Context(), f.actor("admin"), chat.AddCodePlaygroundParams{Name: "Go", HighlighterLanguage: "Go", URLTemplate: "https://go.dev/play?c={code}"}); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(t *testing.T, f *fixture) []linkifiers.ID {
		var out []linkifiers.ID
		for _, l := range f.mustLinkifiers(t) {
			out = append(out, l.ID)
		}
		return out
	}
	return []consistencyCase{
		{method: "AddLinkifier", name: "with reverse template", setup: seed, run: func(t *testing.T, f *fixture) {
			f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: `RFC(?P<n>\d+)`, URLTemplate: "https://rfc/{n}", ExampleInput: ptr("RFC1"), ReverseTemplate: ptr("RFC{n}"),
				AlternativeURLTemplates: []string{"https://alt/{n}"}})
		}},
		{method: "UpdateLinkifier", name: "template", setup: seed, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.UpdateLinkifier(t.Context(), f.actor("admin"), chat.UpdateLinkifierParams{FilterID: ids(t, f)[0],
				AddLinkifierParams: chat.AddLinkifierParams{Pattern: `#(?P<id>\d+)`, URLTemplate: "https://y/{id}"}}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "RemoveLinkifier", name: "first", setup: seed, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.RemoveLinkifier(t.Context(), f.actor("admin"), chat.RemoveLinkifierParams{FilterID: ids(t, f)[0]}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "ReorderLinkifiers", name: "swap", setup: seed, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.ReorderLinkifiers(t.Context(), f.actor("admin"), chat.ReorderLinkifiersParams{OrderedLinkifierIDs: []linkifiers.ID{ids(t, f)[1], ids(t, f)[0]}}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "AddCodePlayground", name: "second", setup: seed, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.AddCodePlayground(t.Context(), f.actor("admin"), chat.AddCodePlaygroundParams{Name: "Py", HighlighterLanguage: "Python", URLTemplate: "https://py/{?code}"}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "RemoveCodePlayground", name: "only", setup: seed, run: func(t *testing.T, f *fixture) {
			r, err := f.svc.RegisterQueue(t.Context(), f.actor("admin"), chat.RegisterQueueParams{FetchEventTypes: []string{"realm_playgrounds"}})
			if err != nil {
				t.Fatal(err)
			}
			id := (*r.DraftsState.RealmPlaygrounds)[0].ID
			if _, err := f.svc.RemoveCodePlayground(t.Context(), f.actor("admin"), chat.RemoveCodePlaygroundParams{PlaygroundID: id}); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// goldenLinkifiers produces realm_linkifiers, realm_filters and realm_playgrounds events.
func goldenLinkifiers(t *testing.T, f *fixture) {
	f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://github.com/zulip/zulip/issues/{id}",
		ExampleInput: ptr("#1234"), ReverseTemplate: ptr("#{id}"), AlternativeURLTemplates: []string{"https://github.com/zulip/zulip/pull/{id}"}})
	if _, err := f.svc.AddCodePlayground(t.Context(), f.actor("admin"), chat.AddCodePlaygroundParams{
		Name: "Python playground", HighlighterLanguage: "Python", URLTemplate: "https://python.example.com?code={code}",
	}); err != nil {
		t.Fatal(err)
	}
}
