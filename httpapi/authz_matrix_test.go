package httpapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// Adding an endpoint? Add a row to matrixRows with the status each kind of caller gets (use
// the outcome helpers); give the row a setup when the call needs state to exist first.
//
// The authorization matrix calls every route as each kind of caller and checks the HTTP status
// against the table below. A route of the routing table without a row fails the test, so a new
// endpoint cannot ship without its authorization rules being written down. Every refusal must
// change nothing: the state the owner and the member see through a fresh register is compared
// before and after.

// callers are the kinds of caller, each a user of the matrix organization (anonymous has none).
var callers = []string{"anonymous", "owner", "admin", "moderator", "member", "guest", "bot", "deactivated"}

// outcome is the expected status per caller; callers absent from the map get fallback.
type outcome struct {
	byCaller map[string]int
	fallback int
}

// Outcome shorthands. authenticated: every active user; the rest refuse anonymous and
// deactivated callers with 401 (authentication) and other callers with 400 (Zulip's
// JsonableError for a missing permission).
func everyone(status int) outcome { return outcome{fallback: status} }

func authenticated() outcome {
	return outcome{byCaller: map[string]int{"anonymous": 401, "deactivated": 401}, fallback: 200}
}

func only(roles ...string) outcome {
	o := outcome{byCaller: map[string]int{"anonymous": 401, "deactivated": 401}, fallback: 400}
	for _, r := range roles {
		o.byCaller[r] = 200
	}
	return o
}

func (o outcome) except(caller string, status int) outcome {
	m := map[string]int{}
	for k, v := range o.byCaller {
		m[k] = v
	}
	m[caller] = status
	return outcome{byCaller: m, fallback: o.fallback}
}

// notFoundForOthers: the record belongs to one caller, and for the others it does not exist
// (404, as Zulip's ResourceNotFoundError).
func (o outcome) notFoundForOthers() outcome {
	o.fallback = 404
	return o
}

func (o outcome) want(caller string) int {
	if s, ok := o.byCaller[caller]; ok {
		return s
	}
	return o.fallback
}

// matrixRow is one call. Path and params may use {owner}, {member}, ... for user ids.
type matrixRow struct {
	method, path string
	params       map[string]string
	want         outcome
	// setup prepares state the call needs (as a trusted server-side step).
	setup func(t *testing.T, m *matrixOrg)
	// file, when set, is sent as the file part of a multipart body (with params as fields).
	file string
}

// membersButGuests is the outcome of actions open to every non-guest user.
var membersButGuests = only("owner", "admin", "moderator", "member", "bot")

func matrixRows() []matrixRow {
	return append([]matrixRow{
		{method: "GET", path: "server_settings", want: everyone(200)},
		{method: "POST", path: "fetch_api_key", params: map[string]string{"username": "member@matrix.test", "password": "wrong password"}, want: everyone(401)},
		{method: "POST", path: "jwt/fetch_api_key", params: map[string]string{"token": "x"}, want: everyone(400)},
		{method: "POST", path: "dev_fetch_api_key", params: map[string]string{"username": "member@matrix.test"}, want: everyone(200)},
		{method: "GET", path: "dev_list_users", want: everyone(200)},
		{method: "POST", path: "register", want: authenticated()},
		{method: "GET", path: "events", params: map[string]string{"dont_block": "true"}, want: authenticated()},
		{method: "DELETE", path: "events", params: map[string]string{"queue_id": "no-such-queue"}, want: authenticated().except("owner", 400).except("admin", 400).except("moderator", 400).except("member", 400).except("guest", 400).except("bot", 400)},
		{method: "POST", path: "users/me/api_key/regenerate", want: authenticated()},
		{method: "GET", path: "users", want: authenticated()},
		// Creating users also needs the can_create_users special permission, which nobody holds here.
		{method: "POST", path: "users", params: map[string]string{"email": "new@matrix.test", "password": "a long password", "full_name": "New"}, want: only()},
		{method: "GET", path: "users/me", want: authenticated()},
		{method: "GET", path: "users/{member}", want: authenticated()},
		{method: "PATCH", path: "users/{member}", params: map[string]string{"full_name": "Renamed"}, want: only("owner", "admin")},
		{method: "DELETE", path: "users/{member}", want: only("owner", "admin")},
		{method: "POST", path: "users/{deactivated}/reactivate", want: only("owner", "admin")},
		{method: "POST", path: "bots", params: map[string]string{"full_name": "Helper Bot", "short_name": "helper"}, want: only("owner", "admin", "moderator", "member")},
		{method: "PATCH", path: "settings", params: map[string]string{"enter_sends": "true"}, want: authenticated().except("bot", 400)},
		{method: "PATCH", path: "settings/notifications", params: map[string]string{"enable_sounds": "false"}, want: authenticated().except("bot", 400)},
		{method: "PATCH", path: "settings/display", params: map[string]string{"enter_sends": "true"}, want: authenticated().except("bot", 400)},
		{method: "GET", path: "realm/profile_fields", want: authenticated()},
		{method: "POST", path: "realm/profile_fields", params: map[string]string{"name": "Phone", "field_type": "1"}, want: only("owner", "admin")},
		{method: "PATCH", path: "users/me/profile_data", setup: phoneField, params: map[string]string{"data": `[{"id":1,"value":"123"}]`}, want: authenticated().except("bot", 400)},
		{method: "DELETE", path: "users/me/profile_data", setup: phoneField, params: map[string]string{"data": `[1]`}, want: authenticated().except("bot", 400)},
		// Bot storage is for bots only (feature level 494).
		{method: "GET", path: "bot_storage", want: only("bot")},
		{method: "PUT", path: "bot_storage", params: map[string]string{"storage": `{"k": "v"}`}, want: only("bot")},
		{method: "DELETE", path: "bot_storage", want: only("bot")},
		{method: "GET", path: "users/me/alert_words", want: authenticated()},
		{method: "POST", path: "users/me/alert_words", params: map[string]string{"alert_words": `["lunch"]`}, want: authenticated()},
		{method: "DELETE", path: "users/me/alert_words", params: map[string]string{"alert_words": `["lunch"]`}, want: authenticated()},
		{method: "POST", path: "users/me/onboarding_steps", params: map[string]string{"onboarding_step": "intro_resolve_topic"}, want: humansOnly()},
		{method: "POST", path: "users/me/presence", params: map[string]string{"status": "active"}, want: authenticated().except("bot", 400)},
		{method: "GET", path: "realm/presence", want: authenticated()},
		{method: "GET", path: "realm/domains", want: authenticated()},
		{method: "GET", path: "export/realm", want: only("owner", "admin")},
		{method: "POST", path: "export/realm", params: map[string]string{"export_type": "1"}, want: only("owner", "admin")},
		{method: "DELETE", path: "export/realm/999", want: only()}, // no such export: 400 for administrators too
		{method: "GET", path: "export/realm/consents", want: only("owner", "admin")},
		{method: "POST", path: "register_client_device", want: humansOnly()},
		{method: "POST", path: "remove_client_device", setup: ownDevice, params: map[string]string{"device_id": "1"}, want: only("owner")},
		{method: "POST", path: "mobile_push/register", params: pushRegistration, want: only()},
		{method: "POST", path: "users/me/apns_device_token", params: map[string]string{"token": "abcdef"}, want: humansOnly()},
		{method: "DELETE", path: "users/me/apns_device_token", setup: ownToken("apns_device_token"), params: map[string]string{"token": "abcdef"}, want: only("owner")},
		{method: "POST", path: "users/me/android_gcm_reg_id", params: map[string]string{"token": "abcdef"}, want: humansOnly()},
		{method: "DELETE", path: "users/me/android_gcm_reg_id", setup: ownToken("android_gcm_reg_id"), params: map[string]string{"token": "abcdef"}, want: only("owner")},
		{method: "POST", path: "realm/domains", params: map[string]string{"domain": "acme.test", "allow_subdomains": "false"}, want: only("owner")},
		{method: "PATCH", path: "realm/domains/example.org", setup: ownerDomain, params: map[string]string{"allow_subdomains": "true"}, want: only("owner")},
		{method: "DELETE", path: "realm/domains/example.org", setup: ownerDomain, want: only("owner")},
		{method: "PATCH", path: "realm/user_settings_defaults", params: map[string]string{"enter_sends": "true"}, want: only("owner", "admin")},
		{method: "GET", path: "users/{member}/presence", setup: memberPresence, want: authenticated()},
		{method: "GET", path: "drafts", want: authenticated()},
		{method: "POST", path: "drafts", params: map[string]string{"drafts": `[{"type":"","to":[],"topic":"","content":"hi"}]`}, want: authenticated()},
		{method: "PATCH", path: "drafts/1", setup: memberDraft, params: map[string]string{"draft": `{"type":"","to":[],"topic":"","content":"edited"}`}, want: only("member").notFoundForOthers()},
		{method: "DELETE", path: "drafts/1", setup: memberDraft, want: only("member").notFoundForOthers()},
		{method: "GET", path: "scheduled_messages", want: authenticated()},
		{method: "POST", path: "scheduled_messages", params: map[string]string{"type": "direct", "to": "[{owner}]", "content": "later", "scheduled_delivery_timestamp": "4000000000"}, want: authenticated()},
		{method: "PATCH", path: "scheduled_messages/1", setup: memberScheduled, params: map[string]string{"content": "edited"}, want: only("member").notFoundForOthers()},
		{method: "DELETE", path: "scheduled_messages/1", setup: memberScheduled, want: only("member").notFoundForOthers()},
		{method: "GET", path: "reminders", want: authenticated()},
		{method: "POST", path: "reminders", setup: memberDirectMessage, params: map[string]string{"message_id": "1", "scheduled_delivery_timestamp": "4000000000"}, want: only("member", "admin")},
		{method: "DELETE", path: "reminders/1", setup: memberReminder, want: only("member").notFoundForOthers()},
		{method: "POST", path: "users/me/subscriptions", params: map[string]string{"subscriptions": `[{"name":"matrix"}]`}, want: membersButGuests},
		{method: "GET", path: "users/me/subscriptions", want: authenticated()},
		{method: "PATCH", path: "realm", params: map[string]string{"new_stream_announcements_stream_id": "-1"}, want: only("owner", "admin")},
		{method: "PATCH", path: "realm", params: map[string]string{"enable_read_receipts": "true", "video_chat_provider": "0"}, want: only("owner", "admin")},
		{method: "PATCH", path: "realm", params: map[string]string{"message_retention_days": `"unlimited"`, "invite_required": "false"}, want: only("owner")},
		{method: "PATCH", path: "users/me/subscriptions", params: map[string]string{"add": `[{"name":"matrix"}]`, "delete": `[]`}, want: membersButGuests},
		{method: "POST", path: "channels/create", params: map[string]string{"name": "matrix", "subscribers": "[]"}, want: membersButGuests},
		{method: "GET", path: "streams", want: authenticated()},
		{method: "GET", path: "saved_snippets", want: authenticated()},
		{method: "POST", path: "saved_snippets", params: map[string]string{"title": "t", "content": "c"}, want: authenticated()},
		{method: "PATCH", path: "saved_snippets/1", setup: memberSnippet, params: map[string]string{"title": "t2"}, want: only("member").notFoundForOthers()},
		{method: "DELETE", path: "saved_snippets/1", setup: memberSnippet, want: only("member").notFoundForOthers()},
		{method: "GET", path: "navigation_views", want: authenticated()},
		{method: "POST", path: "navigation_views", params: map[string]string{"fragment": "narrow/channel/1-matrix", "is_pinned": "true", "name": "Matrix"}, want: authenticated()},
		{method: "PATCH", path: "navigation_views/narrow/channel/1-matrix", setup: memberView, params: map[string]string{"is_pinned": "false"}, want: only("member").notFoundForOthers()},
		{method: "DELETE", path: "navigation_views/narrow/channel/1-matrix", setup: memberView, want: only("member").notFoundForOthers()},
		{method: "GET", path: "realm/linkifiers", want: authenticated()},
		{method: "PATCH", path: "realm/linkifiers", params: map[string]string{"ordered_linkifier_ids": "[]"}, want: only("owner", "admin")},
		{method: "POST", path: "realm/filters", params: map[string]string{"pattern": "#(?P<id>[0-9]+)", "url_template": "https://x.test/{id}"}, want: only("owner", "admin")},
		{method: "PATCH", path: "realm/filters/1", setup: adminLinkifier, params: map[string]string{"pattern": "#(?P<id>[0-9]+)", "url_template": "https://y.test/{id}"}, want: only("owner", "admin")},
		{method: "DELETE", path: "realm/filters/1", setup: adminLinkifier, want: only("owner", "admin")},
		{method: "POST", path: "realm/playgrounds", params: map[string]string{"name": "Go", "pygments_language": "Go", "url_template": "https://go.test/?c={code}"}, want: only("owner", "admin")},
		{method: "DELETE", path: "realm/playgrounds/1", setup: adminPlayground, want: only("owner", "admin")},
		{method: "POST", path: "invites/multiuse", params: map[string]string{"invite_as": "400"}, want: only("owner", "admin")},
		{method: "GET", path: "invites", want: only("owner", "admin", "moderator", "member")},
		{method: "DELETE", path: "invites/multiuse/1", setup: adminInvite, want: only("owner", "admin")},
		{method: "GET", path: "user_groups", want: nonGuestCallers},
		{method: "POST", path: "user_groups/create", params: map[string]string{"name": "matrix", "description": "", "members": "[]"}, want: nonGuestCallers},
		{method: "PATCH", path: "user_groups/9", setup: openGroup, params: map[string]string{"description": "changed"}, want: humanMembers},
		{method: "POST", path: "user_groups/9/deactivate", setup: openGroup, want: humanMembers},
		{method: "POST", path: "user_groups/9/members", setup: openGroup, params: map[string]string{"add": "[{guest}]"}, want: humanMembers},
		{method: "POST", path: "user_groups/9/subgroups", setup: openGroup, params: map[string]string{"add": "[1]"}, want: humanMembers},
		{method: "GET", path: "user_groups/1/members", want: humanMembers},
		{method: "GET", path: "user_groups/1/members/{member}", want: humanMembers},
		{method: "GET", path: "user_groups/1/subgroups", want: humanMembers},
		{method: "POST", path: "messages", params: map[string]string{"type": "direct", "to": "[{owner}]", "content": "hi"}, want: authenticated()},
		// An integration's URL: the api_key parameter or Basic credentials (none: the missing
		// api_key); without a stream, a direct message to the caller (a bot's owner).
		{method: "POST", path: "external/slack_incoming", params: map[string]string{"payload": `{"text": "hi"}`}, want: authenticated().except("anonymous", 400)},
		{method: "GET", path: "messages", params: map[string]string{"anchor": "newest", "num_before": "1", "num_after": "0"}, want: authenticated()},
		{method: "GET", path: "messages/1", setup: memberDirectMessage, want: only("member", "admin")},
		{method: "POST", path: "messages/flags", setup: memberDirectMessage, params: map[string]string{"messages": "[1]", "op": "add", "flag": "starred"}, want: only("member", "admin")},
		{method: "POST", path: "user_topics", setup: publicChannelWithMessage, params: map[string]string{"stream_id": "1", "topic": "t", "visibility_policy": "1"}, want: membersButGuests},
		{method: "PATCH", path: "users/me/subscriptions/muted_topics", setup: publicChannelWithMessage, params: map[string]string{"stream_id": "1", "topic": "t", "op": "add"}, want: membersButGuests},
		{method: "POST", path: "streams/1/delete_topic", setup: publicChannelWithMessage, params: map[string]string{"topic_name": "t"}, want: only("owner", "admin")},
		{method: "DELETE", path: "messages/1", setup: memberDirectMessage, want: only("member", "admin").except("owner", 400)},
		{method: "PATCH", path: "messages/1", setup: memberDirectMessage, params: map[string]string{"content": "edited"}, want: only("member")},
		{method: "PATCH", path: "messages/1", setup: publicChannelWithMessage, params: map[string]string{"topic": "moved", "propagate_mode": "change_all"}, want: authenticated().except("guest", 400)},
		{method: "GET", path: "users/me/1/topics", setup: publicChannelWithMessage, want: membersButGuests},
	}, slices.Concat(channelsMatrixRows(), peopleMatrixRows(), interactMatrixRows(), uploadsMatrixRows())...)
}

func publicChannelWithMessage(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "channels/create", map[string]string{"name": "matrix", "subscribers": "[{member}]"})
	m.mustCall(t, "member", "POST", "messages", map[string]string{"type": "stream", "to": "1", "topic": "t", "content": "hello"})
}

func memberDirectMessage(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "messages", map[string]string{"type": "direct", "to": "[{admin}]", "content": "between us"})
}

// humanMembers is the outcome of endpoints closed to guests and bots (require_member_or_admin).
var humanMembers = only("owner", "admin", "moderator", "member")

// nonGuestCallers is the outcome of endpoints closed to guests only (require_non_guest_user):
// listing and creating user groups since feature level 496.
var nonGuestCallers = only("owner", "admin", "moderator", "member", "bot")

// openGroup creates group 9, which every member may manage and add members to.
func openGroup(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "owner", "POST", "user_groups/create", map[string]string{"name": "open", "description": "", "members": "[]",
		"can_manage_group": "6", "can_add_members_group": "6"})
}

func memberPresence(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "users/me/presence", map[string]string{"status": "active"})
}

func memberDraft(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "drafts", map[string]string{"drafts": `[{"type":"","to":[],"topic":"","content":"mine"}]`})
}

func memberScheduled(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "scheduled_messages", map[string]string{"type": "direct", "to": "[{admin}]", "content": "mine", "scheduled_delivery_timestamp": "4000000000"})
}

func memberReminder(t *testing.T, m *matrixOrg) {
	memberDirectMessage(t, m)
	m.mustCall(t, "member", "POST", "reminders", map[string]string{"message_id": "1", "scheduled_delivery_timestamp": "4000000000"})
}

func memberSnippet(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "saved_snippets", map[string]string{"title": "mine", "content": "mine"})
}

func adminLinkifier(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "admin", "POST", "realm/filters", map[string]string{"pattern": "#(?P<id>[0-9]+)", "url_template": "https://x.test/{id}"})
}

// pushRegistration are the parameters of POST /mobile_push/register.
var pushRegistration = map[string]string{"token_kind": "fcm", "push_account_id": "1", "push_public_key": "k",
	"bouncer_public_key": "b", "encrypted_push_registration": "e"}

// humansOnly: every active human user; bots get Zulip's 400.
func humansOnly() outcome { return authenticated().except("bot", 400) }

func ownDevice(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "owner", "POST", "register_client_device", nil)
}

func ownToken(route string) func(t *testing.T, m *matrixOrg) {
	return func(t *testing.T, m *matrixOrg) {
		m.mustCall(t, "owner", "POST", "users/me/"+route, map[string]string{"token": "abcdef"})
	}
}

func ownerDomain(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "owner", "POST", "realm/domains", map[string]string{"domain": "example.org", "allow_subdomains": "false"})
}

func adminPlayground(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "admin", "POST", "realm/playgrounds", map[string]string{"name": "Go", "pygments_language": "Go", "url_template": "https://go.test/?c={code}"})
}

func adminInvite(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "admin", "POST", "invites/multiuse", map[string]string{})
}

func memberView(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "navigation_views", map[string]string{"fragment": "narrow/channel/1-matrix", "is_pinned": "true", "name": "Matrix"})
}

// matrixOrg is an organization with one user per kind of caller.
type matrixOrg struct {
	srv  *httptest.Server
	svc  *chat.Service
	ids  map[string]users.ID
	keys map[string]string
	// vars are further {name} placeholders that a row's setup defines.
	vars map[string]string
	// web, when set, sends every call under /json/ with the caller's web session (started
	// before the deactivated caller's deactivation, which ends it) and the CSRF token.
	web      bool
	sessions map[string]string
}

// matrixCSRF is the CSRF secret of every web caller of the matrix.
const matrixCSRF = "matrixcsrfsecretmatrixcsrfsecret"

func newMatrixOrg(t *testing.T) *matrixOrg { return newMatrixOrgWith(t, false) }

func newMatrixOrgWith(t *testing.T, web bool) *matrixOrg {
	t.Helper()
	return newMatrixOrgOn(t, memory.New(), web)
}

// newMatrixOrgOn is newMatrixOrgWith on the given store, which the test's cleanup closes.
func newMatrixOrgOn(t *testing.T, store storage.Storage, web bool) *matrixOrg {
	t.Helper()
	svc, err := chat.New(chat.Options{
		Store: store, Dev: true, PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1},
		Blobs: blobmemory.New(),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Matrix", URL: "http://matrix.test"}); err != nil {
		t.Fatal(err)
	}
	m := &matrixOrg{svc: svc, ids: map[string]users.ID{}, keys: map[string]string{}, vars: map[string]string{}, web: web, sessions: map[string]string{}}
	for _, c := range []struct {
		name string
		p    chat.ProvisionUserParams
	}{
		{"owner", chat.ProvisionUserParams{Role: users.RoleOwner}},
		{"admin", chat.ProvisionUserParams{Role: users.RoleAdministrator}},
		{"moderator", chat.ProvisionUserParams{Role: users.RoleModerator}},
		{"member", chat.ProvisionUserParams{Role: users.RoleMember}},
		{"guest", chat.ProvisionUserParams{Role: users.RoleGuest}},
		{"bot", chat.ProvisionUserParams{BotType: users.BotGeneric}},
		{"deactivated", chat.ProvisionUserParams{Role: users.RoleMember}},
	} {
		p := c.p
		p.Email, p.FullName = c.name+"@matrix.test", "Matrix "+c.name
		if p.BotType == users.NotBot {
			p.Password = "matrix password"
		} else {
			p.BotOwnerID = m.ids["member"]
		}
		res, err := svc.ProvisionUser(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		m.ids[c.name], m.keys[c.name] = res.UserID, res.APIKey
		if web {
			sess, err := svc.StartSession(ctx, chat.Actor{UserID: res.UserID})
			if err != nil {
				t.Fatal(err)
			}
			m.sessions[c.name] = sess.ID
		}
	}
	if _, err := svc.DeactivateUser(ctx, chat.Actor{UserID: m.ids["owner"]}, chat.DeactivateUserParams{UserID: m.ids["deactivated"]}); err != nil {
		t.Fatal(err)
	}
	m.srv = httptest.NewServer(RecordForOpenAPI(New(svc, Options{})))
	t.Cleanup(func() { m.srv.Close(); svc.Close(); store.Close() })
	return m
}

// expand replaces {caller} placeholders with user ids.
func (m *matrixOrg) expand(s string) string {
	for name, id := range m.ids {
		s = strings.ReplaceAll(s, "{"+name+"}", fmt.Sprint(id))
	}
	for name, v := range m.vars {
		s = strings.ReplaceAll(s, "{"+name+"}", v)
	}
	return s
}

func (m *matrixOrg) call(t *testing.T, as, method, path string, params map[string]string) (int, map[string]any) {
	t.Helper()
	form := url.Values{}
	for k, v := range params {
		form.Set(k, m.expand(v))
	}
	target := m.srv.URL + m.prefix() + m.expand(path)
	var body io.Reader
	if method == http.MethodGet {
		target += "?" + form.Encode()
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	m.authorize(req, as)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatalf("%s %s: body is not JSON: %v", method, path, err)
	}
	return resp.StatusCode, got
}

// prefix is the tree the calls go to.
func (m *matrixOrg) prefix() string {
	if m.web {
		return "/json/"
	}
	return "/api/v1/"
}

// authorize gives a request the caller's credentials: the API key, or on the web the session
// and CSRF cookies and header.
func (m *matrixOrg) authorize(req *http.Request, as string) {
	switch {
	case as == "anonymous":
	case m.web:
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: m.sessions[as]})
		req.AddCookie(&http.Cookie{Name: csrfCookie, Value: matrixCSRF})
		req.Header.Set(csrfHeader, matrixCSRF)
	default:
		req.SetBasicAuth(as+"@matrix.test", m.keys[as])
	}
}

func (m *matrixOrg) mustCall(t *testing.T, as, method, path string, params map[string]string) {
	t.Helper()
	if status, body := m.call(t, as, method, path, params); status != http.StatusOK {
		t.Fatalf("setup %s %s as %s: %d %v", method, path, as, status, body)
	}
}

// view is what the owner and the member see of the organization through a fresh register.
func (m *matrixOrg) view(t *testing.T) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, who := range []string{"owner", "member"} {
		res, err := m.svc.RegisterQueue(t.Context(), chat.Actor{UserID: m.ids[who]}, chat.RegisterQueueParams{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		var state map[string]any
		_ = json.Unmarshal(b, &state)
		delete(state, "queue_id")
		delete(state, "last_event_id")
		delete(state, "server_timestamp") // when the presence data was read
		out[who] = state
	}
	return out
}

// placeholders are the {caller} parts of a row's path.
var placeholders = regexp.MustCompile(`\{[a-z]+\}`)

func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	rows := matrixRows()
	covered := map[string]bool{}
	h := New(nil, Options{})
	for _, row := range rows {
		rt, _, _ := h.match(row.method, placeholders.ReplaceAllString(row.path, "1"))
		if rt == nil {
			t.Errorf("matrix row %s %s matches no route", row.method, row.path)
			continue
		}
		covered[rt.method+" "+rt.pattern] = true
	}
	for _, rt := range h.routes {
		if !covered[rt.method+" "+rt.pattern] {
			t.Errorf("route %s %s has no row in the authorization matrix", rt.method, rt.pattern)
		}
	}
	for _, row := range rows {
		for _, caller := range callers {
			t.Run(row.method+" "+row.path+"/"+caller, func(t *testing.T) {
				t.Parallel()
				checkMatrixCell(t, newMatrixOrg(t), row, caller)
			})
		}
	}
}

// TestAuthorizationMatrixOverSessions calls every row under /json/ with web sessions, as an
// administrator, a member and a deactivated user (whose session the deactivation ended): the
// same statuses as with API keys.
func TestAuthorizationMatrixOverSessions(t *testing.T) {
	t.Parallel()
	for _, row := range matrixRows() {
		if strings.HasPrefix(row.path, "external/") {
			continue // integrations' URLs are served under /api/v1/ only (TestIncomingWebhookNotUnderJSON)
		}
		for _, caller := range []string{"admin", "member", "deactivated"} {
			t.Run(row.method+" "+row.path+"/"+caller, func(t *testing.T) {
				t.Parallel()
				checkMatrixCell(t, newMatrixOrgWith(t, true), row, caller)
			})
		}
	}
}

// checkMatrixCell makes one call of the matrix and checks its status, and that a refusal
// changed nothing.
func checkMatrixCell(t *testing.T, m *matrixOrg, row matrixRow, caller string) {
	t.Helper()
	if row.setup != nil {
		row.setup(t, m)
	}
	before := m.view(t)
	var status int
	var body map[string]any
	if row.file != "" {
		status, body = m.upload(t, caller, row.path, row.file)
	} else {
		status, body = m.call(t, caller, row.method, row.path, row.params)
	}
	if want := row.want.want(caller); status != want {
		t.Fatalf("%s %s%s as %s: status %d %v, want %d", row.method, m.prefix(), row.path, caller, status, body, want)
	}
	if status != http.StatusOK {
		if diff := cmp.Diff(before, m.view(t)); diff != "" {
			t.Errorf("refused %s %s%s as %s changed the state (-before +after):\n%s", row.method, m.prefix(), row.path, caller, diff)
		}
	}
}

// phoneField creates custom profile field 1 (short text, editable by users).
func phoneField(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "owner", "POST", "realm/profile_fields", map[string]string{"name": "Phone", "field_type": "1"})
}
