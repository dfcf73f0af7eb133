package seeds_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

func newSeededService(t *testing.T, seed *seeds.Seed) *chat.Service {
	t.Helper()
	store := memory.New()
	svc, err := chat.New(chat.Options{Store: store, Dev: true, PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	if _, err := seed.Apply(t.Context(), svc, "http://localhost:9991"); err != nil {
		t.Fatalf("apply: %v", err)
	}
	return svc
}

func TestDevSeedChannelsAndGroups(t *testing.T) {
	t.Parallel()
	svc := newSeededService(t, seeds.Dev(seeds.DevPassword))
	ctx := t.Context()
	zoe, err := svc.DevFetchAPIKey(ctx, chat.DevFetchAPIKeyParams{Username: "ZOE@zulip.com"})
	if err != nil {
		t.Fatal(err)
	}
	subs, err := svc.GetSubscriptions(ctx, chat.Actor{UserID: zoe.UserID}, chat.GetSubscriptionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range subs.Subscriptions {
		names = append(names, s.Name)
	}
	if want := []string{"Denmark", "Rome", "Scotland", "Venice", "Verona"}; !slices.Equal(names, want) {
		t.Errorf("ZOE's subscriptions = %v, want %v", names, want)
	}
	groups, err := svc.GetUserGroups(ctx, chat.Actor{UserID: zoe.UserID}, chat.GetUserGroupsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(groups.UserGroups, func(g chat.UserGroupRecord) bool {
		return g.Name == "hamletcharacters" && len(g.Members) == 2
	}) {
		t.Errorf("hamletcharacters with two members missing from %+v", groups.UserGroups)
	}
}

func TestSeedRefusesUnknownSubscriber(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "seed.json")
	if err := os.WriteFile(path, []byte(`{"organization":{"name":"Acme"},
		"users":[{"email":"ada@acme.test","full_name":"Ada","role":100}],
		"channels":[{"name":"general","subscribers":["nobody@acme.test"]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	seed, err := seeds.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	store := memory.New()
	svc, err := chat.New(chat.Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { svc.Close(); store.Close() }()
	if _, err := seed.Apply(t.Context(), svc, "http://acme.test"); err == nil {
		t.Fatal("a seed naming an unknown subscriber was applied")
	}
}

// TestApplyReturnsAccounts checks the accounts Apply reports against the Service, and that a
// second Apply on the same store changes nothing and says why.
func TestApplyReturnsAccounts(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	seed := &seeds.Seed{
		Organization: seeds.Organization{Name: "Acme"},
		Users: []seeds.User{
			{Email: "Ada@acme.test", FullName: "Ada", Role: users.RoleOwner, Password: "pw", APIKey: seeds.DevAPIKey("ada@acme.test", "pw")},
			{Email: "bob@acme.test", FullName: "Bob"},
		},
		Bots: []seeds.Bot{{Email: "build-bot@acme.test", FullName: "Build", Owner: "ada@acme.test"}},
	}
	store := memory.New()
	svc, err := chat.New(chat.Options{Store: store, PasswordHashing: chat.PasswordHashing{MemoryKiB: 8, Passes: 1, Threads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close(); store.Close() })
	accounts, err := seed.Apply(ctx, svc, "http://acme.test")
	if err != nil {
		t.Fatal(err)
	}
	var got []seeds.Account
	for _, a := range accounts {
		login, err := svc.FetchAPIKey(ctx, chat.FetchAPIKeyParams{Username: a.Email, Password: a.Password})
		if a.Password != "" && (err != nil || login.APIKey != a.APIKey || login.UserID != a.ID) {
			t.Errorf("login of %s = %+v, %v; want key %s, id %d", a.Email, login, err, a.APIKey, a.ID)
		}
		if a.APIKey == "" || a.ID == 0 {
			t.Errorf("account %s has no key or id: %+v", a.Email, a)
		}
		a.ID, a.APIKey = 0, ""
		got = append(got, a)
	}
	want := []seeds.Account{
		{Email: "Ada@acme.test", FullName: "Ada", Role: users.RoleOwner, Password: "pw"},
		{Email: "bob@acme.test", FullName: "Bob", Role: users.RoleMember},
		{Email: "build-bot@acme.test", FullName: "Build", Role: users.RoleMember, BotType: users.BotGeneric},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("accounts (-want +got):\n%s", diff)
	}
	if accounts[0].APIKey != seeds.DevAPIKey("ada@acme.test", "pw") {
		t.Errorf("Ada's key %q is not the seed's", accounts[0].APIKey)
	}
	if !seed.HasFixedAPIKey("ADA@acme.test") || seed.HasFixedAPIKey("bob@acme.test") || seed.HasFixedAPIKey("nobody@acme.test") {
		t.Error("HasFixedAPIKey does not follow the seed's api_key fields")
	}
	if _, err := seed.Apply(ctx, svc, "http://acme.test"); !errors.Is(err, chat.ErrOrganizationExists) {
		t.Errorf("second Apply: %v, want chat.ErrOrganizationExists", err)
	}
}

// TestSeedFileSettings loads a seed file whose settings hold numbers (JSON numbers become the
// integers the Service takes) and checks them through register.
func TestSeedFileSettings(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "seed.json")
	if err := os.WriteFile(path, []byte(`{"organization":{"name":"Acme",
		"settings":{"digest_weekday":3,"enable_read_receipts":true},"user_defaults":{"web_font_size_px":18}},
		"users":[{"email":"ada@acme.test","full_name":"Ada","role":100,"settings":{"web_line_height_percent":150}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	seed, err := seeds.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	svc := newSeededService(t, seed)
	accounts, err := svc.DevFetchAPIKey(t.Context(), chat.DevFetchAPIKeyParams{Username: "ada@acme.test"})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := svc.RegisterQueue(t.Context(), chat.Actor{UserID: accounts.UserID}, chat.RegisterQueueParams{
		FetchEventTypes: []string{"realm", "user_settings", "realm_user_settings_defaults"}})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(reg)
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		DigestWeekday int  `json:"realm_digest_weekday"`
		ReadReceipts  bool `json:"realm_enable_read_receipts"`
		Settings      struct {
			LineHeight int `json:"web_line_height_percent"`
		} `json:"user_settings"`
		Defaults struct {
			FontSize int `json:"web_font_size_px"`
		} `json:"realm_user_settings_defaults"`
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	if state.DigestWeekday != 3 || !state.ReadReceipts || state.Settings.LineHeight != 150 || state.Defaults.FontSize != 18 {
		t.Errorf("settings after the seed = %+v", state)
	}
}
