package chattest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/chattest"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

func ptr[T any](v T) *T { return &v }

// TestDevIsTheDevOrganization compares a fixture's organization, copied from the process's
// template, with the development organization built from scratch by seeds.Dev (as `chatserver
// serve --dev` builds it) at the same time and URL: the full registration state of an
// administrator and a guest, and every message, are the same.
func TestDevIsTheDevOrganization(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := chattest.New(t, chattest.Dev())

	store := memory.New()
	clock := chattest.NewClock(chattest.Epoch())
	svc, err := chat.New(chat.Options{Store: store, Now: clock.Now, Dev: true,
		PasswordHashing: chat.PasswordHashing{MemoryKiB: 8, Passes: 1, Threads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	accounts, err := seeds.Dev(seeds.DevPassword).Apply(ctx, svc, chattest.DefaultURL)
	if err != nil {
		t.Fatal(err)
	}
	if len(accounts) != len(f.Users()) {
		t.Errorf("seeds.Dev made %d accounts, the fixture has %d users", len(accounts), len(f.Users()))
	}
	for _, a := range accounts {
		u := f.User(a.Email)
		want := chattest.User{ID: a.ID, Email: a.Email, FullName: a.FullName, Role: a.Role, BotType: a.BotType,
			APIKey: a.APIKey, Password: a.Password}
		if diff := cmp.Diff(want, u); diff != "" {
			t.Errorf("User(%s) (-built +fixture):\n%s", a.Email, diff)
		}
	}
	for _, email := range []string{"iago@zulip.com", "polonius@zulip.com"} {
		id := f.User(email).ID
		got, err := f.Service.RegisterQueue(ctx, chat.Actor{UserID: id}, chat.RegisterQueueParams{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := svc.RegisterQueue(ctx, chat.Actor{UserID: id}, chat.RegisterQueueParams{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(jsonOf(t, want), jsonOf(t, got), ignoreKeys("queue_id")); diff != "" {
			t.Errorf("register as %s (-built +fixture):\n%s", email, diff)
		}
		get := chat.GetMessagesParams{Anchor: "oldest", NumAfter: 1000}
		gotMsgs, err := f.Service.GetMessages(ctx, chat.Actor{UserID: id}, get)
		if err != nil {
			t.Fatal(err)
		}
		wantMsgs, err := svc.GetMessages(ctx, chat.Actor{UserID: id}, get)
		if err != nil {
			t.Fatal(err)
		}
		if len(wantMsgs.Messages) == 0 {
			t.Errorf("%s sees no message in the built organization", email)
		}
		if diff := cmp.Diff(jsonOf(t, wantMsgs), jsonOf(t, gotMsgs)); diff != "" {
			t.Errorf("messages of %s (-built +fixture):\n%s", email, diff)
		}
	}
}

// jsonOf is v as generic JSON.
func jsonOf(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// ignoreKeys ignores these keys of JSON objects.
func ignoreKeys(keys ...string) cmp.Option {
	return cmpopts.IgnoreMapEntries(func(k string, _ any) bool {
		for _, x := range keys {
			if k == x {
				return true
			}
		}
		return false
	})
}

// TestFixturesAreIndependent runs fixtures in parallel: what one test writes, another never
// sees, and each starts from the same ids.
func TestFixturesAreIndependent(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"a", "b", "c", "d"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			f := chattest.New(t, chattest.Dev())
			hamlet := f.User("hamlet@zulip.com")
			before := newest(t, f, hamlet)
			sent, err := f.Service.SendMessage(ctx, hamlet.Actor(), chat.SendMessageParams{
				Type: "stream", ChannelName: "Denmark", Topic: ptr("fixture " + name), Content: "only in " + name,
			})
			if err != nil {
				t.Fatal(err)
			}
			if sent.ID != before.ID+1 {
				t.Errorf("new message id %d, want %d (the next id after the organization's)", sent.ID, before.ID+1)
			}
			if got := newest(t, f, hamlet); got.Content != "<p>only in "+name+"</p>" {
				t.Errorf("newest message %q, want this fixture's", got.Content)
			}
		})
	}
}

// newest is the newest message u can read.
func newest(t *testing.T, f *chattest.Fixture, u chattest.User) chat.MessageRecord {
	t.Helper()
	res, err := f.Service.GetMessages(t.Context(), u.Actor(), chat.GetMessagesParams{Anchor: "newest", NumBefore: 1})
	if err != nil || len(res.Messages) == 0 {
		t.Fatalf("GetMessages: %v (%d messages)", err, len(res.Messages))
	}
	return res.Messages[len(res.Messages)-1]
}

// TestClockIsTheServices: messages carry the fixture clock's time, which moves only when
// the test moves it.
func TestClockIsTheServices(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := chattest.New(t, chattest.Dev())
	iago := f.User("iago@zulip.com")
	send := func() int64 {
		t.Helper()
		if _, err := f.Service.SendMessage(ctx, iago.Actor(), chat.SendMessageParams{
			Type: "stream", ChannelName: "Verona", Topic: ptr("time"), Content: "tick",
		}); err != nil {
			t.Fatal(err)
		}
		return newest(t, f, iago).Timestamp
	}
	if got, want := send(), chattest.Epoch().Unix(); got != want {
		t.Errorf("first message at %d, want the epoch %d", got, want)
	}
	later := f.Clock.Advance(90 * time.Minute)
	if got := send(); got != later.Unix() {
		t.Errorf("after Advance: message at %d, want %d", got, later.Unix())
	}
	f.Clock.Set(chattest.Epoch().Add(24 * time.Hour))
	if got, want := f.Clock.Now(), chattest.Epoch().Add(24*time.Hour); !got.Equal(want) {
		t.Errorf("after Set: %v, want %v", got, want)
	}
}

// TestEmptyOrganization starts without users; AddUser provisions them with their passwords.
func TestEmptyOrganization(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := chattest.New(t)
	if got := f.Users(); len(got) != 0 {
		t.Fatalf("an empty organization has users: %+v", got)
	}
	ada := f.AddUser(chat.ProvisionUserParams{Email: "ada@example.com", FullName: "Ada", Role: users.RoleOwner, Password: "pw"})
	if ada.Password != "pw" || ada.APIKey == "" || ada.Role != users.RoleOwner {
		t.Errorf("AddUser = %+v", ada)
	}
	res, err := f.Service.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "ada@example.com", Password: "pw"})
	if err != nil {
		t.Fatalf("login with the password: %v", err)
	}
	if res.APIKey != ada.APIKey {
		t.Errorf("login gave key %q, want %q", res.APIKey, ada.APIKey)
	}
	if _, err := f.LookupUser("nobody@example.com"); err == nil {
		t.Error("LookupUser found an unknown email")
	}
}

// TestDevLogin logs in with the development password and through dev_fetch_api_key.
func TestDevLogin(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := chattest.New(t, chattest.Dev())
	hamlet := f.User("Hamlet@Zulip.com")
	if hamlet.Password != seeds.DevPassword || hamlet.APIKey != seeds.DevAPIKey("hamlet@zulip.com", seeds.DevPassword) {
		t.Errorf("hamlet = %+v", hamlet)
	}
	login, err := f.Service.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: hamlet.Email, Password: hamlet.Password})
	if err != nil || login.UserID != hamlet.ID {
		t.Errorf("FetchAPIKey = %+v, %v", login, err)
	}
	if _, err := f.Service.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: "nobody@zulip.com", Password: "x"}); err == nil {
		t.Error("login of an unknown user succeeded")
	}
	dev, err := f.Service.DevFetchAPIKey(ctx, chat.DevFetchAPIKeyParams{Username: "iago@zulip.com"})
	if err != nil || dev.APIKey != f.User("iago@zulip.com").APIKey {
		t.Errorf("DevFetchAPIKey = %+v, %v", dev, err)
	}
}

// TestServer serves the API at the organization's URL with the users' keys, and writes a
// zuliprc for them.
func TestServer(t *testing.T) {
	t.Parallel()
	s := chattest.NewServer(t, chattest.Dev())
	iago := s.User("iago@zulip.com")
	req, err := http.NewRequest("GET", s.URL+"/api/v1/users/me", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(iago.Email, iago.APIKey)
	resp, err := s.HTTP.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var me struct {
		UserID   users.ID `json:"user_id"`
		FullName string   `json:"full_name"`
		IsAdmin  bool     `json:"is_admin"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&me); err != nil {
		t.Fatal(err)
	}
	if want := (struct {
		UserID   users.ID `json:"user_id"`
		FullName string   `json:"full_name"`
		IsAdmin  bool     `json:"is_admin"`
	}{iago.ID, "Iago", true}); me != want {
		t.Errorf("GET /users/me = %+v, want %+v", me, want)
	}
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Errorf("URL = %q", s.URL)
	}
	settings, err := s.Service.GetServerSettings(t.Context(), chat.GetServerSettingsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if settings.RealmURL != s.URL {
		t.Errorf("realm_url = %q, want the server's URL %q", settings.RealmURL, s.URL)
	}
	want := "[api]\nemail=iago@zulip.com\nkey=" + iago.APIKey + "\nsite=" + s.URL + "\n"
	if diff := cmp.Diff(want, s.Zuliprc("IAGO@zulip.com")); diff != "" {
		t.Errorf("Zuliprc (-want +got):\n%s", diff)
	}
}
