package chat_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/storagetest"
	"github.com/teamchat/chat/users"
)

// draft builds DraftParams; ts < 0 leaves the timestamp absent.
func draft(typ string, to []int64, topic, content string, ts float64) chat.DraftParams {
	p := chat.DraftParams{Type: &typ, To: &to, Topic: &topic, Content: &content}
	if ts >= 0 {
		p.Timestamp = &ts
	}
	return p
}

func (f *fixture) mustDrafts(t *testing.T, name string) []chat.DraftRecord {
	t.Helper()
	res, err := f.svc.GetDrafts(t.Context(), f.actor(name), chat.GetDraftsParams{})
	if err != nil {
		t.Fatalf("GetDrafts: %v", err)
	}
	if res.Count != len(res.Drafts) {
		t.Fatalf("count %d for %d drafts", res.Count, len(res.Drafts))
	}
	return res.Drafts
}

func (f *fixture) mustCreateDrafts(t *testing.T, name string, list ...chat.DraftParams) []drafts.ID {
	t.Helper()
	res, err := f.svc.CreateDrafts(t.Context(), f.actor(name), chat.CreateDraftsParams{Drafts: list})
	if err != nil {
		t.Fatalf("CreateDrafts: %v", err)
	}
	return res.IDs
}

// draftsChannel creates a channel as the administrator, subscribing the named users, and
// returns its id.
func (f *fixture) draftsChannel(t *testing.T, name string, inviteOnly bool, subscribers ...string) int64 {
	t.Helper()
	ids := []users.ID{}
	for _, s := range subscribers {
		ids = append(ids, f.ids[s])
	}
	res, err := f.svc.CreateChannel(t.Context(), f.actor("admin"), chat.CreateChannelParams{
		Name: name, Subscribers: ids, NewChannelSettings: chat.NewChannelSettings{InviteOnly: inviteOnly},
	})
	if err != nil {
		t.Fatalf("CreateChannel(%s): %v", name, err)
	}
	return int64(res.ID)
}

// eventJSON renders events as their wire JSON.
func wireEvents(t *testing.T, evs []chat.Event) []string {
	t.Helper()
	out := []string{}
	for _, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

func TestDraftsLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	ch := f.draftsChannel(t, "lobby", false)
	q := f.register(t, "member")
	other := f.register(t, "admin")
	now := f.clock.Now().Unix()
	member, admin := int64(f.ids["member"]), int64(f.ids["admin"])

	ids := f.mustCreateDrafts(t, "member",
		draft("stream", []int64{ch}, "greetings", "hello\n\n", 1700000000.75),
		draft("private", []int64{admin, admin, member}, "ignored topic", "\n\nhi admin", -1),
		draft("", []int64{}, "", "note", -1),
		draft("private", []int64{}, "", "nobody yet", 1),
	)
	if len(ids) != 4 {
		t.Fatalf("ids = %v", ids)
	}
	want := []chat.DraftRecord{
		{ID: ids[3], Type: "", To: []int64{}, Content: "nobody yet", Timestamp: 1},
		{ID: ids[0], Type: "stream", To: []int64{ch}, Topic: "greetings", Content: "hello", Timestamp: 1700000000},
		{ID: ids[1], Type: "private", To: []int64{admin}, Content: "hi admin", Timestamp: now},
		{ID: ids[2], Type: "", To: []int64{}, Content: "note", Timestamp: now},
	}
	if diff := cmp.Diff(want, f.mustDrafts(t, "member")); diff != "" {
		t.Fatalf("GetDrafts (-want +got):\n%s", diff)
	}

	if _, err := f.svc.EditDraft(ctx, f.actor("member"), chat.EditDraftParams{DraftID: ids[2], Draft: draft("private", []int64{member}, "", "to myself", 5)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.DeleteDraft(ctx, f.actor("member"), chat.DeleteDraftParams{DraftID: ids[0]}); err != nil {
		t.Fatal(err)
	}
	got := wireEvents(t, f.poll(t, "member", q, -1, true))
	wantEvents := []string{
		fmt.Sprintf(`{"type":"drafts","op":"add","drafts":[`+
			`{"id":%d,"type":"stream","to":[%d],"topic":"greetings","content":"hello","timestamp":1700000000},`+
			`{"id":%d,"type":"private","to":[%d],"topic":"","content":"hi admin","timestamp":%d},`+
			`{"id":%d,"type":"","to":[],"topic":"","content":"note","timestamp":%d},`+
			`{"id":%d,"type":"","to":[],"topic":"","content":"nobody yet","timestamp":1}],"id":0}`,
			ids[0], ch, ids[1], admin, now, ids[2], now, ids[3]),
		fmt.Sprintf(`{"type":"drafts","op":"update","draft":{"id":%d,"type":"private","to":[%d],"topic":"","content":"to myself","timestamp":5},"id":1}`, ids[2], member),
		fmt.Sprintf(`{"type":"drafts","op":"remove","draft_id":%d,"id":2}`, ids[0]),
	}
	if diff := cmp.Diff(wantEvents, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if evs := f.poll(t, "admin", other, -1, true); len(evs) != 0 {
		t.Errorf("another user received draft events: %v", wireEvents(t, evs))
	}

	// Register: newest first.
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"drafts"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.DraftsState == nil || res.DraftsState.Drafts == nil {
		t.Fatal("register lacks drafts")
	}
	var order []drafts.ID
	for _, d := range *res.DraftsState.Drafts {
		order = append(order, d.ID)
	}
	if diff := cmp.Diff([]drafts.ID{ids[1], ids[2], ids[3]}, order); diff != "" {
		t.Errorf("register drafts order (-want +got):\n%s", diff)
	}
	if res.RealmState != nil {
		t.Error("realm state sent though only drafts were fetched")
	}
}

func TestDraftsRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	private := f.draftsChannel(t, "secret", true, "admin")
	public := f.draftsChannel(t, "open", false)
	existing := f.mustCreateDrafts(t, "member", draft("", []int64{}, "", "keep me", 10))
	theirs := f.mustCreateDrafts(t, "admin", draft("", []int64{}, "", "admin's", 10))
	q := f.register(t, "member")
	before := f.mustDrafts(t, "member")
	ok := draft("", []int64{}, "", "fine", -1)
	missingTo := draft("", nil, "", "x", -1)
	missingTo.To = nil

	tests := []struct {
		name   string
		list   []chat.DraftParams
		status int
		msg    string
	}{
		{"bad type", []chat.DraftParams{ok, draft("huddle", []int64{}, "", "x", -1)}, 400, `Invalid drafts[1]["type"]`},
		{"blank content", []chat.DraftParams{draft("", []int64{}, "", " \n\t", -1)}, 400, `drafts[0]["content"] cannot be blank`},
		{"null byte in content", []chat.DraftParams{draft("", []int64{}, "", "a\x00b", -1)}, 400, "Message must not contain null bytes"},
		{"null byte in topic", []chat.DraftParams{draft("stream", []int64{1}, "a\x00", "x", -1)}, 400, "Topic must not contain null bytes"},
		{"stream draft with two channels", []chat.DraftParams{draft("stream", []int64{1, 2}, "t", "x", -1)}, 400, "Must specify exactly 1 channel ID for channel messages"},
		{"stream draft with no channel", []chat.DraftParams{draft("stream", []int64{}, "t", "x", -1)}, 400, "Must specify exactly 1 channel ID for channel messages"},
		{"unaddressed draft with recipients", []chat.DraftParams{draft("", []int64{1}, "", "x", -1)}, 400, "Unaddressed drafts must have no recipients"},
		{"unknown channel", []chat.DraftParams{draft("stream", []int64{public + 100}, "t", "x", -1)}, 400, "Invalid channel ID"},
		{"private channel without access", []chat.DraftParams{draft("stream", []int64{public}, "t", "x", -1), draft("stream", []int64{private}, "t", "x", -1)}, 400, "Invalid channel ID"},
		{"unknown recipient", []chat.DraftParams{draft("private", []int64{int64(f.ids["admin"]), 9999}, "", "x", -1)}, 400, "Invalid user ID 9999"},
		{"negative timestamp", []chat.DraftParams{draft("", []int64{}, "", "x", 0), draft("", []int64{}, "", "x", -1)}, 400, ""},
		{"missing to", []chat.DraftParams{missingTo}, 400, `drafts[0]["to"] field is missing`},
	}
	tests[10].list[0].Timestamp = ptr(-5.0)
	tests[10].msg = "Timestamp must not be negative."
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.CreateDrafts(ctx, f.actor("member"), chat.CreateDraftsParams{Drafts: tt.list})
			wantError(t, err, chat.CodeBadRequest, tt.status, tt.msg)
			if diff := cmp.Diff(before, f.mustDrafts(t, "member")); diff != "" {
				t.Errorf("drafts changed (-before +after):\n%s", diff)
			}
			if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
				t.Errorf("events after a refusal: %v", wireEvents(t, evs))
			}
		})
	}

	t.Run("too many drafts in one request", func(t *testing.T) {
		list := make([]chat.DraftParams, drafts.MaxPerRequest+1)
		for i := range list {
			list[i] = ok
		}
		_, err := f.svc.CreateDrafts(ctx, f.actor("member"), chat.CreateDraftsParams{Drafts: list})
		wantError(t, err, chat.CodeBadRequest, 400, "drafts is too long (limit: 1000 items)")
	})
	t.Run("edit and delete of unknown or another user's draft", func(t *testing.T) {
		for _, id := range []drafts.ID{theirs[0], 424242} {
			_, err := f.svc.EditDraft(ctx, f.actor("member"), chat.EditDraftParams{DraftID: id, Draft: ok})
			wantError(t, err, chat.CodeBadRequest, 404, "Draft does not exist")
			_, err = f.svc.DeleteDraft(ctx, f.actor("member"), chat.DeleteDraftParams{DraftID: id})
			wantError(t, err, chat.CodeBadRequest, 404, "Draft does not exist")
		}
		if got := f.mustDrafts(t, "admin"); len(got) != 1 || got[0].Content != "admin's" {
			t.Errorf("admin's drafts = %+v", got)
		}
	})
	t.Run("invalid edit changes nothing", func(t *testing.T) {
		_, err := f.svc.EditDraft(ctx, f.actor("member"), chat.EditDraftParams{DraftID: existing[0], Draft: draft("", []int64{}, "", "", -1)})
		wantError(t, err, chat.CodeBadRequest, 400, `draft["content"] cannot be blank`)
		if diff := cmp.Diff(before, f.mustDrafts(t, "member")); diff != "" {
			t.Errorf("drafts changed (-before +after):\n%s", diff)
		}
	})
	t.Run("spectator", func(t *testing.T) {
		_, err := f.svc.GetDrafts(ctx, chat.Actor{}, chat.GetDraftsParams{})
		wantError(t, err, chat.CodeUnauthorized, 401, "")
	})
	if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
		t.Errorf("events after refusals: %v", wireEvents(t, evs))
	}
}

func TestDraftsNormalization(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	long := strings.Repeat("é", drafts.MaxContentLength+5)
	topic := strings.Repeat("t", 70)
	ch := f.draftsChannel(t, "mine", true, "member")
	ids := f.mustCreateDrafts(t, "member", draft("stream", []int64{ch}, topic, long, 1))
	got := f.mustDrafts(t, "member")
	if len(got) != 1 || got[0].ID != ids[0] {
		t.Fatalf("drafts = %+v", got)
	}
	if n := len([]rune(got[0].Content)); n != drafts.MaxContentLength || !strings.HasSuffix(got[0].Content, "\n[message truncated]") {
		t.Errorf("content of %d code points, suffix %q", n, got[0].Content[len(got[0].Content)-25:])
	}
	if want := strings.Repeat("t", 57) + "..."; got[0].Topic != want {
		t.Errorf("topic = %q, want %q", got[0].Topic, want)
	}
}

func TestDraftsSynchronizationOff(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustCreateDrafts(t, "member", draft("", []int64{}, "", "a", -1), draft("", []int64{}, "", "b", -1))
	f.mustCreateDrafts(t, "admin", draft("", []int64{}, "", "c", -1))
	q := f.register(t, "member")
	if err := f.svc.SetDraftsSynchronization(ctx, f.ids["member"], false); err != nil {
		t.Fatal(err)
	}
	if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
		t.Errorf("turning synchronisation off sent events: %v", wireEvents(t, evs))
	}
	const msg = "User has disabled synchronizing drafts."
	_, err := f.svc.GetDrafts(ctx, f.actor("member"), chat.GetDraftsParams{})
	wantError(t, err, chat.CodeBadRequest, 400, msg)
	_, err = f.svc.CreateDrafts(ctx, f.actor("member"), chat.CreateDraftsParams{Drafts: []chat.DraftParams{draft("", []int64{}, "", "x", -1)}})
	wantError(t, err, chat.CodeBadRequest, 400, msg)
	_, err = f.svc.DeleteDraft(ctx, f.actor("member"), chat.DeleteDraftParams{DraftID: 1})
	wantError(t, err, chat.CodeBadRequest, 400, msg)
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"drafts"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.DraftsState == nil || res.DraftsState.Drafts == nil || len(*res.DraftsState.Drafts) != 0 {
		t.Errorf("register drafts with synchronisation off = %+v", res.DraftsState)
	}
	if got := f.mustDrafts(t, "admin"); len(got) != 1 {
		t.Errorf("another user's drafts were touched: %+v", got)
	}
	if err := f.svc.SetDraftsSynchronization(ctx, f.ids["member"], true); err != nil {
		t.Fatal(err)
	}
	if got := f.mustDrafts(t, "member"); len(got) != 0 {
		t.Errorf("drafts survived turning synchronisation off: %+v", got)
	}
}

func TestDraftsRegisterLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	list := make([]chat.DraftParams, drafts.MaxInRegister)
	for i := range list {
		list[i] = draft("", []int64{}, "", fmt.Sprint("d", i), float64(1000+i))
	}
	f.mustCreateDrafts(t, "member", list...)
	f.mustCreateDrafts(t, "member", draft("", []int64{}, "", "oldest", 1))
	res, err := f.svc.RegisterQueue(t.Context(), f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"drafts"}})
	if err != nil {
		t.Fatal(err)
	}
	got := *res.DraftsState.Drafts
	if len(got) != drafts.MaxInRegister || got[0].Content != fmt.Sprint("d", drafts.MaxInRegister-1) || got[len(got)-1].Content != "d0" {
		t.Errorf("register sent %d drafts, first %q last %q", len(got), got[0].Content, got[len(got)-1].Content)
	}
}

func TestDraftsFailedWrite(t *testing.T) {
	t.Parallel()
	faulty := storagetest.NewFaulty(memory.New())
	f := newFixtureOn(t, faulty)
	q := f.register(t, "member")
	boom := errors.New("disk on fire")
	faulty.FailWritesAfter(0, boom)
	_, err := f.svc.CreateDrafts(t.Context(), f.actor("member"), chat.CreateDraftsParams{Drafts: []chat.DraftParams{draft("", []int64{}, "", "x", -1)}})
	faulty.FailWritesAfter(-1, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("error = %v, want the storage failure", err)
	}
	if got := f.mustDrafts(t, "member"); len(got) != 0 {
		t.Errorf("drafts after a failed write: %+v", got)
	}
	if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
		t.Errorf("events after a failed write: %v", wireEvents(t, evs))
	}
}
