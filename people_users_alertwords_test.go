package chat_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
)

func TestAlertWords(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	memberQ := f.register(t, "member", "alert_words")
	adminQ := f.register(t, "admin", "alert_words")
	res, err := f.svc.AddAlertWords(ctx, f.actor("member"), chat.AlertWordsParams{AlertWords: []string{" lunch ", "Deploy", "", "deploy", "DEPLOY"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"lunch", "DEPLOY"}, res.AlertWords); diff != "" {
		t.Errorf("after adding (-want +got):\n%s", diff)
	}
	res, err = f.svc.AddAlertWords(ctx, f.actor("member"), chat.AlertWordsParams{AlertWords: []string{"LUNCH", "release"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"lunch", "DEPLOY", "release"}, res.AlertWords); diff != "" {
		t.Errorf("after adding known words (-want +got):\n%s", diff)
	}
	res, err = f.svc.RemoveAlertWords(ctx, f.actor("member"), chat.AlertWordsParams{AlertWords: []string{"deploy", "never added"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"lunch", "release"}, res.AlertWords); diff != "" {
		t.Errorf("after removing (-want +got):\n%s", diff)
	}
	got, err := f.svc.GetAlertWords(ctx, f.actor("member"), chat.GetAlertWordsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, got); diff != "" {
		t.Errorf("GetAlertWords (-want +got):\n%s", diff)
	}
	events := eventJSON(t, f.poll(t, "member", memberQ, -1, true))
	if len(events) != 3 || events[2]["type"] != "alert_words" {
		t.Fatalf("member events = %v", events)
	}
	if diff := cmp.Diff([]any{"lunch", "release"}, events[2]["alert_words"]); diff != "" {
		t.Errorf("last alert_words event (-want +got):\n%s", diff)
	}
	if evs := f.poll(t, "admin", adminQ, -1, true); len(evs) != 0 {
		t.Errorf("another user got %v", evs)
	}
	other, err := f.svc.GetAlertWords(ctx, f.actor("admin"), chat.GetAlertWordsParams{})
	if err != nil || len(other.AlertWords) != 0 {
		t.Errorf("admin's words = %v, %v", other, err)
	}
}

func TestAlertWordsBadInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.svc.AddAlertWords(ctx, f.actor("member"), chat.AlertWordsParams{AlertWords: []string{"keep"}}); err != nil {
		t.Fatal(err)
	}
	q := f.register(t, "member", "alert_words")
	many := make([]string, 1001)
	for i := range many {
		many[i] = strings.Repeat("w", i%50+1) + string(rune('a'+i%26))
	}
	for _, tc := range []struct {
		name string
		call func() error
		msg  string
	}{
		{"a word over 100 characters", func() error {
			_, err := f.svc.AddAlertWords(ctx, f.actor("member"), chat.AlertWordsParams{AlertWords: []string{"ok", strings.Repeat("é", 101)}})
			return err
		}, "alert_words[1] is too long (limit: 100 characters)"},
		{"too many words to add", func() error {
			_, err := f.svc.AddAlertWords(ctx, f.actor("member"), chat.AlertWordsParams{AlertWords: many})
			return err
		}, "alert_words is too long (limit: 1000 items)"},
		{"too many words to remove", func() error {
			_, err := f.svc.RemoveAlertWords(ctx, f.actor("member"), chat.AlertWordsParams{AlertWords: many})
			return err
		}, "alert_words is too long (limit: 1000 items)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, tc.call(), chat.CodeBadRequest, 400, tc.msg)
		})
	}
	got, err := f.svc.GetAlertWords(ctx, f.actor("member"), chat.GetAlertWordsParams{})
	if err != nil || !cmp.Equal(got.AlertWords, []string{"keep"}) {
		t.Errorf("words after refusals = %v, %v", got.AlertWords, err)
	}
	if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
		t.Errorf("refusals sent %v", evs)
	}
}

// alertWordsConsistencyCases are the consistency cases of alert words.
func alertWordsConsistencyCases() []consistencyCase {
	seed := func(t *testing.T, f *fixture) {
		for _, who := range []string{"member", "guest"} {
			if _, err := f.svc.AddAlertWords(t.Context(), f.actor(who), chat.AlertWordsParams{AlertWords: []string{"alpha", "beta"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []consistencyCase{
		{method: "AddAlertWords", name: "new and known words", setup: seed, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.AddAlertWords(t.Context(), f.actor("member"), chat.AlertWordsParams{AlertWords: []string{"ALPHA", "gamma"}}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "RemoveAlertWords", name: "one word", setup: seed, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.RemoveAlertWords(t.Context(), f.actor("guest"), chat.AlertWordsParams{AlertWords: []string{"Beta"}}); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// goldenAlertWords produces an alert_words event.
func goldenAlertWords(t *testing.T, f *fixture) {
	if _, err := f.svc.AddAlertWords(t.Context(), f.actor("member"), chat.AlertWordsParams{AlertWords: []string{"lunch", "deploy"}}); err != nil {
		t.Fatal(err)
	}
}

// TestAlertWordsFlagMessages: a message containing a recipient's alert word (outside code
// blocks) is flagged has_alert_word for that recipient (and found by is:alerted), and a
// content edit recomputes the flag.
func TestAlertWordsFlagMessages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.svc.AddAlertWords(ctx, f.actor("member"), chat.AlertWordsParams{AlertWords: []string{"Deploy", "on call"}}); err != nil {
		t.Fatal(err)
	}
	c := mustChannel(t, f, "ops", chat.NewChannelSettings{}, "admin", "member")
	alerted := chat.NarrowTerm{Operator: "is", Operand: "alerted"}
	hit := mustSendToChannel(t, f, "admin", c, "t", "Time to DEPLOY!")
	mustSendToChannel(t, f, "admin", c, "t", "redeployment only")
	mustSendToChannel(t, f, "admin", c, "t", "```\ndeploy.sh\n```")
	dm := mustSendDirect(t, f, "admin", "who is (on call)?", "member")
	if diff := cmp.Diff([]usersMessageID{hit, dm}, fetchIDs(t, f, "member", alerted)); diff != "" {
		t.Errorf("member's is:alerted (-want +got):\n%s", diff)
	}
	if got := fetchIDs(t, f, "admin", alerted); len(got) != 0 {
		t.Errorf("admin's is:alerted = %v, want none", got)
	}
	q := f.register(t, "member", "update_message")
	content := "nothing to see"
	if _, err := f.svc.UpdateMessage(ctx, f.actor("admin"), chat.UpdateMessageParams{MessageID: hit, Content: &content}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]usersMessageID{dm}, fetchIDs(t, f, "member", alerted)); diff != "" {
		t.Errorf("member's is:alerted after the edit (-want +got):\n%s", diff)
	}
	evs := messageEvents(t, f.poll(t, "member", q, -1, true), "update_message")
	if len(evs) != 1 {
		t.Fatalf("update_message events = %v", evs)
	}
	if diff := cmp.Diff([]any{}, evs[0]["flags"], cmpEmpty); diff != "" {
		t.Errorf("member's flags in the event (-want +got):\n%s", diff)
	}
	content = "deploy again"
	if _, err := f.svc.UpdateMessage(ctx, f.actor("admin"), chat.UpdateMessageParams{MessageID: hit, Content: &content}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]usersMessageID{hit, dm}, fetchIDs(t, f, "member", alerted), cmpopts.SortSlices(func(a, b usersMessageID) bool { return a < b })); diff != "" {
		t.Errorf("member's is:alerted after the second edit (-want +got):\n%s", diff)
	}
}
