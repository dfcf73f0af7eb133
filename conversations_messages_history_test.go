package chat_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/realms"
)

func TestGetMessageHistory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	w := seedEditWorld(t, f)
	sent := messageAs(t, f, "member", w.party[0])
	f.clock.Advance(time.Minute)
	edited := f.clock.Now().Unix()
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("edited"), Topic: ptr("renamed")})
	f.clock.Advance(time.Minute)
	moved := f.clock.Now().Unix()
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], StreamID: &w.other})
	f.clock.Advance(time.Minute)
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("edited again")})
	last := f.clock.Now().Unix()

	admin := f.ids["admin"]
	first, firstHTML := "first @**Mia Member**", sent.Content
	original := chat.MessageSnapshot{Topic: "party", Content: first, RenderedContent: firstHTML, UserID: admin, Timestamp: sent.Timestamp}
	edit := chat.MessageSnapshot{Topic: "renamed", PrevTopic: ptr("party"), Content: "edited", RenderedContent: "<p>edited</p>",
		PrevContent: &first, PrevRenderedContent: &firstHTML, UserID: admin, Timestamp: edited}
	move := chat.MessageSnapshot{Topic: "renamed", Stream: ptr(w.other), PrevStream: ptr(w.public), Content: "edited",
		RenderedContent: "<p>edited</p>", UserID: admin, Timestamp: moved}
	again := chat.MessageSnapshot{Topic: "renamed", Content: "edited again", RenderedContent: "<p>edited again</p>",
		PrevContent: ptr("edited"), PrevRenderedContent: ptr("<p>edited</p>"), UserID: admin, Timestamp: last}
	noDiff := cmpopts.IgnoreFields(chat.MessageSnapshot{}, "ContentHTMLDiff")

	get := func(who string) (chat.GetMessageHistoryResult, error) {
		return f.svc.GetMessageHistory(ctx, f.actor(who), chat.GetMessageHistoryParams{MessageID: w.party[0]})
	}
	res, err := get("member")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]chat.MessageSnapshot{original, edit, move, again}, res.MessageHistory, noDiff); diff != "" {
		t.Errorf("history under all (-want +got):\n%s", diff)
	}
	for i, s := range res.MessageHistory {
		if hasDiff := s.ContentHTMLDiff != nil; hasDiff != (s.PrevContent != nil) {
			t.Errorf("snapshot %d: content_html_diff %v, want one exactly for content edits", i, s.ContentHTMLDiff)
		}
	}
	if d := res.MessageHistory[3].ContentHTMLDiff; d == nil || !strings.Contains(*d, `<span class="highlight_text_inserted">again</span>`) {
		t.Errorf("last diff = %v", d)
	}

	setRealm(t, f, func(r *realms.Realm) { r.MessageEditHistoryVisibilityPolicy = "moves" })
	res, err = get("member")
	if err != nil {
		t.Fatal(err)
	}
	moveOnly := edit
	moveOnly.PrevContent, moveOnly.PrevRenderedContent = nil, nil
	if diff := cmp.Diff([]chat.MessageSnapshot{original, moveOnly, move}, res.MessageHistory); diff != "" {
		t.Errorf("history under moves (-want +got):\n%s", diff)
	}

	setRealm(t, f, func(r *realms.Realm) { r.MessageEditHistoryVisibilityPolicy = "none" })
	_, err = get("member")
	wantMsg(t, "history under none", err, "Message edit history is disabled in this organization")
}

func TestGetMessageHistoryRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	w := seedEditWorld(t, f)
	secret := mustSendToChannel(t, f, "admin", w.private, "t", "hidden")
	for _, tc := range []struct {
		who string
		id  usersMessageID
	}{
		{"guest", secret},
		{"owner", w.direct},
		{"member", 99999},
	} {
		_, err := f.svc.GetMessageHistory(ctx, f.actor(tc.who), chat.GetMessageHistoryParams{MessageID: tc.id})
		wantMsg(t, tc.who, err, "Invalid message(s)")
	}
	// A direct message's snapshots have no topic; a never edited message has one snapshot.
	res, err := f.svc.GetMessageHistory(ctx, f.actor("member"), chat.GetMessageHistoryParams{MessageID: w.direct})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.MessageHistory) != 1 || res.MessageHistory[0].Topic != "" || res.MessageHistory[0].Content != "hello" {
		t.Errorf("direct message history = %+v", res.MessageHistory)
	}
}

func TestRenderMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	res, err := f.svc.RenderMessage(ctx, f.actor("member"), chat.RenderMessageParams{Content: "**bold** @**Adam Admin**"})
	if err != nil {
		t.Fatal(err)
	}
	want := `<p><strong>bold</strong> <span class="user-mention" data-user-id="` + fmtInt(int64(f.ids["admin"])) + `">@Adam Admin</span></p>`
	if res.Rendered != want {
		t.Errorf("rendered = %s, want %s", res.Rendered, want)
	}
	_, err = f.svc.RenderMessage(ctx, f.actor("member"), chat.RenderMessageParams{Content: strings.Repeat("é", 10001)})
	wantMsg(t, "too long", err, "content is too long (limit: 10000 characters)")
	if n := f.messageCount(t); n != 0 {
		t.Errorf("rendering stored %d messages", n)
	}
}
