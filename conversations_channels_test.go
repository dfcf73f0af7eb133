package chat_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// channelSnapshot is every channel and subscription row of the store, to prove that a refused
// request changed nothing.
type channelSnapshot struct {
	Channels []channels.Channel
	Subs     []channels.Subscription
}

func (f *fixture) channelSnapshot(t *testing.T) channelSnapshot {
	t.Helper()
	var s channelSnapshot
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		var err error
		if s.Channels, err = tx.Channels().List(); err != nil {
			return err
		}
		ids := make([]channels.ID, len(s.Channels))
		for i, c := range s.Channels {
			ids[i] = c.ID
		}
		s.Subs, err = tx.Subscriptions().ListForChannels(ids, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustSubscribe subscribes and fails the test on error.
func (f *fixture) mustSubscribe(t *testing.T, as string, p chat.SubscribeParams) chat.SubscribeResult {
	t.Helper()
	res, err := f.svc.Subscribe(t.Context(), f.actor(as), p)
	if err != nil {
		t.Fatalf("Subscribe as %s: %v", as, err)
	}
	return res
}

// mustChannel returns the stored channel with the name.
func (f *fixture) mustChannel(t *testing.T, name string) channels.Channel {
	t.Helper()
	var c channels.Channel
	err := f.store.View(t.Context(), func(tx storage.ReadTx) (err error) {
		c, err = tx.Channels().GetByName(name)
		return err
	})
	if err != nil {
		t.Fatalf("channel %q: %v", name, err)
	}
	return c
}

func subs(names ...string) []chat.SubscriptionRequest {
	out := make([]chat.SubscriptionRequest, len(names))
	for i, n := range names {
		out[i] = chat.SubscriptionRequest{Name: n}
	}
	return out
}

// eventMaps renders events as generic JSON values without their ids.
func eventMaps(t *testing.T, evs []chat.Event) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range evs {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "id")
		out = append(out, m)
	}
	return out
}

func TestSubscribeCreatesChannel(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	qMember := f.register(t, "member")
	qAdmin := f.register(t, "admin")
	qGuest := f.register(t, "guest")
	desc := "A city in **Italy**\nwith canals"
	res := f.mustSubscribe(t, "member", chat.SubscribeParams{
		Subscriptions: []chat.SubscriptionRequest{{Name: "  Verona ", Description: &desc}, {Name: "verona"}},
	})
	me := strconv.FormatInt(int64(f.ids["member"]), 10)
	want := chat.SubscribeResult{Subscribed: map[string][]string{me: {"Verona"}}, AlreadySubscribed: map[string][]string{}}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Fatalf("result (-want +got):\n%s", diff)
	}

	got, err := f.svc.GetSubscriptions(ctx, f.actor("member"), chat.GetSubscriptionsParams{IncludeSubscribers: "true"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Subscriptions) != 1 {
		t.Fatalf("subscriptions = %+v", got.Subscriptions)
	}
	b, _ := json.Marshal(got.Subscriptions[0])
	var rec map[string]any
	json.Unmarshal(b, &rec)
	c := f.mustChannel(t, "verona")
	everyone := float64(c.CanSendMessageGroup.Group)
	wantRec := map[string]any{
		"stream_id": float64(c.ID), "name": "Verona", "description": "A city in **Italy** with canals",
		"rendered_description": "<p>A city in <strong>Italy</strong> with canals</p>",
		"date_created":         float64(f.clock.Now().Unix()), "creator_id": float64(f.ids["member"]),
		"invite_only": false, "is_web_public": false, "history_public_to_subscribers": true,
		"message_retention_days": nil, "first_message_id": float64(1) /* the creation notice */, "is_archived": false, "is_recently_active": true,
		"folder_id": nil, "topics_policy": "inherit", "default_push_notifications": false, "stream_post_policy": float64(1), "is_announcement_only": false,
		"stream_weekly_traffic": nil, "subscriber_count": float64(1),
		"can_add_subscribers_group":              float64(c.CanAddSubscribersGroup.Group),
		"can_administer_channel_group":           map[string]any{"direct_members": []any{float64(f.ids["member"])}, "direct_subgroups": []any{}},
		"can_create_topic_group":                 everyone,
		"can_delete_any_message_group":           float64(c.CanAddSubscribersGroup.Group),
		"can_delete_own_message_group":           float64(c.CanAddSubscribersGroup.Group),
		"can_move_messages_out_of_channel_group": float64(c.CanAddSubscribersGroup.Group),
		"can_move_messages_within_channel_group": float64(c.CanAddSubscribersGroup.Group),
		"can_remove_subscribers_group":           float64(c.CanRemoveSubscribersGroup.Group),
		"can_resolve_topics_group":               float64(c.CanAddSubscribersGroup.Group),
		"can_send_message_group":                 everyone,
		"can_subscribe_group":                    float64(c.CanAddSubscribersGroup.Group),
		"subscribers":                            []any{float64(f.ids["member"])},
		"color":                                  "#76ce90", "is_muted": false, "in_home_view": true, "pin_to_top": false,
		"desktop_notifications": nil, "audible_notifications": nil, "push_notifications": nil,
		"email_notifications": nil, "wildcard_mentions_notify": nil,
	}
	if diff := cmp.Diff(wantRec, rec); diff != "" {
		t.Fatalf("subscription record (-want +got):\n%s", diff)
	}
	if c.CanRemoveSubscribersGroup.Group == c.CanAddSubscribersGroup.Group || c.CanAddSubscribersGroup.Group == 0 {
		t.Fatalf("defaults: add=%v remove=%v", c.CanAddSubscribersGroup, c.CanRemoveSubscribersGroup)
	}

	// The creator: stream create, subscription add (with subscribers); no peer_add.
	evs := eventMaps(t, f.poll(t, "member", qMember, -1, true))
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, fmt.Sprint(e["type"], "/", e["op"]))
	}
	// Then first_message_id and the notification bot's notice of the channel's creation.
	if diff := cmp.Diff([]string{"stream/create", "subscription/add", "stream/update", "message/<nil>"}, kinds); diff != "" {
		t.Fatalf("member's events (-want +got):\n%s", diff)
	}
	add := evs[1]["subscriptions"].([]any)[0].(map[string]any)
	if add["name"] != "Verona" || !cmp.Equal(add["subscribers"], []any{float64(f.ids["member"])}) {
		t.Fatalf("subscription add = %v", add)
	}
	// Another member of the organization: stream create, peer_add, then first_message_id.
	evs = eventMaps(t, f.poll(t, "admin", qAdmin, -1, true))
	wantPeer := map[string]any{"type": "subscription", "op": "peer_add", "stream_ids": []any{float64(c.ID)}, "user_ids": []any{float64(f.ids["member"])}}
	if len(evs) != 3 || evs[0]["op"] != "create" || !cmp.Equal(evs[1], wantPeer) || evs[2]["property"] != "first_message_id" {
		t.Fatalf("admin's events = %v", evs)
	}
	// A guest cannot see a public channel it is not subscribed to: nothing.
	if evs := f.poll(t, "guest", qGuest, -1, true); len(evs) != 0 {
		t.Fatalf("guest's events = %v", eventMaps(t, evs))
	}

	// Subscribing again: already subscribed, nothing changes.
	before := f.channelSnapshot(t)
	res = f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("VERONA")})
	if diff := cmp.Diff(chat.SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{me: {"Verona"}}}, res); diff != "" {
		t.Fatalf("again (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
		t.Fatalf("store changed (-before +after):\n%s", diff)
	}
}

func TestSubscribeOthersAndColors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("a", "b")})
	res := f.mustSubscribe(t, "admin", chat.SubscribeParams{
		Subscriptions: subs("a", "b", "c"),
		Principals:    chat.Principals{Emails: []string{"member@example.com", "admin@example.com"}},
	})
	admin, member := strconv.FormatInt(int64(f.ids["admin"]), 10), strconv.FormatInt(int64(f.ids["member"]), 10)
	want := chat.SubscribeResult{
		Subscribed:        map[string][]string{admin: {"c"}, member: {"a", "b", "c"}},
		AlreadySubscribed: map[string][]string{admin: {"a", "b"}},
		// Others were named; send_new_subscription_messages defaults to true.
		NewSubscriptionMessagesSent: ptr(true),
	}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Fatalf("result (-want +got):\n%s", diff)
	}
	got, err := f.svc.GetSubscriptions(ctx, f.actor("member"), chat.GetSubscriptionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var colors []string
	for _, s := range got.Subscriptions {
		colors = append(colors, s.Color)
		if s.Subscribers != nil {
			t.Fatalf("subscribers sent without include_subscribers: %v", s.Subscribers)
		}
	}
	if diff := cmp.Diff([]string{"#76ce90", "#fae589", "#a6c7e5"}, colors); diff != "" {
		t.Fatalf("colours (-want +got):\n%s", diff)
	}
	// Principals by id; the subscriber counts follow.
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("a"), Principals: chat.Principals{IDs: []users.ID{f.ids["bot"], f.ids["guest"]}}})
	streams, err := f.svc.GetStreams(ctx, f.actor("owner"), chat.GetStreamsParams{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, s := range streams.Streams {
		counts[s.Name] = s.SubscriberCount
	}
	if diff := cmp.Diff(map[string]int{"a": 4, "b": 2, "c": 2}, counts); diff != "" {
		t.Fatalf("subscriber counts (-want +got):\n%s", diff)
	}
}

func TestSubscribeRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("secret"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("public")})
	f.setUser(t, "webhook", func(u *users.User) { u.IsActive = false })
	groups := f.groups(t)
	no := false
	days := "30"
	tests := []struct {
		name   string
		as     string
		p      chat.SubscribeParams
		code   chat.Code
		msg    string
		result *chat.SubscribeResult
	}{
		{"guests may not use it", "guest", chat.SubscribeParams{Subscriptions: subs("public")}, chat.CodeBadRequest, "Not allowed for guest users", nil},
		{"empty name", "member", chat.SubscribeParams{Subscriptions: subs("  ")}, chat.CodeBadRequest, "Channel name can't be empty.", nil},
		{"long name", "member", chat.SubscribeParams{Subscriptions: subs(string(make([]rune, 61)) + "x")}, chat.CodeBadRequest, "", nil},
		{"control character", "member", chat.SubscribeParams{Subscriptions: subs("a\x01b")}, chat.CodeBadRequest, "Invalid character in channel name, at position 2.", nil},
		{"unknown principal", "member", chat.SubscribeParams{Subscriptions: subs("public"), Principals: chat.Principals{IDs: []users.ID{9999}}}, chat.CodeBadRequest, "No such user", nil},
		{"unknown email principal", "member", chat.SubscribeParams{Subscriptions: subs("new"), Principals: chat.Principals{Emails: []string{"nobody@example.com"}}}, chat.CodeBadRequest, "No such user", nil},
		{"deactivated principal", "member", chat.SubscribeParams{Subscriptions: subs("public"), Principals: chat.Principals{IDs: []users.ID{f.ids["webhook"]}}}, chat.CodeBadRequest, "No such user", nil},
		{"private channel without access", "member", chat.SubscribeParams{Subscriptions: subs("public", "secret")}, chat.CodeBadRequest, "Unable to access channel (secret).", nil},
		{"non-fatal lists it", "member", chat.SubscribeParams{Subscriptions: subs("secret"), AuthorizationErrorsFatal: &no}, "", "",
			&chat.SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{}, Unauthorized: &[]string{"secret"}}},
		{"default channel needs an administrator", "member", chat.SubscribeParams{Subscriptions: subs("new"), NewChannelSettings: chat.NewChannelSettings{IsDefaultStream: true}}, chat.CodeBadRequest, "Insufficient permission", nil},
		{"a default channel is public", "admin", chat.SubscribeParams{Subscriptions: subs("new"), NewChannelSettings: chat.NewChannelSettings{IsDefaultStream: true, InviteOnly: true}}, chat.CodeBadRequest, "A default channel cannot be private.", nil},
		{"retention needs an owner", "admin", chat.SubscribeParams{Subscriptions: subs("new"), NewChannelSettings: chat.NewChannelSettings{MessageRetentionDays: &days}}, chat.CodeUnauthorizedPrincipal, "Must be an organization owner", nil},
		{"web-public needs spectator access", "owner", chat.SubscribeParams{Subscriptions: subs("new"), NewChannelSettings: chat.NewChannelSettings{IsWebPublic: true}}, chat.CodeBadRequest, "Web-public channels are not enabled.", nil},
		{"protected history needs everyone creating topics", "member", chat.SubscribeParams{Subscriptions: subs("new"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true,
			GroupSettings: map[string]users.GroupSetting{"can_create_topic_group": users.Named(groups[users.GroupMembers])}}},
			chat.CodeBadRequest, "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group", nil},
		{"everyone is not allowed for can_add_subscribers_group", "member", chat.SubscribeParams{Subscriptions: subs("new"), NewChannelSettings: chat.NewChannelSettings{
			GroupSettings: map[string]users.GroupSetting{"can_add_subscribers_group": users.Named(groups[users.GroupEveryone])}}},
			chat.CodeBadRequest, "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.", nil},
		{"unknown group", "member", chat.SubscribeParams{Subscriptions: subs("new"), NewChannelSettings: chat.NewChannelSettings{
			GroupSettings: map[string]users.GroupSetting{"can_send_message_group": users.Named(9999)}}},
			chat.CodeBadRequest, "Invalid user group ID: 9999", nil},
		{"bad topics policy", "member", chat.SubscribeParams{Subscriptions: subs("new"), NewChannelSettings: chat.NewChannelSettings{TopicsPolicy: ptr("sometimes")}}, chat.CodeBadRequest, "Invalid topics_policy", nil},
		{"bad colour", "member", chat.SubscribeParams{Subscriptions: []chat.SubscriptionRequest{{Name: "new", Color: ptr("red")}}}, chat.CodeBadRequest, "color is not a valid hex color code", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.channelSnapshot(t)
			res, err := f.svc.Subscribe(t.Context(), f.actor(tt.as), tt.p)
			if tt.result != nil {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(*tt.result, res); diff != "" {
					t.Fatalf("result (-want +got):\n%s", diff)
				}
			} else {
				wantError(t, err, tt.code, 400, tt.msg)
			}
			if diff := cmp.Diff(before, f.channelSnapshot(t), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("store changed (-before +after):\n%s", diff)
			}
		})
	}
}

// groups returns the system groups by name.
func (f *fixture) groups(t *testing.T) map[string]users.GroupID {
	t.Helper()
	out := map[string]users.GroupID{}
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		all, err := tx.Groups().List()
		for _, g := range all {
			out[g.Name] = g.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCreateChannel(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	res, err := f.svc.CreateChannel(ctx, f.actor("member"), chat.CreateChannelParams{
		Name: "Rome", Description: "Eternal", Subscribers: []users.ID{f.ids["admin"], f.ids["bot"]},
		NewChannelSettings: chat.NewChannelSettings{InviteOnly: true, HistoryPublicToSubscribers: ptr(true)},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := f.mustChannel(t, "rome")
	if c.ID != res.ID || !c.InviteOnly || !c.HistoryPublicToSubscribers || c.Description != "Eternal" {
		t.Fatalf("channel = %+v, id %d", c, res.ID)
	}
	snap := f.channelSnapshot(t)
	var who []users.ID
	for _, s := range snap.Subs {
		who = append(who, s.UserID)
	}
	if diff := cmp.Diff([]users.ID{f.ids["admin"], f.ids["bot"]}, who); diff != "" {
		t.Fatalf("subscribers (-want +got):\n%s", diff)
	}
	_, err = f.svc.CreateChannel(ctx, f.actor("admin"), chat.CreateChannelParams{Name: "ROME", Subscribers: []users.ID{}})
	wantError(t, err, chat.CodeChannelAlreadyExists, 409, "Channel 'Rome' already exists")
	if diff := cmp.Diff(snap, f.channelSnapshot(t)); diff != "" {
		t.Fatalf("store changed (-before +after):\n%s", diff)
	}
}

func TestPrivateChannelVisibility(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	qMember := f.register(t, "member")
	f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("secret"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	// The member learns nothing of it.
	if evs := f.poll(t, "member", qMember, -1, true); len(evs) != 0 {
		t.Fatalf("member's events = %v", eventMaps(t, evs))
	}
	for _, as := range []string{"member", "guest"} {
		streams, err := f.svc.GetStreams(ctx, f.actor(as), chat.GetStreamsParams{IncludeAll: ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		if len(streams.Streams) != 0 {
			t.Fatalf("%s sees %v", as, streams.Streams)
		}
	}
	// Administrators see it (metadata access) but not its content.
	streams, err := f.svc.GetStreams(ctx, f.actor("admin"), chat.GetStreamsParams{})
	if err != nil || len(streams.Streams) != 0 {
		t.Fatalf("admin's default list = %v, %v", streams.Streams, err)
	}
	streams, err = f.svc.GetStreams(ctx, f.actor("admin"), chat.GetStreamsParams{IncludeAll: ptr(true)})
	if err != nil || len(streams.Streams) != 1 {
		t.Fatalf("admin's full list = %v, %v", streams.Streams, err)
	}
	// Subscribed by the owner, the member gets stream create, then subscription add.
	f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("secret"), Principals: chat.Principals{IDs: []users.ID{f.ids["member"]}}})
	var kinds []string
	for _, e := range eventMaps(t, f.poll(t, "member", qMember, -1, true)) {
		kinds = append(kinds, fmt.Sprint(e["type"], "/", e["op"]))
	}
	// Then the notification bot's direct message about the subscription.
	if diff := cmp.Diff([]string{"stream/create", "subscription/add", "message/<nil>"}, kinds); diff != "" {
		t.Fatalf("member's events (-want +got):\n%s", diff)
	}
}

func TestRegisterSubscriptionsAndStreams(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("mine", "left")})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("other")})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("hidden"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	// Mark "left" as unsubscribed directly (unsubscribing lands later).
	c := f.mustChannel(t, "left")
	err := f.store.Update(ctx, func(tx storage.Tx) error {
		s, err := tx.Subscriptions().Get(f.ids["member"], c.ID)
		if err != nil {
			return err
		}
		s.Active = false
		return tx.Subscriptions().Put([]channels.Subscription{s})
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"subscription", "stream"}, IncludeSubscribers: "true"})
	if err != nil {
		t.Fatal(err)
	}
	names := func(l []chat.ChannelRecord) []string {
		var out []string
		for _, c := range l {
			out = append(out, c.Name)
		}
		return out
	}
	var subNames, unsubNames []string
	for _, s := range *res.Subscriptions {
		subNames = append(subNames, s.Name)
		if s.DesktopNotifications == nil || *s.DesktopNotifications {
			t.Fatalf("notification settings not resolved for a client without notification_settings_null: %v", s.DesktopNotifications)
		}
	}
	for _, s := range *res.Unsubscribed {
		unsubNames = append(unsubNames, s.Name)
	}
	got := map[string][]string{"subscriptions": subNames, "unsubscribed": unsubNames, "never_subscribed": names(*res.NeverSubscribed), "streams": names(*res.Streams)}
	want := map[string][]string{"subscriptions": {"mine"}, "unsubscribed": {"left"}, "never_subscribed": {"other"}, "streams": {"left", "mine", "other"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("register (-want +got):\n%s", diff)
	}
	if first := (*res.Subscriptions)[0]; first.Subscribers == nil || !slices.Equal(*first.Subscribers, []users.ID{f.ids["member"]}) {
		t.Fatalf("subscribers = %v", first.Subscribers)
	}
}

func TestSubscribeThousandPrincipals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	var principals []users.ID
	for i := range 1000 {
		r, err := f.svc.ProvisionUser(ctx, chat.ProvisionUserParams{Email: fmt.Sprintf("user%d@example.com", i), FullName: fmt.Sprintf("User %d", i)})
		if err != nil {
			t.Fatal(err)
		}
		principals = append(principals, r.UserID)
	}
	qAdmin := f.register(t, "admin", "subscription")
	names := make([]string, 10)
	for i := range names {
		names[i] = fmt.Sprintf("channel %d", i)
	}
	res := f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs(names...), Principals: chat.Principals{IDs: principals}})
	if len(res.Subscribed) != 1000 {
		t.Fatalf("subscribed %d users", len(res.Subscribed))
	}
	snap := f.channelSnapshot(t)
	got := map[channels.ID][]users.ID{}
	for _, s := range snap.Subs {
		if !s.Active {
			t.Fatalf("inactive row %+v", s)
		}
		got[s.ChannelID] = append(got[s.ChannelID], s.UserID)
	}
	if len(snap.Channels) != 10 {
		t.Fatalf("%d channels", len(snap.Channels))
	}
	for _, c := range snap.Channels {
		if diff := cmp.Diff(principals, got[c.ID]); diff != "" {
			t.Fatalf("subscribers of %s (-want +got):\n%s", c.Name, diff)
		}
		if r := res.Subscribed[strconv.FormatInt(int64(principals[0]), 10)]; len(r) != 10 {
			t.Fatalf("subscribed channels of the first principal = %v", r)
		}
	}
	peers := map[channels.ID][]users.ID{}
	for _, e := range f.poll(t, "admin", qAdmin, -1, true) {
		ev := e.Payload.(chat.SubscriptionEvent)
		if ev.Op != "peer_add" || len(ev.StreamIDs) != 1 {
			t.Fatalf("admin got %+v", ev)
		}
		peers[ev.StreamIDs[0]] = append(peers[ev.StreamIDs[0]], ev.UserIDs...)
	}
	if diff := cmp.Diff(got, peers); diff != "" {
		t.Fatalf("peer_add events (-want +got):\n%s", diff)
	}
	streams, err := f.svc.GetStreams(ctx, f.actor("admin"), chat.GetStreamsParams{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range streams.Streams {
		if s.SubscriberCount != 1000 {
			t.Fatalf("%s has subscriber_count %d", s.Name, s.SubscriberCount)
		}
	}
}
