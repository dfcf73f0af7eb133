package chat_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/storagetest"
	"github.com/teamchat/chat/users"
)

// deactivationMessages provisions a bot of the member and has the member and the bot send
// messages to a public channel, an invite-only one and as direct messages; the admin sends one
// that no action touches.
func deactivationMessages(t *testing.T, f *fixture) map[string]messages.ID {
	t.Helper()
	f.ids["memberbot"] = mustProvision(t, f, chat.ProvisionUserParams{Email: "memberbot@example.com", FullName: "Member Bot",
		BotType: users.BotGeneric, BotOwnerID: f.ids["member"]}).UserID
	pub := mustChannel(t, f, "square", chat.NewChannelSettings{}, "member", "admin", "guest", "memberbot")
	priv := mustChannel(t, f, "back room", chat.NewChannelSettings{InviteOnly: true}, "member", "admin", "memberbot")
	return map[string]messages.ID{
		"member public":  mustSendToChannel(t, f, "member", pub, "plans", "public words"),
		"member private": mustSendToChannel(t, f, "member", priv, "plans", "private words"),
		"member direct":  mustSendDirect(t, f, "member", "direct words", "guest"),
		"bot public":     mustSendToChannel(t, f, "memberbot", pub, "bots", "beep"),
		"bot private":    mustSendToChannel(t, f, "memberbot", priv, "bots", "boop"),
		"bot direct":     mustSendDirect(t, f, "memberbot", "bzzt", "admin"),
		"admin public":   mustSendToChannel(t, f, "admin", pub, "plans", "stays"),
	}
}

// remainingMessages names the messages of sent that still exist.
func remainingMessages(t *testing.T, f *fixture, sent map[string]messages.ID) []string {
	t.Helper()
	var out []string
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		for name, id := range sent {
			if _, err := tx.Messages().Get(id); err == nil {
				out = append(out, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

func TestDeactivateUserDeletesMessages(t *testing.T) {
	t.Parallel()
	all := []string{"admin public", "bot direct", "bot private", "bot public", "member direct", "member private", "member public"}
	without := func(gone ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return slices.Contains(gone, s) })
	}
	tests := []struct {
		name    string
		actions chat.DeactivateUserActions
		remain  []string
	}{
		{"no deleting action", chat.DeactivateUserActions{DeleteProfile: true}, all},
		{"public channels", chat.DeactivateUserActions{DeletePublicChannelMessages: true}, without("member public", "bot public")},
		{"private channels", chat.DeactivateUserActions{DeletePrivateChannelMessages: true}, without("member private", "bot private")},
		{"direct messages", chat.DeactivateUserActions{DeleteDirectMessages: true}, without("member direct", "bot direct")},
		{"everything", chat.DeactivateUserActions{DeletePublicChannelMessages: true, DeletePrivateChannelMessages: true, DeleteDirectMessages: true},
			[]string{"admin public"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			sent := deactivationMessages(t, f)
			actions := tc.actions
			if _, err := f.svc.DeactivateUser(t.Context(), f.actor("admin"), chat.DeactivateUserParams{
				UserID: f.ids["member"], Actions: &actions,
			}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.remain, remainingMessages(t, f, sent)); diff != "" {
				t.Errorf("remaining messages (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDeactivateUserDeleteEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	sent := deactivationMessages(t, f)
	ctx := t.Context()
	queue := func(name string) string {
		res, err := f.svc.RegisterQueue(ctx, f.actor(name), chat.RegisterQueueParams{
			EventTypes: []string{"delete_message"}, ClientCapabilities: chat.ClientCapabilities{BulkMessageDeletion: true},
		})
		if err != nil {
			t.Fatal(err)
		}
		return *res.QueueID
	}
	guestQ, adminQ, ownerQ := queue("guest"), queue("admin"), queue("owner")
	if _, err := f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["member"],
		Actions: &chat.DeactivateUserActions{DeletePublicChannelMessages: true, DeletePrivateChannelMessages: true, DeleteDirectMessages: true},
	}); err != nil {
		t.Fatal(err)
	}
	deleted := func(name, q string) []messages.ID {
		var out []messages.ID
		for _, e := range messageEvents(t, f.poll(t, name, q, -1, true), "delete_message") {
			for _, id := range e["message_ids"].([]any) {
				out = append(out, messages.ID(id.(float64)))
			}
		}
		slices.Sort(out)
		return out
	}
	ids := func(names ...string) []messages.ID {
		var out []messages.ID
		for _, n := range names {
			out = append(out, sent[n])
		}
		slices.Sort(out)
		return out
	}
	// The guest received the public channel's messages and the member's direct message; the
	// administrator everything else but the member's direct message to the guest, which an
	// administrator cannot read; the owner received nothing.
	if diff := cmp.Diff(ids("member public", "bot public", "member direct"), deleted("guest", guestQ)); diff != "" {
		t.Errorf("guest's deletions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(ids("member public", "bot public", "member private", "bot private", "bot direct"), deleted("admin", adminQ)); diff != "" {
		t.Errorf("admin's deletions (-want +got):\n%s", diff)
	}
	if got := deleted("owner", ownerQ); len(got) != 0 {
		t.Errorf("owner got deletions of %v", got)
	}
}

// deactivationConsistencyCases check the events of a deactivation that deletes messages: the
// deactivated member and their bot wrote to channels and directly to the viewers.
func deactivationConsistencyCases() []consistencyCase {
	setup := func(t *testing.T, f *fixture) {
		f.ids["leaver"] = mustProvision(t, f, chat.ProvisionUserParams{Email: "leaver@example.com", FullName: "Lee Leaver"}).UserID
		f.ids["leaverbot"] = mustProvision(t, f, chat.ProvisionUserParams{Email: "leaverbot@example.com", FullName: "Leaver Bot",
			BotType: users.BotGeneric, BotOwnerID: f.ids["leaver"]}).UserID
		pub := mustChannel(t, f, "square", chat.NewChannelSettings{}, "member", "guest", "leaver", "leaverbot")
		priv := mustChannel(t, f, "back room", chat.NewChannelSettings{InviteOnly: true}, "admin", "leaver")
		mustSendToChannel(t, f, "leaver", pub, "plans", "public words")
		mustSendToChannel(t, f, "leaverbot", pub, "bots", "beep")
		mustSendToChannel(t, f, "leaver", priv, "plans", "private words")
		mustSendDirect(t, f, "leaver", "direct words", "guest", "member")
		mustSendDirect(t, f, "leaverbot", "bzzt", "admin")
		// Later messages stay, so that each viewer's newest message and conversations keep
		// their newest message (which only the server could recompute).
		mustSendDirect(t, f, "guest", "a reply", "leaver", "member")
		mustSendDirect(t, f, "admin", "a reply", "leaverbot")
		mustSendToChannel(t, f, "admin", priv, "plans", "stays")
		mustSendToChannel(t, f, "member", pub, "plans", "a reply that stays")
		// They leave the channels: register's subscriber_count counts active subscribers, which
		// a client cannot follow through a deactivation without subscriber lists.
		for who, chans := range map[string][]string{"leaver": {"square", "back room"}, "leaverbot": {"square"}} {
			if _, err := f.svc.Unsubscribe(t.Context(), f.actor(who), chat.UnsubscribeParams{Subscriptions: chans}); err != nil {
				t.Fatal(err)
			}
		}
	}
	return []consistencyCase{
		{method: "DeactivateUser", name: "deleting every message of the user and their bot", setup: setup, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.DeactivateUser(t.Context(), f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["leaver"],
				Actions: &chat.DeactivateUserActions{DeletePublicChannelMessages: true, DeletePrivateChannelMessages: true, DeleteDirectMessages: true},
			}); err != nil {
				t.Fatal(err)
			}
		}},
		{method: "DeactivateUser", name: "deleting public channel messages only", setup: setup, run: func(t *testing.T, f *fixture) {
			if _, err := f.svc.DeactivateUser(t.Context(), f.actor("owner"), chat.DeactivateUserParams{UserID: f.ids["leaver"],
				Actions: &chat.DeactivateUserActions{DeletePublicChannelMessages: true},
			}); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

// A storage failure part-way through a deactivation that deletes messages, or through a
// presence report, changes nothing and publishes nothing.
func TestFailedWritesChangeNothing(t *testing.T) {
	t.Parallel()
	faulty := storagetest.NewFaulty(memory.New())
	f := newFixtureOn(t, faulty)
	sent := deactivationMessages(t, f)
	q := f.register(t, "admin")
	ctx := t.Context()
	boom := errors.New("disk on fire")
	// The first writes delete the bot's messages; a later one fails.
	faulty.FailWritesAfter(2, boom)
	_, err := f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["member"],
		Actions: &chat.DeactivateUserActions{DeletePublicChannelMessages: true, DeletePrivateChannelMessages: true, DeleteDirectMessages: true}})
	faulty.FailWritesAfter(-1, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("deactivation error = %v, want the storage failure", err)
	}
	if got := remainingMessages(t, f, sent); len(got) != len(sent) || !f.isActive(t, "member") || !f.isActive(t, "memberbot") {
		t.Errorf("after a failed deactivation: messages %v, member active %v", got, f.isActive(t, "member"))
	}
	faulty.FailWritesAfter(0, boom)
	_, err = f.svc.UpdatePresence(ctx, f.actor("member"), chat.UpdatePresenceParams{Status: "active"})
	faulty.FailWritesAfter(-1, nil)
	if !errors.Is(err, boom) {
		t.Fatalf("presence error = %v, want the storage failure", err)
	}
	if res, err := f.svc.GetRealmPresence(ctx, f.actor("admin"), chat.GetRealmPresenceParams{}); err != nil || len(res.Presences) != 0 {
		t.Errorf("presence after a failed report: %v %v", res.Presences, err)
	}
	if evs := f.poll(t, "admin", q, -1, true); len(evs) != 0 {
		t.Errorf("events after failed writes: %v", eventJSON(t, evs))
	}
}
