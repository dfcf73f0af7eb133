package chat_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// The consistency harness checks, for every mutating operation, that a client's register
// snapshot plus the events it receives equals a fresh register: what Zulip's own event tests
// check. Snapshots are compared as JSON, the form clients see, and events are applied by a
// test-side applier (applier_test.go) written from Zulip's documented event semantics.

// consistencyViewers are the users whose view is checked for every operation.
var consistencyViewers = []string{"owner", "admin", "member", "guest", "bot"}

// consistencyCase is one mutating operation of the Service.
type consistencyCase struct {
	// method is the Service method the case exercises.
	method string
	// name tells variants of one method apart.
	name string
	// setup prepares state before the queues are registered (optional).
	setup func(t *testing.T, f *fixture)
	// run performs the operation.
	run func(t *testing.T, f *fixture)
	// options adjusts the Service's Options (optional).
	options func(*chat.Options)
}

// consistencyCases lists a case for every mutating operation. TestConsistencyCoverage fails when
// an exported mutating method of the Service has none.
func consistencyCases() []consistencyCase {
	cases := []consistencyCase{
		{method: "ProvisionUser", name: "member", run: func(t *testing.T, f *fixture) {
			mustProvision(t, f, chat.ProvisionUserParams{Email: "new@example.com", FullName: "New Member"})
		}},
		{method: "ProvisionUser", name: "guest with visible email", run: func(t *testing.T, f *fixture) {
			mustProvision(t, f, chat.ProvisionUserParams{Email: "g2@example.com", FullName: "Guest Two", Role: 600, EmailVisibility: 1})
		}},
		{method: "ProvisionUser", name: "bot", run: func(t *testing.T, f *fixture) {
			mustProvision(t, f, chat.ProvisionUserParams{Email: "b2@example.com", FullName: "Bot Two", BotType: 1, BotOwnerID: f.ids["member"]})
		}},
	}
	// One line per area:
	cases = append(cases, usersConsistencyCases()...)
	cases = append(cases, channelsConsistencyCases()...)
	cases = append(cases, draftsConsistencyCases()...)
	cases = append(cases, messagesConsistencyCases()...)
	cases = append(cases, messageEditConsistencyCases()...)
	cases = append(cases, snippetsAndViewsConsistencyCases()...)
	cases = append(cases, linkifiersConsistencyCases()...)
	cases = append(cases, invitesConsistencyCases()...)
	cases = append(cases, alertWordsConsistencyCases()...)
	cases = append(cases, onboardingConsistencyCases()...)
	cases = append(cases, deactivationConsistencyCases()...)
	cases = append(cases, presenceConsistencyCases()...)
	cases = append(cases, uploadsConsistencyCases()...)
	cases = append(cases, avatarConsistencyCases()...)
	cases = append(cases, scheduledConsistencyCases()...)
	cases = append(cases, realmSettingsConsistencyCases()...)
	cases = append(cases, devicesConsistencyCases()...)
	cases = append(cases, peopleConsistencyCases()...)
	cases = append(cases, profileAndFolderConsistencyCases()...)
	cases = append(cases, selfDeactivationConsistencyCases()...)
	cases = append(cases, botsConsistencyCases()...)
	cases = append(cases, emailInvitesConsistencyCases()...)
	cases = append(cases, interactConsistencyCases()...)
	cases = append(cases, reportMessageConsistencyCases()...)
	cases = append(cases, serviceBotsConsistencyCases()...)
	cases = append(cases, notifyConsistencyCases()...)
	cases = append(cases, welcomeConsistencyCases()...)
	cases = append(cases, emailGatewayConsistencyCases()...)
	cases = append(cases, inviteEditConsistencyCases()...)
	return cases
}

func mustProvision(t *testing.T, f *fixture, p chat.ProvisionUserParams) chat.ProvisionUserResult {
	t.Helper()
	res, err := f.svc.ProvisionUser(t.Context(), p)
	if err != nil {
		t.Fatalf("ProvisionUser(%s): %v", p.Email, err)
	}
	return res
}

// snapshot registers a queue for name and returns the queue id and the state as JSON values.
func snapshot(t *testing.T, f *fixture, name string) (string, map[string]any) {
	t.Helper()
	res, err := f.svc.RegisterQueue(t.Context(), f.actor(name), chat.RegisterQueueParams{
		ClientCapabilities: allCapabilities, SlimPresence: true,
	})
	if err != nil {
		t.Fatalf("register %s: %v", name, err)
	}
	state := toJSONMap(t, res)
	delete(state, "queue_id")
	delete(state, "last_event_id")
	// Read-time values rather than state: when the presence data was read and the cursor a
	// client keeps for its next presence poll (events do not carry it).
	delete(state, "server_timestamp")
	delete(state, "presence_last_update_id")
	return *res.QueueID, state
}

// allCapabilities is what modern clients declare.
var allCapabilities = chat.ClientCapabilities{
	NotificationSettingsNull: true, BulkMessageDeletion: true, UserAvatarURLFieldOptional: false,
	StreamTypingNotifications: true, UserSettingsObject: true, LinkifierURLTemplate: true,
	UserListIncomplete: true, IncludeDeactivatedGroups: true, ArchivedChannels: true,
	EmptyTopicName: true, SimplifiedPresenceEvents: true,
}

func toJSONMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestConsistency(t *testing.T) {
	t.Parallel()
	for _, c := range consistencyCases() {
		t.Run(c.method+"/"+c.name, func(t *testing.T) {
			t.Parallel()
			var opts []func(*chat.Options)
			if c.options != nil {
				opts = append(opts, c.options)
			}
			f := newFixture(t, opts...)
			if c.setup != nil {
				c.setup(t, f)
			}
			queues := map[string]string{}
			states := map[string]map[string]any{}
			for _, v := range consistencyViewers {
				if !f.isActive(t, v) {
					continue
				}
				queues[v], states[v] = snapshot(t, f, v)
				warmSubscriptionList(t, f, v)
			}
			sessions := startSessions(t, f)
			before := authenticateAll(t, f, sessions)
			c.run(t, f)
			checkCredentialCache(t, f, sessions, before)
			for _, v := range consistencyViewers {
				if queues[v] == "" {
					continue
				}
				if !f.isActive(t, v) {
					// A deactivated user's queues end with the deactivation.
					_, err := f.svc.GetEvents(t.Context(), f.actor(v), chat.GetEventsParams{QueueID: queues[v], LastEventID: ptr(int64(-1)), DontBlock: true})
					if err == nil {
						t.Errorf("%s: deactivated, yet their queue still answers", v)
					}
					continue
				}
				events := f.poll(t, v, queues[v], -1, true)
				got := states[v]
				for _, e := range eventJSON(t, events) {
					applyEvent(t, got, e, f.ids[v])
					if e["type"] == "delete_message" {
						refreshAfterDelete(t, f, v, got, e)
					}
				}
				_, want := snapshot(t, f, v)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s: register state + events differs from a fresh register (-fresh +applied):\n%s", v, diff)
				}
				checkSubscriptionList(t, f, v, want["subscriptions"])
			}
		})
	}
}

// checkSubscriptionList holds GET /users/me/subscriptions (whose world is the store's
// shared list, loadWorldShared) to the subscriptions of a fresh register after the mutation.
func checkSubscriptionList(t *testing.T, f *fixture, name string, fresh any) {
	t.Helper()
	res, err := f.svc.GetSubscriptions(t.Context(), f.actor(name), chat.GetSubscriptionsParams{})
	if err != nil {
		t.Fatalf("%s: GetSubscriptions: %v", name, err)
	}
	b, err := res.AppendJSON(nil) // the wire's encoding, through the Service's record cache
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fresh, got["subscriptions"]); diff != "" {
		t.Errorf("%s: GET /users/me/subscriptions differs from a fresh register's subscriptions (-register +get):\n%s", name, diff)
	}
}

// warmSubscriptionList encodes GET /users/me/subscriptions before the mutation, so that the
// Service's cache of channel records' JSON holds them and checkSubscriptionList finds any it
// writes stale after the mutation.
func warmSubscriptionList(t *testing.T, f *fixture, name string) {
	t.Helper()
	res, err := f.svc.GetSubscriptions(t.Context(), f.actor(name), chat.GetSubscriptionsParams{})
	if err != nil {
		t.Fatalf("%s: GetSubscriptions: %v", name, err)
	}
	if _, err := res.AppendJSON(nil); err != nil {
		t.Fatal(err)
	}
}

// credential is an email and API key pair, or a web session's id, and what authenticating
// with it gave.
type credential struct {
	email, key string
	session    string
	user       users.ID
	err        string
}

// startSessions starts a web session for every stored user who may log in, and returns their
// ids.
func startSessions(t *testing.T, f *fixture) []string {
	t.Helper()
	var ids []string
	for _, u := range storedUsers(t, f) {
		s, err := f.svc.StartSession(t.Context(), chat.Actor{UserID: u.ID})
		if err == nil {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

func storedUsers(t *testing.T, f *fixture) []users.User {
	t.Helper()
	var list []users.User
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		var err error
		list, err = tx.Users().List()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// authenticateAll authenticates every stored user with their current email and key, and each
// of the given sessions (which fills the Service's credential cache), and returns the
// credentials with their answers.
func authenticateAll(t *testing.T, f *fixture, sessions []string) []credential {
	t.Helper()
	var out []credential
	for _, u := range storedUsers(t, f) {
		out = append(out, authenticate(t, f, credential{email: u.Email, key: u.APIKey}))
	}
	for _, id := range sessions {
		out = append(out, authenticate(t, f, credential{session: id}))
	}
	return out
}

// authenticate authenticates c's email and key, or its session, and returns c with the answer.
func authenticate(t *testing.T, f *fixture, c credential) credential {
	t.Helper()
	var actor chat.Actor
	var err error
	if c.session != "" {
		actor, err = f.svc.AuthenticateSession(t.Context(), c.session)
	} else {
		actor, err = f.svc.AuthenticateAPIKey(t.Context(), c.email, c.key)
	}
	c.user, c.err = actor.UserID, ""
	if err != nil {
		c.err = err.Error()
	}
	return c
}

// checkCredentialCache checks, after a mutation, that every credential valid before it or
// after it (an email and API key pair, a session) authenticates as it would with an empty
// cache: the mutation kept the cache exact.
func checkCredentialCache(t *testing.T, f *fixture, sessions []string, before []credential) {
	t.Helper()
	var got []credential
	for _, p := range before { // first: a fresh pair's success would refill the cache
		got = append(got, authenticate(t, f, p))
	}
	after := authenticateAll(t, f, sessions)
	got = append(got, after...)
	pairs := append(append([]credential{}, before...), after...)
	f.svc.ForgetCredentials()
	for i, p := range pairs {
		want := authenticate(t, f, p)
		if diff := cmp.Diff(want, got[i], cmp.AllowUnexported(credential{})); diff != "" {
			t.Errorf("authenticating %s%s after the mutation: the cached answer differs from the store's (-store +cached):\n%s", p.email, p.session, diff)
		}
	}
}

// refreshAfterDelete re-reads, after a deletion, what Zulip's own event application re-reads
// from the server: max_message_id (deleting the newest message lowers it; clients read it from
// GET /users/me) and, for direct messages, recent_private_conversations.
func refreshAfterDelete(t *testing.T, f *fixture, name string, state, ev map[string]any) {
	t.Helper()
	if _, ok := state["max_message_id"]; ok {
		me, err := f.svc.GetOwnUser(t.Context(), f.actor(name), chat.UserQueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		state["max_message_id"] = float64(me.MaxMessageID)
	}
	if _, ok := state["recent_private_conversations"]; ok && ev["message_type"] == "private" {
		_, fresh := snapshot(t, f, name)
		state["recent_private_conversations"] = fresh["recent_private_conversations"]
	}
}

// isActive reports whether the named fixture user is active.
func (f *fixture) isActive(t *testing.T, name string) bool {
	t.Helper()
	var active bool
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		u, err := tx.Users().Get(f.ids[name])
		active = u.IsActive
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return active
}

// notMutating lists the exported Service methods that change no state a client sees through
// register (reads, authentication, queue management, lifecycle), with the reason. Methods
// named Get* are reads too.
var notMutating = map[string]string{
	"AuthenticateAPIKey":            "authentication",
	"AuthenticateWebhookAPIKey":     "authentication",
	"FetchAPIKey":                   "authentication (rate-limit history only)",
	"JWTFetchAPIKey":                "authentication",
	"DevFetchAPIKey":                "authentication",
	"StartSession":                  "authentication (web sessions are not part of register)",
	"StartSessionWithPassword":      "authentication (web sessions are not part of register)",
	"AuthenticateSession":           "authentication",
	"EndSession":                    "logout (web sessions are not part of register)",
	"DevListUsers":                  "read",
	"RegisterQueue":                 "creates the queue the harness itself uses",
	"DeleteQueue":                   "queue management",
	"EventsResult":                  "read (the answer of GetEventsAsync's long-poll)",
	"CountAPIRequest":               "rate limiting",
	"QueueStats":                    "monitoring read",
	"CreateOrganization":            "bootstraps an empty store; no client exists yet",
	"CreateZoomVideoCall":           "no provider is configured: it only refuses",
	"CreateWebexVideoCall":          "no provider is configured: it only refuses",
	"CreateBigBlueButtonVideoCall":  "signs a link; stores nothing",
	"JoinBigBlueButtonVideoCall":    "no BigBlueButton server is configured: it only refuses",
	"Close":                         "lifecycle",
	"Now":                           "clock read",
	"MaxUploadBytes":                "configuration",
	"GetAvatarImage":                "read",
	"SweepUploads":                  "removes only bytes that no row references; changes no state",
	"StartScheduler":                "lifecycle (runs DeliverScheduledMessages in the background)",
	"HandleEmbeddedBot":             "registers in-process code for a bot; stores nothing",
	"SetDraftsSynchronization":      "test-only hook (export_test.go) standing in for PATCH /settings",
	"ForgetCredentials":             "drops a cache (after writes behind the Service's back)",
	"AppendRegisterJSON":            "encodes a register result",
	"HoldWrites":                    "test-only hook (export_test.go): holds the write lock",
	"WaitingWrites":                 "test-only read (export_test.go)",
	"SharedCommits":                 "test-only read (export_test.go)",
	"Prerendered":                   "test-only read (export_test.go)",
	"LeadingAlone":                  "test-only read (export_test.go)",
	"PanickingMutation":             "test-only hook (export_test.go): its write is always undone",
	"RenderMessage":                 "renders; stores nothing",
	"CheckMessagesMatchNarrow":      "read",
	"ExportRealm":                   "data exports are no part of register (realm_export events carry the whole list; transfer's TestRealmExportAPI)",
	"DeleteRealmExport":             "data exports are no part of register (realm_export events carry the whole list; transfer's TestRealmExportAPI)",
	"AuthenticateAPIKeyFrom":        "authentication (failure-limit history only)",
	"AuthenticateWebhookAPIKeyFrom": "authentication (failure-limit history only)",
	"CachedAPIKey":                  "authentication from memory: reads nothing",
	"AuthenticationStats":           "process counters",
	"SendTestEmail":                 "sends an email, stores nothing",
	"ArchiveMessages":               "retention: Zulip sends no events for it (clients see it on reload); TestMessageRetention checks none is sent",
	"RestoreArchive":                "retention: Zulip sends no events for it; TestMessageRetention checks none is sent",
}

// TestConsistencyCoverage fails for every mutating Service method without a consistency case.
func TestConsistencyCoverage(t *testing.T) {
	t.Parallel()
	covered := map[string]bool{}
	for _, c := range consistencyCases() {
		covered[c.method] = true
	}
	typ := reflect.TypeOf(&chat.Service{})
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		if strings.HasPrefix(name, "Get") || notMutating[name] != "" || covered[name] {
			continue
		}
		t.Errorf("Service.%s has no consistency case (add one to the area's *ConsistencyCases, or to notMutating with the reason)", name)
	}
	for name := range covered {
		if _, ok := typ.MethodByName(name); !ok {
			t.Errorf("consistency case for unknown method %s", name)
		}
	}
}

// errOf drops an operation's result, keeping its error.
func errOf[T any](_ T, err error) error { return err }

// mustDo fails the test when an operation fails.
func mustDo(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
