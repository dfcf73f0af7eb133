package chat_test

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// testBackends opens a fresh store per call: memory, SQLite in t.TempDir() and, when
// CHAT_TEST_POSTGRES_URL is set, PostgreSQL in a fresh schema.
func testBackends() []struct {
	name string
	open func(t *testing.T) storage.Storage
} {
	list := []struct {
		name string
		open func(t *testing.T) storage.Storage
	}{
		{"memory", func(*testing.T) storage.Storage { return memory.New() }},
		{"sqlite", func(t *testing.T) storage.Storage {
			s, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
	}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		list = append(list, struct {
			name string
			open func(t *testing.T) storage.Storage
		}{"postgres", func(t *testing.T) storage.Storage {
			s, err := sqlstore.Open(t.Context(), benchSchema(t, base))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}})
	}
	return list
}

// narrowWorld is the organization every narrow test reads: the member's view of channels,
// direct messages, flags, topic settings and alert words, plus messages the member may not
// read (a private channel, protected history, a deleted message).
type narrowWorld struct {
	verona, denmark, secret, club, noisy channels.ID
	m                                    map[string]messages.ID
}

func seedNarrowWorld(t *testing.T, f *fixture) narrowWorld {
	t.Helper()
	ctx := t.Context()
	yes, no := true, false
	w := narrowWorld{m: map[string]messages.ID{}}
	if err := f.store.Update(ctx, func(tx storage.Tx) error {
		r, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		r.EnableSpectatorAccess = true
		return tx.Realm().Put(r)
	}); err != nil {
		t.Fatal(err)
	}
	w.verona = mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "owner", "admin", "member", "guest")
	w.denmark = mustChannel(t, f, "Denmark", chat.NewChannelSettings{IsWebPublic: true}, "admin", "member")
	w.secret = mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "admin")
	w.club = mustChannel(t, f, "club", chat.NewChannelSettings{InviteOnly: true, HistoryPublicToSubscribers: &no}, "admin")
	w.noisy = mustChannel(t, f, "noisy", chat.NewChannelSettings{}, "admin", "member")
	w.m["lunch"] = mustSendToChannel(t, f, "admin", w.verona, "lunch", "We ate **cake** at https://example.com today")
	w.m["resolved"] = mustSendToChannel(t, f, "owner", w.verona, messages.ResolvedPrefix+"done", "The runners were running quickly")
	w.m["file"] = mustSendToChannel(t, f, "member", w.denmark, "pics", "[report.pdf](/user_uploads/2/ab/report.pdf)")
	w.m["image"] = mustSendToChannel(t, f, "admin", w.denmark, "pics", "![cat](/user_uploads/2/cd/cat.png)")
	w.m["dm"] = mustSendDirect(t, f, "owner", "cakes and more cakes", "member")
	w.m["group"] = mustSendDirect(t, f, "owner", "the quick brown fox jumps", "member", "admin")
	w.m["secret"] = mustSendToChannel(t, f, "admin", w.secret, "plans", "secret cake plans")
	w.m["protected"] = mustSendToChannel(t, f, "admin", w.club, "old", "cake before you joined")
	if _, err := f.svc.Subscribe(ctx, f.actor("admin"), chat.SubscribeParams{
		Subscriptions: []chat.SubscriptionRequest{{Name: "club"}}, Principals: chat.Principals{IDs: []users.ID{f.ids["member"]}},
		SendNewSubscriptionMessages: &no,
	}); err != nil {
		t.Fatal(err)
	}
	w.m["mention"] = mustSendToChannel(t, f, "admin", w.club, "new", "hello @**Mia Member** and the fox")
	w.m["noise"] = mustSendToChannel(t, f, "admin", w.noisy, "noise", "quick brown dogs")
	w.m["signal"] = mustSendToChannel(t, f, "admin", w.noisy, "signal", "brown fox")
	w.m["phrase"] = mustSendToChannel(t, f, "admin", w.verona, "lunch", "a fox, brown as toast")
	w.m["deleted"] = mustSendToChannel(t, f, "member", w.verona, "Lunch", "a cake I will delete")
	if _, err := f.svc.DeleteMessage(ctx, f.actor("admin"), chat.DeleteMessageParams{MessageID: w.m["deleted"]}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.UpdateMessage(ctx, f.actor("owner"), chat.UpdateMessageParams{
		MessageID: w.m["resolved"], Content: ptr("Walkers walked slowly"),
	}); err != nil {
		t.Fatal(err)
	}
	for _, fl := range []struct {
		flag string
		ids  []messages.ID
	}{{"starred", []messages.ID{w.m["lunch"], w.m["dm"]}}, {"read", []messages.ID{w.m["lunch"], w.m["dm"]}}} {
		if _, err := f.svc.UpdateMessageFlags(ctx, f.actor("member"), chat.UpdateMessageFlagsParams{Messages: fl.ids, Op: "add", Flag: fl.flag}); err != nil {
			t.Fatal(err)
		}
	}
	// The member's alert word is "fox" (the flag is set here: sending does not compute it).
	if err := f.store.Update(ctx, func(tx storage.Tx) error {
		_, err := tx.Messages().SetFlags(f.ids["member"], w.ids("group", "mention", "signal", "phrase"), messages.FlagHasAlertWord, 0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		who, msg string
	}{{"admin", "lunch"}, {"member", "group"}, {"owner", "group"}} {
		if _, err := f.svc.AddReaction(ctx, f.actor(r.who), chat.AddReactionParams{MessageID: w.m[r.msg], EmojiName: "smile"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, ut := range []chat.UpdateUserTopicParams{
		{StreamID: w.verona, Topic: "lunch", VisibilityPolicy: topics.PolicyFollowed},
		{StreamID: w.denmark, Topic: "pics", VisibilityPolicy: topics.PolicyMuted},
		{StreamID: w.noisy, Topic: "signal", VisibilityPolicy: topics.PolicyUnmuted},
	} {
		if _, err := f.svc.UpdateUserTopic(ctx, f.actor("member"), ut); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.svc.UpdateSubscriptionSettings(ctx, f.actor("member"), chat.UpdateSubscriptionSettingsParams{
		SubscriptionData: []chat.SubscriptionPropertyChange{{StreamID: w.noisy, Property: "is_muted", Value: yes}},
	}); err != nil {
		t.Fatal(err)
	}
	return w
}

// ids returns the named messages, ascending.
func (w narrowWorld) ids(names ...string) []messages.ID {
	out := []messages.ID{}
	for _, n := range names {
		out = append(out, w.m[n])
	}
	slices.Sort(out)
	return out
}

// visible is every message the member may read.
var visible = []string{"lunch", "resolved", "file", "image", "dm", "group", "mention", "noise", "signal", "phrase"}

func visibleExcept(drop ...string) []string {
	return slices.DeleteFunc(slices.Clone(visible), func(s string) bool { return slices.Contains(drop, s) })
}

type narrowCase struct {
	name   string
	viewer string
	narrow func(w narrowWorld, f *fixture) []chat.NarrowTerm
	want   []string
}

func term(op string, operand any) chat.NarrowTerm {
	return chat.NarrowTerm{Operator: op, Operand: operand}
}

func not(op string, operand any) chat.NarrowTerm {
	return chat.NarrowTerm{Operator: op, Operand: operand, Negated: true}
}

func fixed(terms ...chat.NarrowTerm) func(narrowWorld, *fixture) []chat.NarrowTerm {
	return func(narrowWorld, *fixture) []chat.NarrowTerm { return terms }
}

func narrowCases() []narrowCase {
	id := func(name string) func(narrowWorld, *fixture) []chat.NarrowTerm {
		return func(w narrowWorld, _ *fixture) []chat.NarrowTerm {
			return []chat.NarrowTerm{term("id", float64(w.m[name]))}
		}
	}
	user := func(op, who string) func(narrowWorld, *fixture) []chat.NarrowTerm {
		return func(_ narrowWorld, f *fixture) []chat.NarrowTerm {
			return []chat.NarrowTerm{term(op, float64(f.ids[who]))}
		}
	}
	with := func(name string, more ...chat.NarrowTerm) func(narrowWorld, *fixture) []chat.NarrowTerm {
		return func(w narrowWorld, _ *fixture) []chat.NarrowTerm {
			return append([]chat.NarrowTerm{term("with", float64(w.m[name]))}, more...)
		}
	}
	return []narrowCase{
		{"no narrow", "member", fixed(), visible},
		{"channel by name", "member", fixed(term("channel", "verona")), []string{"lunch", "resolved", "phrase"}},
		{"legacy stream", "member", fixed(term("stream", "Verona")), []string{"lunch", "resolved", "phrase"}},
		{"channel by id", "member", func(w narrowWorld, _ *fixture) []chat.NarrowTerm {
			return []chat.NarrowTerm{term("channel", float64(w.denmark))}
		}, []string{"file", "image"}},
		{"not a channel", "member", fixed(not("channel", "Verona")), visibleExcept("lunch", "resolved", "phrase")},
		{"channels:public", "member", fixed(term("channels", "public")), []string{"lunch", "resolved", "file", "image", "noise", "signal", "phrase"}},
		{"streams:web-public", "member", fixed(term("streams", "web-public")), []string{"file", "image"}},
		{"topic", "member", fixed(term("topic", "LUNCH")), []string{"lunch", "phrase"}},
		{"legacy subject", "member", fixed(term("channel", "Verona"), term("subject", "lunch")), []string{"lunch", "phrase"}},
		{"not a topic", "member", fixed(term("channel", "Verona"), not("topic", "lunch")), []string{"resolved"}},
		{"sender by email", "member", fixed(term("sender", "owner@example.com")), []string{"resolved", "dm", "group"}},
		{"sender by id", "member", user("sender", "admin"), []string{"lunch", "image", "mention", "noise", "signal", "phrase"}},
		{"not a sender", "member", fixed(not("sender", "admin@example.com")), []string{"resolved", "file", "dm", "group"}},
		{"dm with one user", "member", user("dm", "owner"), []string{"dm"}},
		{"dm by ids", "member", func(_ narrowWorld, f *fixture) []chat.NarrowTerm {
			return []chat.NarrowTerm{term("dm", []any{float64(f.ids["owner"]), float64(f.ids["admin"])})}
		}, []string{"group"}},
		{"legacy pm-with by emails", "member", fixed(term("pm-with", "owner@example.com,admin@example.com")), []string{"group"}},
		{"dm with nobody", "member", fixed(term("dm", []any{})), []string{}},
		{"dm-including", "member", user("dm-including", "admin"), []string{"group"}},
		{"dm-including oneself", "member", user("dm-including", "member"), []string{"dm", "group"}},
		{"group-pm-with", "member", user("group-pm-with", "owner"), []string{"group"}},
		{"id", "member", id("image"), []string{"image"}},
		{"id of an unreadable message", "member", id("secret"), []string{}},
		{"near is an anchor only", "member", func(w narrowWorld, _ *fixture) []chat.NarrowTerm {
			return []chat.NarrowTerm{term("near", fmtInt(int64(w.m["image"])))}
		}, visible},
		{"with a channel message", "member", with("lunch"), []string{"lunch", "phrase"}},
		{"with replaces the conversation", "member", with("phrase", term("channel", "Denmark"), term("topic", "pics")), []string{"lunch", "phrase"}},
		{"with a direct message", "member", with("group"), []string{"group"}},
		{"with keeps other terms", "member", with("lunch", term("search", "fox")), []string{"phrase"}},
		{"with an unreadable message in a conversation", "member", with("secret", term("channel", "Verona"), term("topic", "lunch")), []string{"lunch", "phrase"}},
		{"is:dm", "member", fixed(term("is", "dm")), []string{"dm", "group"}},
		{"is:private", "member", fixed(term("is", "private")), []string{"dm", "group"}},
		{"not is:dm", "member", fixed(not("is", "dm")), visibleExcept("dm", "group")},
		{"is:starred", "member", fixed(term("is", "starred")), []string{"lunch", "dm"}},
		{"is:unread", "member", fixed(term("is", "unread")), []string{"resolved", "image", "group", "mention", "noise", "signal", "phrase"}},
		{"not is:unread", "member", fixed(not("is", "unread")), []string{"lunch", "file", "dm"}},
		{"is:mentioned", "member", fixed(term("is", "mentioned")), []string{"mention"}},
		{"is:alerted", "member", fixed(term("is", "alerted")), []string{"group", "mention", "signal", "phrase"}},
		{"is:resolved", "member", fixed(term("is", "resolved")), []string{"resolved"}},
		{"is:followed", "member", fixed(term("is", "followed")), []string{"lunch", "phrase"}},
		{"is:muted", "member", fixed(term("is", "muted")), []string{"file", "image", "noise"}},
		{"in:home", "member", fixed(term("in", "home")), visibleExcept("file", "image", "noise")},
		{"in:all", "member", fixed(term("in", "all")), visible},
		{"has:link", "member", fixed(term("has", "link")), []string{"lunch", "file"}},
		{"has:attachment", "member", fixed(term("has", "attachment")), []string{"file", "image"}},
		{"has:image", "member", fixed(term("has", "image")), []string{"image"}},
		{"not has:link", "member", fixed(not("has", "link")), visibleExcept("lunch", "file")},
		{"has:reaction", "member", fixed(term("has", "reaction")), []string{"lunch", "group"}},
		{"not has:reaction", "member", fixed(not("has", "reaction")), visibleExcept("lunch", "group")},
		{"has:reaction with search", "member", fixed(term("has", "reaction"), term("search", "fox")), []string{"group"}},
		{"search, stemmed", "member", fixed(term("search", "CAKE")), []string{"lunch", "dm"}},
		{"search an edited message's new words", "member", fixed(term("search", "walking")), []string{"resolved"}},
		{"search an edited message's old words", "member", fixed(term("search", "running")), []string{}},
		{"search in topics", "member", fixed(term("search", "pics")), []string{"file", "image"}},
		{"search every word", "member", fixed(term("search", "fox brown")), []string{"group", "signal", "phrase"}},
		{"search a phrase", "member", fixed(term("search", `"brown fox"`)), []string{"group", "signal"}},
		{"search the reversed phrase", "member", fixed(term("search", `"fox brown"`)), []string{"phrase"}},
		{"search a phrase and a word", "member", fixed(term("search", `"brown fox" jumps`)), []string{"group"}},
		{"search with a channel", "member", fixed(term("search", "fox"), term("channel", "Verona")), []string{"phrase"}},
		{"search with a sender", "member", fixed(term("search", "fox"), term("sender", "owner@example.com")), []string{"group"}},
		{"search with is:starred", "member", fixed(term("search", "cakes"), term("is", "starred")), []string{"lunch", "dm"}},
		{"search with is:dm", "member", fixed(term("search", "fox"), term("is", "dm")), []string{"group"}},
		{"two search terms", "member", fixed(term("search", "brown"), term("search", "dogs")), []string{"noise"}},
		{"not search", "member", fixed(not("search", "fox")), visibleExcept("group", "mention", "signal", "phrase")},
		{"search punctuation only", "member", fixed(term("search", "?!")), []string{}},
		{"search a private channel", "admin", fixed(term("search", "cake")), []string{"lunch", "secret", "protected"}},
		{"search without access to private history", "member", fixed(term("search", "cake"), term("channel", "club")), []string{}},
		{"search hides deleted messages", "member", fixed(term("search", "delete")), []string{}},
		{"search as a guest", "guest", fixed(term("search", "cake")), []string{"lunch"}},
	}
}

func runNarrowCases(t *testing.T, f *fixture, w narrowWorld) {
	t.Helper()
	for _, tt := range narrowCases() {
		t.Run(tt.name, func(t *testing.T) {
			got := fetchIDs(t, f, tt.viewer, tt.narrow(w, f)...)
			if diff := cmp.Diff(w.ids(tt.want...), got, cmpEmpty); diff != "" {
				t.Errorf("narrow %+v (-want +got):\n%s", tt.narrow(w, f), diff)
			}
		})
	}
}

// TestNarrowOperators runs every narrow operator of Zulip, negated and in its legacy forms,
// on every backend: each must return the same messages.
func TestNarrowOperators(t *testing.T) {
	t.Parallel()
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			f := newFixtureOn(t, b.open(t))
			runNarrowCases(t, f, seedNarrowWorld(t, f))
		})
	}
}

func TestNarrowErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := seedNarrowWorld(t, f)
	for _, tt := range []struct {
		name   string
		narrow []chat.NarrowTerm
		code   chat.Code
		msg    string
	}{
		{"unknown operator", []chat.NarrowTerm{term("bogus", "x")}, chat.CodeBadNarrow, "Invalid narrow operator: unknown operator bogus"},
		{"unknown has", []chat.NarrowTerm{term("has", "emoji")}, chat.CodeBadNarrow, "Invalid narrow operator: unknown 'has' operand emoji"},
		{"unknown is", []chat.NarrowTerm{term("is", "home")}, chat.CodeBadNarrow, "Invalid narrow operator: unknown 'is' operand home"},
		{"unknown in", []chat.NarrowTerm{term("in", "space")}, chat.CodeBadNarrow, "Invalid narrow operator: unknown 'in' operand space"},
		{"unknown channels", []chat.NarrowTerm{term("channels", "private")}, chat.CodeBadNarrow, "Invalid narrow operator: unknown channels operand private"},
		{"unknown channel id", []chat.NarrowTerm{term("channel", float64(9999))}, chat.CodeBadNarrow, "Invalid narrow operator: unknown channel 9999"},
		{"channel the user may not see", []chat.NarrowTerm{term("channel", "secret")}, chat.CodeBadNarrow, "Invalid narrow operator: unknown channel secret"},
		{"unknown user in dm", []chat.NarrowTerm{term("dm", "nobody@example.com")}, chat.CodeBadNarrow, "Invalid narrow operator: unknown user in nobody@example.com"},
		{"unknown dm-including", []chat.NarrowTerm{term("dm-including", float64(9999))}, chat.CodeBadNarrow, "Invalid narrow operator: unknown user 9999"},
		{"bad id", []chat.NarrowTerm{term("id", "x1")}, chat.CodeBadNarrow, "Invalid narrow operator: Invalid message ID"},
		{"two with", []chat.NarrowTerm{term("with", float64(w.m["lunch"])), term("with", float64(w.m["dm"]))}, chat.CodeBadNarrow, "Invalid narrow operator combination: Duplicate 'with' operators."},
		{"with not an id", []chat.NarrowTerm{term("with", "first")}, chat.CodeBadNarrow, "Invalid narrow operator: Invalid 'with' operator"},
		{"with an unreadable message", []chat.NarrowTerm{term("with", float64(w.m["secret"]))}, chat.CodeBadNarrow, "Invalid narrow operator: Invalid 'with' operator"},
		{"channel and dm", []chat.NarrowTerm{term("channel", "Verona"), term("dm", "owner@example.com")}, chat.CodeBadNarrow, "Invalid narrow operator: No message can be both a channel message and direct message"},
		{"topic and is:dm", []chat.NarrowTerm{term("topic", "x"), term("is", "dm")}, chat.CodeBadNarrow, "Invalid narrow operator: No message can be both a channel message and direct message"},
		{"blank search", []chat.NarrowTerm{term("search", "  ")}, chat.CodeBadRequest, "operand cannot be blank."},
		{"search not a string", []chat.NarrowTerm{term("search", float64(3))}, chat.CodeBadRequest, "operand is not a string"},
		{"topic not a string", []chat.NarrowTerm{term("topic", float64(3))}, chat.CodeBadRequest, "operand is not a string"},
		{"channel a list", []chat.NarrowTerm{term("channel", []any{"Verona"})}, chat.CodeBadRequest, "operand is not a string or integer"},
		{"dm a list of lists", []chat.NarrowTerm{term("dm", []any{[]any{}})}, chat.CodeBadRequest, "operand is not a string or an integer list"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.GetMessages(t.Context(), f.actor("member"), chat.GetMessagesParams{Anchor: "newest", NumBefore: 5, Narrow: tt.narrow})
			e := wantError(t, err, tt.code, http.StatusBadRequest, tt.msg)
			if tt.code == chat.CodeBadNarrow && e.Extra["desc"] == nil {
				t.Errorf("BAD_NARROW without desc: %+v", e)
			}
		})
	}
}

// TestSearchHighlights: a search narrow adds match_content and match_subject with Zulip's
// highlight markup around every word whose stem matches, leaving tags alone.
func TestSearchHighlights(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := seedNarrowWorld(t, f)
	res := fetch(t, f, "member", chat.GetMessagesParams{Anchor: "newest", NumBefore: 10,
		Narrow: []chat.NarrowTerm{term("search", "cakes lunch"), term("channel", "Verona")}})
	if len(res.Messages) != 1 || res.Messages[0].ID != w.m["lunch"] {
		t.Fatalf("got %+v", recordIDs(res.Messages))
	}
	m := res.Messages[0]
	wantContent := `<p>We ate <strong><span class="highlight">cake</span></strong> at <a href="https://example.com">https://example.com</a> today</p>`
	if m.MatchContent == nil || *m.MatchContent != wantContent {
		t.Errorf("match_content = %v, want %s", deref(m.MatchContent), wantContent)
	}
	if m.MatchSubject == nil || *m.MatchSubject != `<span class="highlight">lunch</span>` {
		t.Errorf("match_subject = %v", deref(m.MatchSubject))
	}
	res = fetch(t, f, "member", chat.GetMessagesParams{Anchor: "newest", NumBefore: 10, Narrow: []chat.NarrowTerm{term("channel", "Verona")}})
	for _, m := range res.Messages {
		if m.MatchContent != nil || m.MatchSubject != nil {
			t.Errorf("match fields without a search: %+v", m)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestQueueNarrow: register's narrow takes the operators of GET /messages and filters message
// events with the recipient's flags.
func TestQueueNarrow(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "admin", "member")
	queues := map[string][][]string{
		"search":     {{"search", "foxes"}},
		"unread":     {{"is", "unread"}},
		"mentioned":  {{"is", "mentioned"}},
		"not verona": {{"-channel", "Verona"}},
		"dm":         {{"dm", "owner@example.com"}},
		"unknown":    {{"channel", "nowhere"}},
		"has link":   {{"has", "link"}},
	}
	ids := map[string]string{}
	for name, narrow := range queues {
		res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{EventTypes: []string{"message"}, Narrow: narrow})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ids[name] = *res.QueueID
	}
	fox := mustSendToChannel(t, f, "admin", verona, "t", "the fox")
	mention := mustSendToChannel(t, f, "admin", verona, "t", "hi @**Mia Member**, see https://example.com")
	dm := mustSendDirect(t, f, "owner", "a dm", "member")
	want := map[string][]messages.ID{
		"search": {fox}, "unread": {fox, mention, dm}, "mentioned": {mention}, "not verona": {dm}, "dm": {dm},
		"unknown": nil, "has link": {mention},
	}
	for name := range queues {
		var got []messages.ID
		for _, e := range messageEvents(t, f.poll(t, "member", ids[name], -1, true), "message") {
			got = append(got, messages.ID(e["message"].(map[string]any)["id"].(float64)))
		}
		if diff := cmp.Diff(want[name], got, cmpEmpty); diff != "" {
			t.Errorf("queue %s (-want +got):\n%s", name, diff)
		}
	}
	_, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{Narrow: [][]string{{"bogus", "x"}}})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Operator bogus not supported.")
}

// TestQueueNarrowSurvivesRestart: a queue restored after a graceful restart keeps its resolved
// narrow.
func TestQueueNarrowSurvivesRestart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "admin", "member")
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{
		EventTypes: []string{"message"}, Narrow: [][]string{{"search", "foxes"}, {"channel", "Verona"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Close(); err != nil {
		t.Fatal(err)
	}
	svc2, err := chat.New(chat.Options{Store: f.store, Now: f.clock.Now, HeartbeatWait: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc2.Close() })
	var want messages.ID
	for _, content := range []string{"a dog", "a fox", "a cat"} {
		topic := "t"
		sent, err := svc2.SendMessage(ctx, f.actor("admin"), chat.SendMessageParams{Type: "stream", ChannelID: &verona, Topic: &topic, Content: content})
		if err != nil {
			t.Fatal(err)
		}
		if content == "a fox" {
			want = sent.ID
		}
	}
	last := int64(-1)
	got, err := svc2.GetEvents(ctx, f.actor("member"), chat.GetEventsParams{QueueID: *res.QueueID, LastEventID: &last, DontBlock: true})
	if err != nil {
		t.Fatal(err)
	}
	var ids []messages.ID
	for _, e := range messageEvents(t, got.Events, "message") {
		ids = append(ids, messages.ID(e["message"].(map[string]any)["id"].(float64)))
	}
	if diff := cmp.Diff([]messages.ID{want}, ids); diff != "" {
		t.Errorf("message events after the restart (-want +got):\n%s", diff)
	}
}
