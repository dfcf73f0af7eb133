package chat_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
)

// fakeBus is an in-process chat.Bus over the memory store: the store serialises transactions
// and Publish is the last step of a successful one, so publication order is commit order. It
// keeps every message (ids from 1); messages up to pruned are gone. Holding hold pauses
// delivery, as a notification in flight would.
type fakeBus struct {
	mu     sync.Mutex
	log    [][]byte
	pruned uint64
	down   bool
	wakes  map[chan struct{}]bool
	fail   chan error
	hold   sync.Mutex
}

func newFakeBus() *fakeBus {
	return &fakeBus{wakes: map[chan struct{}]bool{}, fail: make(chan error, 1)}
}

func (b *fakeBus) Publish(_ storage.Tx, msg []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.log = append(b.log, append([]byte(nil), msg...))
	for w := range b.wakes {
		select {
		case w <- struct{}{}:
		default:
		}
	}
	return nil
}

func (b *fakeBus) Position(storage.ReadTx) (uint64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return uint64(len(b.log)), nil
}

// disconnect ends Listen with an error, and every Listen until reconnect.
func (b *fakeBus) disconnect() {
	b.mu.Lock()
	b.down = true
	b.mu.Unlock()
	select {
	case b.fail <- errors.New("connection lost"):
	default:
	}
}

func (b *fakeBus) reconnect() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.down = false
}

// prune forgets every message published so far.
func (b *fakeBus) prune() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pruned = uint64(len(b.log))
}

func (b *fakeBus) Listen(ctx context.Context, after uint64, ready func(bool, uint64), deliver func(uint64, []byte)) error {
	b.mu.Lock()
	if b.down {
		b.mu.Unlock()
		return errors.New("connection refused")
	}
	complete := after >= b.pruned
	if !complete {
		after = uint64(len(b.log))
	}
	wake := make(chan struct{}, 1)
	b.wakes[wake] = true
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		delete(b.wakes, wake)
		b.mu.Unlock()
	}()
	if !complete {
		ready(false, after)
	}
	for {
		b.mu.Lock()
		pending, down := b.log[after:], b.down
		b.mu.Unlock()
		if down {
			return errors.New("connection lost")
		}
		for _, m := range pending {
			after++
			b.hold.Lock()
			deliver(after, m)
			b.hold.Unlock()
		}
		if complete && ready != nil {
			ready(true, after)
			ready = nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-b.fail:
			return err
		case <-wake:
		}
	}
}

// withBus runs the fixture's Service on bus as node n1.
func withBus(bus chat.Bus) func(*chat.Options) {
	return func(o *chat.Options) { o.Bus, o.NodeID = bus, "n1" }
}

// waitEvents polls until n events other than heartbeats arrived (or 5s passed).
func (f *fixture) waitEvents(t *testing.T, name, q string, n int) []chat.Event {
	t.Helper()
	var got []chat.Event
	deadline := time.Now().Add(5 * time.Second)
	for len(got) < n && time.Now().Before(deadline) {
		for _, e := range f.poll(t, name, q, -1, false) {
			if e.Type != "heartbeat" && !containsID(got, e.ID) {
				got = append(got, e)
			}
		}
	}
	return got
}

func containsID(evs []chat.Event, id int64) bool {
	for _, e := range evs {
		if e.ID == id {
			return true
		}
	}
	return false
}

func nonHeartbeats(evs []chat.Event) []chat.Event {
	var out []chat.Event
	for _, e := range evs {
		if e.Type != "heartbeat" {
			out = append(out, e)
		}
	}
	return out
}

// TestBusMatchesInProcess: through a bus, clients get the same events as in one process,
// adapted to their register options (markdown, gravatar, capabilities, narrow), and queue ids
// name the node.
func TestBusMatchesInProcess(t *testing.T) {
	t.Parallel()
	local, viaBus := newFixture(t), newFixture(t, withBus(newFakeBus()))
	ctx := t.Context()
	yes, no := true, false
	registrations := []chat.RegisterQueueParams{
		{ClientGravatar: &no},
		{ClientGravatar: &yes},
		{ApplyMarkdown: true, ClientGravatar: &no, ClientCapabilities: chat.ClientCapabilities{EmptyTopicName: true, LinkifierURLTemplate: true}},
		{Narrow: [][]string{{"channel", "bus"}}},
		{Narrow: [][]string{{"is", "dm"}}},
		{ClientCapabilities: chat.ClientCapabilities{SimplifiedPresenceEvents: true}},
		// Options only some events read: archiving a channel, a new subscription's settings.
		{ClientCapabilities: chat.ClientCapabilities{ArchivedChannels: true, NotificationSettingsNull: true}},
		{ApplyMarkdown: true, ClientCapabilities: chat.ClientCapabilities{ArchivedChannels: true}},
		{AllPublicStreams: &yes},
		// A narrow keeping a public channel's message that admin is not subscribed to.
		{Narrow: [][]string{{"topic", "t"}}},
	}
	var got [2][][]map[string]any
	for i, f := range []*fixture{local, viaBus} {
		var queues []string
		for _, p := range registrations {
			res, err := f.svc.RegisterQueue(ctx, f.actor("admin"), p)
			if err != nil {
				t.Fatal(err)
			}
			queues = append(queues, *res.QueueID)
		}
		if i == 1 && !strings.HasPrefix(queues[0], "n1:") {
			t.Errorf("queue id %q does not name node n1", queues[0])
		}
		for _, email := range []string{"a@example.com", "b@example.com"} {
			if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: email, FullName: "New " + email[:1]}); err != nil {
				t.Fatal(err)
			}
		}
		c := mustChannel(t, f, "bus", chat.NewChannelSettings{}, "admin", "member")
		mustSendToChannel(t, f, "member", c, "greetings", "**hello** channel")
		mustSendToChannel(t, f, "member", mustChannel(t, f, "elsewhere", chat.NewChannelSettings{}, "member"), "t", "not for admin")
		mustSendDirect(t, f, "member", "*hello* admin", "admin")
		f.report(t, "member", "active")
		if _, err := f.svc.ArchiveStream(ctx, f.actor("admin"), chat.ArchiveStreamParams{StreamID: c}); err != nil {
			t.Fatal(err)
		}
		for j, q := range queues {
			if i == 0 { // in process, the events are in the queues when the writes return
				got[i] = append(got[i], eventJSON(t, nonHeartbeats(f.poll(t, "admin", q, -1, true))))
			} else {
				got[i] = append(got[i], eventJSON(t, f.waitEvents(t, "admin", q, len(got[0][j]))))
			}
		}
	}
	// Event ids are per queue; a heartbeat appended while a bus long-poll waits takes one, so
	// compare the events without them.
	for i := range got {
		for _, evs := range got[i] {
			for _, e := range evs {
				delete(e, "id")
			}
		}
	}
	if diff := cmp.Diff(got[0], got[1]); diff != "" {
		t.Errorf("events through the bus differ from in-process ones (-local +bus):\n%s", diff)
	}
	var narrowed []any
	for _, e := range got[0][len(registrations)-1] {
		if e["type"] == "message" {
			narrowed = append(narrowed, e["message"].(map[string]any)["content"])
		}
	}
	if !cmp.Equal(narrowed, []any{"not for admin"}) {
		t.Errorf("the topic-narrowed queue got the messages %v, want only the public channel's message admin is not subscribed to", narrowed)
	}
	// The options made a difference, or the comparison checks little.
	for j := 1; j < len(registrations); j++ {
		if cmp.Equal(got[0][0], got[0][j]) {
			t.Errorf("registration %d got the same events as registration 0", j)
		}
	}
}

// TestBusRegistrationCut: a commit whose message is still in flight when a client registers is
// in the state it gets and never also in its queue; later commits are in the queue.
func TestBusRegistrationCut(t *testing.T) {
	t.Parallel()
	bus := newFakeBus()
	f := newFixture(t, withBus(bus))
	ctx := t.Context()
	bus.hold.Lock()
	if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "early@example.com", FullName: "Early"}); err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.RegisterQueue(ctx, f.actor("admin"), chat.RegisterQueueParams{})
	if err != nil {
		t.Fatal(err)
	}
	bus.hold.Unlock()
	if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "late@example.com", FullName: "Late"}); err != nil {
		t.Fatal(err)
	}
	f.waitEvents(t, "admin", *res.QueueID, 1)
	time.Sleep(50 * time.Millisecond) // lets a wrongly delivered event arrive too
	var names []string
	for _, e := range eventJSON(t, nonHeartbeats(f.poll(t, "admin", *res.QueueID, -1, true))) {
		if e["type"] == "realm_user" && e["op"] == "add" {
			person, _ := e["person"].(map[string]any)
			names = append(names, person["full_name"].(string))
		}
	}
	if diff := cmp.Diff([]string{"Late"}, names); diff != "" {
		t.Fatalf("queue events name users %v, want only Late (-want +got):\n%s", names, diff)
	}
}

// TestBusLoss: when the bus connection is lost, the Service listens again from the last
// message it got, so its queues miss nothing committed meanwhile; only when the bus no longer
// holds those messages do the queues end, and clients register again.
func TestBusLoss(t *testing.T) {
	t.Parallel()
	bus := newFakeBus()
	f := newFixture(t, withBus(bus))
	ctx := t.Context()
	q := f.register(t, "member", "realm_user")
	bus.disconnect()
	if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "meanwhile@example.com", FullName: "Meanwhile"}); err != nil {
		t.Fatal(err)
	}
	bus.reconnect()
	if got := f.waitEvents(t, "member", q, 1); len(got) != 1 || got[0].Type != "realm_user" {
		t.Fatalf("after a lost connection: %+v, want the realm_user event committed meanwhile", got)
	}

	// Messages the bus no longer holds: the queues end.
	bus.disconnect()
	if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "pruned@example.com", FullName: "Pruned"}); err != nil {
		t.Fatal(err)
	}
	bus.prune()
	bus.reconnect()
	waitQueueGone(t, f, "member", q, "the queue survived the loss of bus messages")
	deadline := time.Now().Add(5 * time.Second)
	var again string
	for {
		res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{EventTypes: []string{"realm_user"}})
		if err == nil {
			again = *res.QueueID
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("registering after the bus came back: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The next loss resumes from where the bus went on, not from before the pruned messages.
	bus.disconnect()
	if _, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: "later@example.com", FullName: "Later"}); err != nil {
		t.Fatal(err)
	}
	bus.reconnect()
	if got := addedUsers(t, f.waitEvents(t, "member", again, 1)); !cmp.Equal(got, []string{"Later"}) {
		t.Fatalf("the queue registered after the loss got %v, want [Later]", got)
	}
}

// TestBusEndsQueuesOfDeactivated: a deactivation ends the user's queues through the bus.
func TestBusEndsQueuesOfDeactivated(t *testing.T) {
	t.Parallel()
	f := newFixture(t, withBus(newFakeBus()))
	ctx := t.Context()
	q := f.register(t, "member")
	if _, err := f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["member"]}); err != nil {
		t.Fatal(err)
	}
	waitQueueGone(t, f, "member", q, "the deactivated user's queue still answers")
}

// waitQueueGone polls user's queue q until it answers BAD_EVENT_QUEUE_ID, failing with
// stillThere after 5 s.
func waitQueueGone(t *testing.T, f *fixture, user, q, stillThere string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := f.svc.GetEvents(t.Context(), f.actor(user), chat.GetEventsParams{QueueID: q, LastEventID: ptr(int64(-1)), DontBlock: true})
		if err != nil {
			wantError(t, err, chat.CodeBadEventQueueID, 400, "Bad event queue ID: "+q)
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(stillThere)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
