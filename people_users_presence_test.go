package chat_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// applyPresence merges a presence event (the simplified form, which the harness registers
// for) into register's presences (the modern format, slim_presence).
func applyPresence(t *testing.T, state, ev map[string]any) {
	t.Helper()
	pr, ok := state["presences"].(map[string]any)
	if !ok {
		return
	}
	changes, ok := ev["presences"].(map[string]any)
	if !ok {
		t.Fatalf("presence event without presences: %v", ev)
	}
	for id, p := range changes {
		pr[id] = p
	}
}

// report is a presence report of name.
func (f *fixture) report(t *testing.T, name, status string) chat.UpdatePresenceResult {
	t.Helper()
	res, err := f.svc.UpdatePresence(t.Context(), f.actor(name), chat.UpdatePresenceParams{Status: status, SlimPresence: true})
	if err != nil {
		t.Fatalf("UpdatePresence(%s, %s): %v", name, status, err)
	}
	return res
}

// presenceConsistencyCases are the presence changes that are announced. A regular report
// changes presence data quietly (clients poll for it), which TestUpdatePresence checks.
func presenceConsistencyCases() []consistencyCase {
	online := func(t *testing.T, f *fixture) {
		f.report(t, "admin", "active")
		f.report(t, "guest", "idle")
	}
	return []consistencyCase{
		{method: "UpdatePresence", name: "first report", run: func(t *testing.T, f *fixture) {
			f.report(t, "member", "active")
		}},
		{method: "UpdatePresence", name: "coming back online", setup: online, run: func(t *testing.T, f *fixture) {
			f.clock.Advance(10 * time.Minute)
			f.report(t, "admin", "active")
		}},
		{method: "UpdateSettings", name: "presence_enabled off and on", setup: online, run: func(t *testing.T, f *fixture) {
			ctx := t.Context()
			if _, err := f.svc.UpdateSettings(ctx, f.actor("admin"), chat.UpdateSettingsParams{Values: map[string]any{"presence_enabled": false}}); err != nil {
				t.Fatal(err)
			}
			f.clock.Advance(time.Hour)
			if _, err := f.svc.UpdateSettings(ctx, f.actor("guest"), chat.UpdateSettingsParams{Values: map[string]any{"presence_enabled": false}}); err != nil {
				t.Fatal(err)
			}
			if _, err := f.svc.UpdateSettings(ctx, f.actor("guest"), chat.UpdateSettingsParams{Values: map[string]any{"presence_enabled": true}}); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// goldenPresence: the member comes online.
func goldenPresence(t *testing.T, f *fixture) {
	f.report(t, "member", "active")
}

func TestUpdatePresence(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	t0 := f.clock.Now()
	q := func(name string, caps chat.ClientCapabilities) string {
		res, err := f.svc.RegisterQueue(ctx, f.actor(name), chat.RegisterQueueParams{EventTypes: []string{"presence"}, ClientCapabilities: caps})
		if err != nil {
			t.Fatal(err)
		}
		return *res.QueueID
	}
	legacyQ := q("admin", chat.ClientCapabilities{})
	modernQ := q("guest", chat.ClientCapabilities{SimplifiedPresenceEvents: true})
	member := fmt.Sprint(f.ids["member"])

	res := f.report(t, "member", "active")
	want := map[string]any{member: chat.ModernPresence{ActiveTimestamp: t0.Unix(), IdleTimestamp: t0.Unix()}}
	if diff := cmp.Diff(want, *res.Presences); diff != "" {
		t.Errorf("presences (-want +got):\n%s", diff)
	}
	first := *res.PresenceLastUpdateID
	if first <= 0 || *res.ServerTimestamp != float64(t0.Unix()) {
		t.Errorf("cursor %d, server_timestamp %v", first, *res.ServerTimestamp)
	}
	// The legacy event names the user; the simplified one gives the modern data.
	legacy := eventJSON(t, f.poll(t, "admin", legacyQ, -1, true))
	modern := eventJSON(t, f.poll(t, "guest", modernQ, -1, true))
	if len(legacy) != 1 || legacy[0]["user_id"] != float64(f.ids["member"]) || legacy[0]["presences"] != nil {
		t.Errorf("legacy events %v", legacy)
	}
	if len(modern) != 1 || modern[0]["presences"] == nil || modern[0]["user_id"] != nil {
		t.Errorf("simplified events %v", modern)
	}

	// Within the minimum interval nothing changes: same cursor, no event.
	f.clock.Advance(30 * time.Second)
	res, err := f.svc.UpdatePresence(ctx, f.actor("member"), chat.UpdatePresenceParams{Status: "active", LastUpdateID: &first})
	if err != nil {
		t.Fatal(err)
	}
	if *res.PresenceLastUpdateID != first || len(*res.Presences) != 0 {
		t.Errorf("unchanged poll: cursor %d, presences %v", *res.PresenceLastUpdateID, *res.Presences)
	}
	// A regular report a minute later changes the data, quietly.
	f.clock.Advance(time.Minute)
	res, err = f.svc.UpdatePresence(ctx, f.actor("member"), chat.UpdatePresenceParams{Status: "idle", LastUpdateID: &first})
	if err != nil {
		t.Fatal(err)
	}
	if *res.PresenceLastUpdateID <= first || len(*res.Presences) != 1 {
		t.Errorf("changed poll: cursor %d, presences %v", *res.PresenceLastUpdateID, *res.Presences)
	}
	if evs := f.poll(t, "admin", legacyQ, 0, true); len(evs) != 0 {
		t.Errorf("a regular report sent %v", evs)
	}
	// ping_only answers nothing.
	res, err = f.svc.UpdatePresence(ctx, f.actor("admin"), chat.UpdatePresenceParams{Status: "idle", PingOnly: true})
	if err != nil || res.Presences != nil || res.PresenceLastUpdateID != nil || res.ServerTimestamp != nil {
		t.Errorf("ping_only: %+v %v", res, err)
	}
	// The legacy format is keyed by API email; the member reported idle 90s after activity.
	res, err = f.svc.UpdatePresence(ctx, f.actor("admin"), chat.UpdatePresenceParams{Status: "idle"})
	if err != nil {
		t.Fatal(err)
	}
	idle := t0.Add(90 * time.Second).Unix()
	memberKey := fmt.Sprintf("user%d@chat.example.com", f.ids["member"])
	wantLegacy := chat.LegacyPresence{
		Aggregated: chat.LegacyAggregatedPresence{Client: "website", Status: "idle", Timestamp: idle},
		Website:    chat.LegacyClientPresence{Client: "website", Status: "idle", Timestamp: idle},
	}
	if diff := cmp.Diff(wantLegacy, (*res.Presences)[memberKey]); diff != "" {
		t.Errorf("legacy presence of the member (-want +got):\n%s\nall: %v", diff, *res.Presences)
	}
	if got := (*res.Presences)[fmt.Sprintf("user%d@chat.example.com", f.ids["admin"])]; got == nil {
		t.Errorf("admin's own presence missing: %v", *res.Presences)
	}
}

func TestUpdatePresenceRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	// Old presence falls out of the history window; history_limit_days widens it.
	f.report(t, "member", "active")
	f.clock.Advance(20 * 24 * time.Hour)
	res := f.report(t, "admin", "active")
	if _, ok := (*res.Presences)[fmt.Sprint(f.ids["member"])]; ok || len(*res.Presences) != 1 {
		t.Errorf("presences within 14 days: %v", *res.Presences)
	}
	days := int64(30)
	res, err := f.svc.UpdatePresence(ctx, f.actor("admin"), chat.UpdatePresenceParams{Status: "active", SlimPresence: true, HistoryLimitDays: &days})
	if err != nil || len(*res.Presences) != 2 {
		t.Errorf("presences within 30 days: %v %v", res.Presences, err)
	}
	zero := int64(0)
	res, err = f.svc.UpdatePresence(ctx, f.actor("admin"), chat.UpdatePresenceParams{Status: "active", HistoryLimitDays: &zero})
	if err != nil || len(*res.Presences) != 0 || *res.PresenceLastUpdateID != -1 {
		t.Errorf("history_limit_days=0: %v %v %v", res.Presences, res.PresenceLastUpdateID, err)
	}
	// Deactivated users and bots are left out; an invisible user's reports are not recorded.
	if _, err := f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["member"]}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.UpdateSettings(ctx, f.actor("guest"), chat.UpdateSettingsParams{Values: map[string]any{"presence_enabled": false}}); err != nil {
		t.Fatal(err)
	}
	before := f.report(t, "guest", "active")
	f.clock.Advance(10 * time.Minute)
	after := f.report(t, "guest", "active")
	guest := fmt.Sprint(f.ids["guest"])
	if diff := cmp.Diff((*before.Presences)[guest], (*after.Presences)[guest]); diff != "" {
		t.Errorf("an invisible user's report changed their presence:\n%s", diff)
	}
	res, err = f.svc.UpdatePresence(ctx, f.actor("admin"), chat.UpdatePresenceParams{Status: "active", SlimPresence: true, HistoryLimitDays: &days})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := (*res.Presences)[fmt.Sprint(f.ids["member"])]; ok {
		t.Errorf("a deactivated user's presence is listed: %v", *res.Presences)
	}
}

func TestUpdatePresenceBadInput(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "admin", "presence")
	neg := int64(-1)
	for _, tc := range []struct {
		name  string
		actor string
		p     chat.UpdatePresenceParams
		msg   string
	}{
		{"unknown status", "member", chat.UpdatePresenceParams{Status: "away"}, "Invalid status: away"},
		{"empty status", "member", chat.UpdatePresenceParams{Status: ""}, "Invalid status: "},
		{"negative history", "member", chat.UpdatePresenceParams{Status: "active", HistoryLimitDays: &neg}, "history_limit_days is too small"},
		{"bot", "bot", chat.UpdatePresenceParams{Status: "active"}, "This endpoint does not accept bot requests."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.UpdatePresence(ctx, f.actor(tc.actor), tc.p)
			wantError(t, err, chat.CodeBadRequest, 400, tc.msg)
		})
	}
	res, err := f.svc.GetRealmPresence(ctx, f.actor("admin"), chat.GetRealmPresenceParams{})
	if err != nil || len(res.Presences) != 0 {
		t.Errorf("presence after refusals: %v %v", res.Presences, err)
	}
	if evs := f.poll(t, "admin", q, -1, true); len(evs) != 0 {
		t.Errorf("refusals sent %v", evs)
	}
	long := make([]rune, 500)
	for i := range long {
		long[i] = 'x'
	}
	_, err = f.svc.UpdatePresence(ctx, f.actor("member"), chat.UpdatePresenceParams{Status: string(long)})
	if e := wantError(t, err, chat.CodeBadRequest, 400, ""); len(e.Msg) > 200 {
		t.Errorf("error repeats %d bytes of the status", len(e.Msg))
	}
}

func TestGetUserPresence(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	t0 := f.clock.Now()
	f.report(t, "admin", "active")
	got, err := f.svc.GetUserPresence(ctx, f.actor("member"), chat.GetUserPresenceParams{UserID: f.ids["admin"]})
	if err != nil {
		t.Fatal(err)
	}
	want := chat.UserLegacyPresence{Aggregated: chat.UserPresenceStatus{Status: "active", Timestamp: t0.Unix()},
		Website: chat.UserPresenceStatus{Status: "active", Timestamp: t0.Unix()}}
	if diff := cmp.Diff(want, got.Presence); diff != "" {
		t.Errorf("presence (-want +got):\n%s", diff)
	}
	f.clock.Advance(201 * time.Second)
	got, err = f.svc.GetUserPresence(ctx, f.actor("bot"), chat.GetUserPresenceParams{Email: fmt.Sprintf("user%d@chat.example.com", f.ids["admin"]), SlimPresence: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(chat.ModernPresence{ActiveTimestamp: t0.Unix(), IdleTimestamp: t0.Unix()}, got.Presence); diff != "" {
		t.Errorf("slim presence (-want +got):\n%s", diff)
	}
	got, err = f.svc.GetUserPresence(ctx, f.actor("member"), chat.GetUserPresenceParams{UserID: f.ids["admin"]})
	if err != nil || got.Presence.(chat.UserLegacyPresence).Aggregated.Status != "offline" || got.Presence.(chat.UserLegacyPresence).Website.Status != "active" {
		t.Errorf("presence after the offline threshold: %+v %v", got, err)
	}
	if _, err := f.svc.DeactivateUser(ctx, f.actor("owner"), chat.DeactivateUserParams{UserID: f.ids["guest"]}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    chat.GetUserPresenceParams
		msg  string
	}{
		{"unknown id", chat.GetUserPresenceParams{UserID: 9999}, "No such user"},
		{"unknown email", chat.GetUserPresenceParams{Email: "nobody@example.com"}, "No such user"},
		{"deactivated", chat.GetUserPresenceParams{UserID: f.ids["guest"]}, "No such user"},
		{"bot", chat.GetUserPresenceParams{UserID: f.ids["bot"]}, "Presence is not supported for bot users."},
		{"no data", chat.GetUserPresenceParams{UserID: f.ids["owner"]}, fmt.Sprintf("No presence data for %d", f.ids["owner"])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.GetUserPresence(ctx, f.actor("member"), tc.p)
			wantError(t, err, chat.CodeBadRequest, 400, tc.msg)
		})
	}
}

func TestRegisterPresence(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.report(t, "admin", "active")
	f.report(t, "member", "idle")
	res, err := f.svc.RegisterQueue(ctx, f.actor("guest"), chat.RegisterQueueParams{FetchEventTypes: []string{"presence"}, SlimPresence: true})
	if err != nil {
		t.Fatal(err)
	}
	st := toJSONMap(t, res)
	pr, _ := st["presences"].(map[string]any)
	if len(pr) != 2 || pr[fmt.Sprint(f.ids["admin"])] == nil || st["presence_last_update_id"] != float64(2) || st["server_timestamp"] == nil {
		t.Errorf("register presence keys: %v", st)
	}
	if st["realm_name"] != nil {
		t.Errorf("realm section fetched without being asked")
	}
	res, err = f.svc.RegisterQueue(ctx, f.actor("guest"), chat.RegisterQueueParams{FetchEventTypes: []string{"presence", "realm"}, PresenceHistoryLimitDays: ptr(int64(0))})
	if err != nil {
		t.Fatal(err)
	}
	st = toJSONMap(t, res)
	if pr, _ := st["presences"].(map[string]any); len(pr) != 0 || st["presence_last_update_id"] != float64(-1) {
		t.Errorf("presence_history_limit_days=0: %v", st["presences"])
	}
	if st["server_presence_ping_interval_seconds"] != float64(60) || st["server_presence_offline_threshold_seconds"] != float64(200) {
		t.Errorf("presence constants: %v %v", st["server_presence_ping_interval_seconds"], st["server_presence_offline_threshold_seconds"])
	}
	_, err = f.svc.RegisterQueue(ctx, f.actor("guest"), chat.RegisterQueueParams{PresenceHistoryLimitDays: ptr(int64(-1))})
	wantError(t, err, chat.CodeBadRequest, 400, "presence_history_limit_days is too small")
}

func TestPresenceEventsStopInLargeOrganizations(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	for i := 0; len(f.ids)+i <= users.PresenceEventUserLimit; i++ {
		mustProvision(t, f, chat.ProvisionUserParams{Email: fmt.Sprintf("u%d@example.com", i), FullName: fmt.Sprintf("User %d", i)})
	}
	q := f.register(t, "admin", "presence")
	f.report(t, "member", "active")
	if evs := f.poll(t, "admin", q, -1, true); len(evs) != 0 {
		t.Errorf("a user coming online was announced to more than %d users: %v", users.PresenceEventUserLimit, eventJSON(t, evs))
	}
	// A change of presence_enabled is always announced.
	if _, err := f.svc.UpdateSettings(ctx, f.actor("member"), chat.UpdateSettingsParams{Values: map[string]any{"presence_enabled": false}}); err != nil {
		t.Fatal(err)
	}
	if evs := f.poll(t, "admin", q, -1, true); len(evs) != 1 {
		t.Errorf("presence_enabled change: events %v", eventJSON(t, evs))
	}
}
