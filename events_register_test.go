package chat_test

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/storagetest"
	"github.com/teamchat/chat/users"
)

func ptr[T any](v T) *T { return &v }

func TestRegisterQueueState(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{})
	if err != nil {
		t.Fatal(err)
	}
	if res.QueueID == nil || *res.QueueID == "" || res.LastEventID != -1 || res.ZulipFeatureLevel != 484 ||
		res.IdleQueueTimeoutSecs != 600 {
		t.Errorf("register = queue %v last %d level %d idle %d", res.QueueID, res.LastEventID, res.ZulipFeatureLevel, res.IdleQueueTimeoutSecs)
	}
	if res.RealmState == nil || res.MaxStreamNameLength != 60 || res.MaxStreamDescriptionLength != 1024 ||
		res.MaxTopicLength != 60 || res.RealmEmptyTopicDisplayName != "general chat" ||
		res.EventQueueLongpollTimeoutSeconds <= 55 {
		t.Fatalf("realm state = %+v", res.RealmState)
	}
	if res.RealmUserState == nil || len(res.RealmUsers) != 6 || res.UserID != f.ids["member"] || res.IsAdmin {
		t.Fatalf("realm_user state = %+v", res.RealmUserState)
	}
	// Emails are visible to administrators only in this organization: the member sees
	// placeholders and no delivery_email, except their own and bots'.
	for _, u := range res.RealmUsers {
		self := u.UserID == f.ids["member"]
		if u.IsActive != nil {
			t.Errorf("realm_users entry %d carries is_active", u.UserID)
		}
		if (u.DeliveryEmail != nil) != (self || u.IsBot) {
			t.Errorf("user %d delivery_email = %v for the member", u.UserID, u.DeliveryEmail)
		}
	}
	admin, err := f.svc.RegisterQueue(ctx, f.actor("admin"), chat.RegisterQueueParams{FetchEventTypes: []string{"realm_user"}})
	if err != nil {
		t.Fatal(err)
	}
	if admin.RealmState != nil {
		t.Errorf("realm state sent though not fetched")
	}
	for _, u := range admin.RealmUsers {
		if u.DeliveryEmail == nil {
			t.Errorf("admin cannot see the email of %d", u.UserID)
		}
		if u.Email == "" || (!u.IsBot && u.Email == *u.DeliveryEmail) {
			t.Errorf("user %d API email %q, want the placeholder", u.UserID, u.Email)
		}
	}
}

func TestRegisterQueueValidation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	tests := []struct {
		name  string
		actor chat.Actor
		p     chat.RegisterQueueParams
		code  chat.Code
		msg   string
	}{
		{"bad include_subscribers", f.actor("member"), chat.RegisterQueueParams{IncludeSubscribers: "maybe"}, chat.CodeBadRequest, "Invalid include_subscribers"},
		{"narrow term too short", f.actor("member"), chat.RegisterQueueParams{Narrow: [][]string{{"stream"}}}, chat.CodeBadRequest, "narrow[0] is too short."},
		{"negative idle timeout", f.actor("member"), chat.RegisterQueueParams{IdleQueueTimeout: ptr(-time.Second)}, chat.CodeBadRequest, "idle_queue_timeout is too small"},
		{"guest asks for all public streams", f.actor("guest"), chat.RegisterQueueParams{AllPublicStreams: ptr(true)}, chat.CodeBadRequest, "User not authorized for this query"},
		{"spectator without spectator access", chat.Actor{}, chat.RegisterQueueParams{}, chat.CodeUnauthorized, "Not logged in: API authentication or user session required"},
		{"spectator with client_gravatar", chat.Actor{}, chat.RegisterQueueParams{ClientGravatar: ptr(true)}, chat.CodeBadRequest, "Invalid 'client_gravatar' parameter for anonymous request"},
		{"spectator with subscribers", chat.Actor{}, chat.RegisterQueueParams{IncludeSubscribers: "partial"}, chat.CodeBadRequest, "Invalid 'include_subscribers' parameter for anonymous request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.RegisterQueue(ctx, tt.actor, tt.p)
			wantError(t, err, tt.code, tt.code.Status(), tt.msg)
		})
	}
}

func TestRegisterIdleTimeout(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tt := range []struct {
		give *time.Duration
		want int64
	}{
		{nil, 600},
		{ptr(90 * time.Second), 90},
		{ptr(chat.MobileIdleQueueTimeout), 43200},
		{ptr(30 * 24 * time.Hour), 604800},
	} {
		res, err := f.svc.RegisterQueue(t.Context(), f.actor("member"), chat.RegisterQueueParams{IdleQueueTimeout: tt.give, EventTypes: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IdleQueueTimeoutSecs != tt.want {
			t.Errorf("idle_queue_timeout %v: got %d, want %d", tt.give, res.IdleQueueTimeoutSecs, tt.want)
		}
	}
}

// register registers a queue for name receiving the given event types.
func (f *fixture) register(t *testing.T, name string, types ...string) string {
	t.Helper()
	res, err := f.svc.RegisterQueue(t.Context(), f.actor(name), chat.RegisterQueueParams{EventTypes: types})
	if err != nil {
		t.Fatal(err)
	}
	return *res.QueueID
}

func (f *fixture) poll(t *testing.T, name, queueID string, last int64, dontBlock bool) []chat.Event {
	t.Helper()
	res, err := f.svc.GetEvents(t.Context(), f.actor(name), chat.GetEventsParams{QueueID: queueID, LastEventID: &last, DontBlock: dontBlock})
	if err != nil {
		t.Fatalf("GetEvents: %v", err)
	}
	return res.Events
}

func TestRealmUserAddEvent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	memberQ := f.register(t, "member", "realm_user")
	adminQ := f.register(t, "admin", "realm_user")
	res, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "new@example.com", FullName: "New Person"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		who, queue    string
		deliveryEmail *string
	}{
		{"member", memberQ, nil},
		{"admin", adminQ, ptr("new@example.com")},
	} {
		events := f.poll(t, tt.who, tt.queue, -1, true)
		if len(events) != 1 || events[0].ID != 0 || events[0].Type != "realm_user" {
			t.Fatalf("%s got events %+v, want one realm_user event with id 0", tt.who, events)
		}
		body, err := json.Marshal(events[0])
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		person := got["person"].(map[string]any)
		if got["type"] != "realm_user" || got["op"] != "add" || got["id"] != 0.0 ||
			person["user_id"] != float64(res.UserID) || person["is_active"] != true || person["full_name"] != "New Person" ||
			person["email"] != "user"+itoa(int64(res.UserID))+"@chat.example.com" {
			t.Errorf("%s got %s", tt.who, body)
		}
		// client_gravatar (the default) leaves the Gravatar URL to clients that see the email.
		if (person["avatar_url"] == nil) != (tt.deliveryEmail != nil) {
			t.Errorf("%s got avatar_url %v; want null exactly when the email is visible", tt.who, person["avatar_url"])
		}
		if d, _ := person["delivery_email"].(string); (tt.deliveryEmail == nil) != (person["delivery_email"] == nil) ||
			tt.deliveryEmail != nil && d != *tt.deliveryEmail {
			t.Errorf("%s got delivery_email %v, want %v", tt.who, person["delivery_email"], tt.deliveryEmail)
		}
	}
	// The register after the event agrees with the state before plus the event.
	after, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(after.RealmUsers) != 7 {
		t.Errorf("register after add lists %d users, want 7", len(after.RealmUsers))
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

func TestEventTypesFilter(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	q := f.register(t, "member", "message")
	if _, err := f.svc.ProvisionUser(t.Context(), chat.ProvisionUserParams{Email: "n@example.com", FullName: "Nn"}); err != nil {
		t.Fatal(err)
	}
	if got := f.poll(t, "member", q, -1, true); len(got) != 0 {
		t.Errorf("queue for message events got %+v", got)
	}
}

func TestGetEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "member")

	t.Run("dont_block with nothing pending is empty", func(t *testing.T) {
		if got := f.poll(t, "member", q, -1, true); got == nil || len(got) != 0 {
			t.Errorf("got %#v, want an empty non-nil list", got)
		}
	})
	t.Run("blocking poll ends with a heartbeat", func(t *testing.T) {
		got := f.poll(t, "member", q, -1, false)
		if len(got) != 1 || got[0].Type != "heartbeat" {
			t.Fatalf("got %+v, want one heartbeat", got)
		}
		body, _ := json.Marshal(got[0])
		if want := `{"type":"heartbeat","id":` + itoa(got[0].ID) + `}`; string(body) != want {
			t.Errorf("heartbeat JSON %s, want %s", body, want)
		}
		// Acknowledge it.
		if rest := f.poll(t, "member", q, got[0].ID, true); len(rest) != 0 {
			t.Errorf("after ack got %+v", rest)
		}
	})
	t.Run("blocking poll wakes on an event", func(t *testing.T) {
		f2 := newFixture(t, func(o *chat.Options) { o.HeartbeatWait = time.Hour })
		q2 := f2.register(t, "member", "realm_user")
		done := make(chan []chat.Event)
		go func() {
			last := int64(-1)
			res, err := f2.svc.GetEvents(ctx, f2.actor("member"), chat.GetEventsParams{QueueID: q2, LastEventID: &last})
			if err != nil {
				t.Error(err)
			}
			done <- res.Events
		}()
		if _, err := f2.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "w@example.com", FullName: "Waker"}); err != nil {
			t.Fatal(err)
		}
		if got := <-done; len(got) != 1 || got[0].Type != "realm_user" {
			t.Errorf("woken with %+v", got)
		}
	})
	t.Run("errors", func(t *testing.T) {
		tests := []struct {
			name  string
			actor string
			p     chat.GetEventsParams
			code  chat.Code
			msg   string
		}{
			{"unknown queue", "member", chat.GetEventsParams{QueueID: "nope", LastEventID: ptr(int64(-1))}, chat.CodeBadEventQueueID, "Bad event queue ID: nope"},
			{"another user's queue", "admin", chat.GetEventsParams{QueueID: q, LastEventID: ptr(int64(-1))}, chat.CodeBadEventQueueID, "Bad event queue ID: " + q},
			{"missing queue_id when blocking", "member", chat.GetEventsParams{LastEventID: ptr(int64(-1))}, chat.CodeBadRequest, "Missing 'queue_id' argument"},
			{"missing last_event_id", "member", chat.GetEventsParams{QueueID: q}, chat.CodeBadRequest, "Missing 'last_event_id' argument"},
			{"an id never in the queue", "member", chat.GetEventsParams{QueueID: q, LastEventID: ptr(int64(50)), DontBlock: true}, chat.CodeBadRequest, ""},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := f.svc.GetEvents(ctx, f.actor(tt.actor), tt.p)
				e := wantError(t, err, tt.code, 400, tt.msg)
				if tt.code == chat.CodeBadEventQueueID && e.Extra["queue_id"] != tt.p.QueueID {
					t.Errorf("queue_id extra = %v", e.Extra["queue_id"])
				}
			})
		}
	})
	t.Run("register through GET /events with dont_block", func(t *testing.T) {
		res, err := f.svc.GetEvents(ctx, f.actor("member"), chat.GetEventsParams{DontBlock: true})
		if err != nil || res.QueueID == "" || len(res.Events) != 0 {
			t.Fatalf("got %+v, %v; want a new queue id and no events", res, err)
		}
		if got := f.poll(t, "member", res.QueueID, -1, true); len(got) != 0 {
			t.Errorf("new queue has %+v", got)
		}
	})
}

func TestDeleteQueue(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "member")
	_, err := f.svc.DeleteQueue(ctx, f.actor("admin"), chat.DeleteQueueParams{QueueID: q})
	wantError(t, err, chat.CodeBadEventQueueID, 400, "Bad event queue ID: "+q)
	if _, err := f.svc.DeleteQueue(ctx, f.actor("member"), chat.DeleteQueueParams{QueueID: q}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.GetEvents(ctx, f.actor("member"), chat.GetEventsParams{QueueID: q, LastEventID: ptr(int64(-1)), DontBlock: true})
	wantError(t, err, chat.CodeBadEventQueueID, 400, "")
}

func TestIdleQueueExpires(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.QueueGCInterval = 5 * time.Millisecond })
	ctx := t.Context()
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{IdleQueueTimeout: ptr(2 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(3 * time.Minute)
	// The janitor runs every few milliseconds; wait for it rather than for a fixed time.
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err = f.svc.GetEvents(ctx, f.actor("member"), chat.GetEventsParams{QueueID: *res.QueueID, LastEventID: ptr(int64(-1)), DontBlock: true})
		if err != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	wantError(t, err, chat.CodeBadEventQueueID, 400, "Bad event queue ID: "+*res.QueueID)
}

func TestFailedWritePublishesNothing(t *testing.T) {
	t.Parallel()
	faulty := storagetest.NewFaulty(memory.New())
	f := newFixtureOn(t, faulty)
	q := f.register(t, "member")
	before := f.userCount(t)
	boom := errors.New("disk on fire")
	// Creating a user writes the user, then group membership: fail the second write.
	faulty.FailWritesAfter(1, boom)
	_, err := f.svc.ProvisionUser(t.Context(), chat.ProvisionUserParams{Email: "x@example.com", FullName: "Xavier"})
	faulty.FailWritesAfter(-1, nil)
	var e *chat.Error
	if !errors.As(err, &e) || e.Code != chat.CodeInternal || !errors.Is(err, boom) {
		t.Fatalf("error = %v, want an internal error wrapping the storage failure", err)
	}
	if got := f.userCount(t); got != before {
		t.Errorf("%d users after the failed write, want %d", got, before)
	}
	if got := f.poll(t, "member", q, -1, true); len(got) != 0 {
		t.Errorf("events published for a rolled-back change: %+v", got)
	}
}

// TestRegisterRaceFree registers queues while users are created concurrently: for every
// client, the users in its register state plus the realm_user add events in its queue are
// exactly the final users, with no duplicates.
func TestRegisterRaceFree(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.HeartbeatWait = time.Hour })
	ctx := t.Context()
	const writers, perWriter, clients = 3, 10, 8
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				email := "w" + itoa(int64(w)) + "-" + itoa(int64(i)) + "@example.com"
				if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: email, FullName: "Writer User"}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	type seen struct {
		state []users.ID
		queue string
	}
	results := make([]seen, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := f.svc.RegisterQueue(ctx, f.actor("admin"), chat.RegisterQueueParams{EventTypes: []string{"realm_user"}})
			if err != nil {
				t.Error(err)
				return
			}
			for _, u := range res.RealmUsers {
				results[c].state = append(results[c].state, u.UserID)
			}
			results[c].queue = *res.QueueID
		}()
	}
	wg.Wait()
	final := f.userCount(t)
	for c, r := range results {
		if r.queue == "" {
			continue
		}
		ids := map[users.ID]int{}
		for _, id := range r.state {
			ids[id]++
		}
		for _, ev := range f.poll(t, "admin", r.queue, -1, true) {
			person := ev.Payload.(chat.RealmUserEvent).Person.(chat.UserRecord)
			ids[person.UserID]++
		}
		for id, n := range ids {
			if n != 1 {
				t.Errorf("client %d saw user %d %d times", c, id, n)
			}
		}
		if diff := cmp.Diff(final, len(ids)); diff != "" {
			t.Errorf("client %d knows %d users, want %d", c, len(ids), final)
		}
	}
}
