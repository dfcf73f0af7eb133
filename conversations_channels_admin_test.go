package chat_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// kinds lists the events as type/op[/property].
func kinds(t *testing.T, evs []chat.Event) []string {
	t.Helper()
	var out []string
	for _, e := range eventMaps(t, evs) {
		k := fmt.Sprint(e["type"], "/", e["op"])
		if p, ok := e["property"]; ok {
			k += fmt.Sprint("/", p, "=", e["value"])
		}
		out = append(out, k)
	}
	return out
}

func TestUpdateSubscriptionSettings(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("a")})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("b")})
	a, b := f.mustChannel(t, "a"), f.mustChannel(t, "b")
	q := f.register(t, "member")
	_, err := f.svc.UpdateSubscriptionSettings(ctx, f.actor("member"), chat.UpdateSubscriptionSettingsParams{SubscriptionData: []chat.SubscriptionPropertyChange{
		{StreamID: a.ID, Property: "color", Value: "#abcdef"},
		{StreamID: a.ID, Property: "in_home_view", Value: false},
		{StreamID: a.ID, Property: "pin_to_top", Value: true},
		{StreamID: a.ID, Property: "desktop_notifications", Value: false},
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"subscription/update/color=#abcdef",
		"subscription/update/in_home_view=false", "subscription/update/is_muted=true",
		"subscription/update/pin_to_top=true",
		"subscription/update/desktop_notifications=false",
	}
	if diff := cmp.Diff(want, kinds(t, f.poll(t, "member", q, -1, true))); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	got, err := f.svc.GetSubscriptions(ctx, f.actor("member"), chat.GetSubscriptionsParams{})
	if err != nil {
		t.Fatal(err)
	}
	s := got.Subscriptions[0]
	if s.Color != "#abcdef" || !s.IsMuted || s.InHomeView || !s.PinToTop || s.DesktopNotifications == nil || *s.DesktopNotifications || s.AudibleNotifications != nil {
		t.Fatalf("subscription = %+v", s)
	}

	refusals := []struct {
		name string
		data []chat.SubscriptionPropertyChange
		msg  string
	}{
		{"unknown property", []chat.SubscriptionPropertyChange{{StreamID: a.ID, Property: "pin_to_top", Value: false}, {StreamID: a.ID, Property: "sparkle", Value: true}}, "Unknown subscription property: sparkle"},
		{"colour not hex", []chat.SubscriptionPropertyChange{{StreamID: a.ID, Property: "color", Value: "blue"}}, "color is not a valid hex color code"},
		{"boolean expected", []chat.SubscriptionPropertyChange{{StreamID: a.ID, Property: "is_muted", Value: "yes"}}, "is_muted is not a boolean"},
		{"not subscribed", []chat.SubscriptionPropertyChange{{StreamID: a.ID, Property: "pin_to_top", Value: false}, {StreamID: b.ID, Property: "pin_to_top", Value: true}}, fmt.Sprintf("Not subscribed to channel ID %d", b.ID)},
		{"unknown channel", []chat.SubscriptionPropertyChange{{StreamID: 999, Property: "pin_to_top", Value: true}}, "Invalid channel ID"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			before := f.channelSnapshot(t)
			_, err := f.svc.UpdateSubscriptionSettings(ctx, f.actor("member"), chat.UpdateSubscriptionSettingsParams{SubscriptionData: tt.data})
			wantError(t, err, chat.CodeBadRequest, 400, tt.msg)
			if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
				t.Fatalf("store changed (-before +after):\n%s", diff)
			}
			if evs := f.poll(t, "member", q, 4, true); len(evs) != 0 {
				t.Fatalf("events after a refusal: %v", kinds(t, evs))
			}
		})
	}
}

func TestUnsubscribe(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("pub", "priv"), Principals: chat.Principals{IDs: []users.ID{f.ids["owner"], f.ids["member"]}}})
	f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("secret"), Principals: chat.Principals{IDs: []users.ID{f.ids["owner"], f.ids["member"]}}, NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	qMember, qAdmin := f.register(t, "member"), f.register(t, "admin")

	// A member may not remove others.
	before := f.channelSnapshot(t)
	_, err := f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"pub"}, Principals: chat.Principals{IDs: []users.ID{f.ids["owner"]}}})
	wantError(t, err, chat.CodeBadRequest, 400, "Insufficient permission")
	_, err = f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"pub", "nowhere", "also"}})
	wantError(t, err, chat.CodeBadRequest, 400, "Channel(s) (nowhere, also) do not exist")
	if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
		t.Fatalf("store changed (-before +after):\n%s", diff)
	}

	// Leaving oneself, including a private channel.
	res, err := f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"pub", "secret"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(chat.UnsubscribeResult{Removed: []string{"pub", "secret"}, NotRemoved: []string{}}, res); diff != "" {
		t.Fatalf("result (-want +got):\n%s", diff)
	}
	// Zulip's mark_stream_messages_as_read marks the notices of the channels' creation read.
	wantKinds := []string{"subscription/remove", "update_message_flags/add", "stream/delete"}
	if diff := cmp.Diff(wantKinds, kinds(t, f.poll(t, "member", qMember, -1, true))); diff != "" {
		t.Fatalf("member's events (-want +got):\n%s", diff)
	}
	// The admin sees both peer_remove events (it has metadata access to the private one).
	if diff := cmp.Diff([]string{"subscription/peer_remove", "subscription/peer_remove"}, kinds(t, f.poll(t, "admin", qAdmin, -1, true))); diff != "" {
		t.Fatalf("admin's events (-want +got):\n%s", diff)
	}
	// Again: nothing to remove.
	res, err = f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"pub"}})
	if err != nil || !cmp.Equal(res, chat.UnsubscribeResult{Removed: []string{}, NotRemoved: []string{"pub"}}) {
		t.Fatalf("again: %+v, %v", res, err)
	}
	// The private channel is now unknown to the member.
	_, err = f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"secret"}})
	wantError(t, err, chat.CodeBadRequest, 400, "Channel(s) (secret) do not exist")
	// An administrator removes others; a resubscription keeps the colour.
	before = f.channelSnapshot(t)
	if _, err := f.svc.Unsubscribe(ctx, f.actor("admin"), chat.UnsubscribeParams{Subscriptions: []string{"priv"}, Principals: chat.Principals{IDs: []users.ID{f.ids["member"]}}}); err != nil {
		t.Fatal(err)
	}
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("priv")})
	if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
		t.Fatalf("resubscribing changed the row (-before +after):\n%s", diff)
	}
	// Subscriber counts follow.
	got, err := f.svc.GetStreamByID(ctx, f.actor("owner"), chat.GetStreamByIDParams{StreamID: f.mustChannel(t, "pub").ID})
	if err != nil || got.Stream.SubscriberCount != 1 {
		t.Fatalf("pub: %+v, %v", got.Stream, err)
	}
}

func TestStreamLookups(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("Pub")})
	f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("Secret"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	pub, secret := f.mustChannel(t, "pub"), f.mustChannel(t, "secret")

	id, err := f.svc.GetStreamID(ctx, f.actor("member"), chat.GetStreamIDParams{Stream: "PUB"})
	if err != nil || id.StreamID != pub.ID {
		t.Fatalf("GetStreamID = %v, %v", id, err)
	}
	_, err = f.svc.GetStreamID(ctx, f.actor("member"), chat.GetStreamIDParams{Stream: "Secret"})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel name 'Secret'")
	_, err = f.svc.GetStreamByID(ctx, f.actor("member"), chat.GetStreamByIDParams{StreamID: secret.ID})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel ID")
	_, err = f.svc.GetStreamByID(ctx, f.actor("member"), chat.GetStreamByIDParams{StreamID: 999})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel ID")
	if _, err := f.svc.GetStreamByID(ctx, f.actor("admin"), chat.GetStreamByIDParams{StreamID: secret.ID}); err != nil {
		t.Fatalf("admin: %v", err)
	}
	members, err := f.svc.GetSubscribers(ctx, f.actor("member"), chat.GetSubscribersParams{StreamID: pub.ID})
	if err != nil || !cmp.Equal(members.Subscribers, []users.ID{f.ids["owner"]}) {
		t.Fatalf("members = %v, %v", members, err)
	}
	_, err = f.svc.GetSubscribers(ctx, f.actor("member"), chat.GetSubscribersParams{StreamID: secret.ID})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel ID")
	st, err := f.svc.GetSubscriptionStatus(ctx, f.actor("member"), chat.GetSubscriptionStatusParams{UserID: f.ids["owner"], StreamID: pub.ID})
	if err != nil || !st.IsSubscribed {
		t.Fatalf("status = %v, %v", st, err)
	}
	_, err = f.svc.GetSubscriptionStatus(ctx, f.actor("member"), chat.GetSubscriptionStatusParams{UserID: 999, StreamID: pub.ID})
	wantError(t, err, chat.CodeBadRequest, 400, "No such user")
}

func TestUpdateStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	groups := f.groups(t)
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("Verona")})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("Other"), Principals: chat.Principals{IDs: []users.ID{f.ids["member"]}}})
	c := f.mustChannel(t, "verona")
	qAdmin, qGuest := f.register(t, "admin"), f.register(t, "guest")

	// The creator administers it (can_administer_channel_group holds the creator).
	_, err := f.svc.UpdateStream(ctx, f.actor("member"), chat.UpdateStreamParams{
		StreamID: c.ID, NewName: ptr("Venezia"), Description: ptr("On *water*"),
		GroupSettings: map[string]chat.GroupSettingChange{"can_send_message_group": {New: ptr(users.Named(groups[users.GroupMembers])), Old: ptr(users.Named(groups[users.GroupEveryone]))}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := eventMaps(t, f.poll(t, "admin", qAdmin, -1, true))
	want := []map[string]any{
		{"type": "stream", "op": "update", "stream_id": float64(c.ID), "name": "Verona", "property": "name", "value": "Venezia"},
		{"type": "stream", "op": "update", "stream_id": float64(c.ID), "name": "Verona", "property": "description", "value": "On *water*", "rendered_description": "<p>On <em>water</em></p>"},
		{"type": "stream", "op": "update", "stream_id": float64(c.ID), "name": "Verona", "property": "can_send_message_group", "value": float64(groups[users.GroupMembers])},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("admin's events (-want +got):\n%s", diff)
	}
	if evs := f.poll(t, "guest", qGuest, -1, true); len(evs) != 0 {
		t.Fatalf("guest's events: %v", kinds(t, evs))
	}

	// Making it private: users who lose sight of it get stream delete.
	if _, err := f.svc.UpdateStream(ctx, f.actor("admin"), chat.UpdateStreamParams{StreamID: c.ID, IsPrivate: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	stored := f.mustChannel(t, "venezia")
	if !stored.InviteOnly || stored.HistoryPublicToSubscribers {
		t.Fatalf("after making private: %+v", stored)
	}
	qOwner := f.register(t, "owner")
	_, err = f.svc.UpdateStream(ctx, f.actor("admin"), chat.UpdateStreamParams{StreamID: c.ID, IsPrivate: ptr(false)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"stream/update/invite_only=false"}, kinds(t, f.poll(t, "owner", qOwner, -1, true))); diff != "" {
		t.Fatalf("owner's events (-want +got):\n%s", diff)
	}

	refusals := []struct {
		name string
		as   string
		p    chat.UpdateStreamParams
		code chat.Code
		msg  string
	}{
		{"not an administrator of the channel", "guest", chat.UpdateStreamParams{StreamID: c.ID, Description: ptr("x")}, chat.CodeBadRequest, "Invalid channel ID"},
		{"member who is not the creator", "member", chat.UpdateStreamParams{StreamID: f.mustChannel(t, "other").ID, Description: ptr("x")}, chat.CodeBadRequest, "You do not have permission to administer this channel."},
		{"same name", "admin", chat.UpdateStreamParams{StreamID: c.ID, NewName: ptr("Venezia")}, chat.CodeBadRequest, "Channel already has that name."},
		{"taken name", "admin", chat.UpdateStreamParams{StreamID: c.ID, NewName: ptr("other")}, chat.CodeChannelAlreadyExists, "Channel 'other' already exists"},
		{"stale old value", "admin", chat.UpdateStreamParams{StreamID: c.ID, GroupSettings: map[string]chat.GroupSettingChange{"can_send_message_group": {New: ptr(users.Named(groups[users.GroupEveryone])), Old: ptr(users.Named(groups[users.GroupEveryone]))}}},
			chat.CodeBadRequest, "'old' value does not match the expected value."},
		{"retention by an administrator", "admin", chat.UpdateStreamParams{StreamID: c.ID, MessageRetentionDays: ptr("unlimited")}, chat.CodeUnauthorizedPrincipal, "Must be an organization owner"},
		{"default and private", "admin", chat.UpdateStreamParams{StreamID: c.ID, IsDefaultStream: ptr(true), IsPrivate: ptr(true)}, chat.CodeBadRequest, "A default channel cannot be private."},
		{"unknown folder", "admin", chat.UpdateStreamParams{StreamID: c.ID, FolderID: ptr(channels.FolderID(42))}, chat.CodeBadRequest, "Invalid channel folder ID"},
		{"protected history, topic creation restricted", "admin", chat.UpdateStreamParams{StreamID: c.ID, IsPrivate: ptr(true),
			GroupSettings: map[string]chat.GroupSettingChange{"can_create_topic_group": {New: ptr(users.Named(groups[users.GroupMembers]))}}},
			chat.CodeBadRequest, "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			before := f.channelSnapshot(t)
			_, err := f.svc.UpdateStream(ctx, f.actor(tt.as), tt.p)
			wantError(t, err, tt.code, tt.code.Status(), tt.msg)
			if diff := cmp.Diff(before, f.channelSnapshot(t), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("store changed (-before +after):\n%s", diff)
			}
		})
	}
}

func TestArchiveAndDefaultStreams(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("news")})
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("secret"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	news, secret := f.mustChannel(t, "news"), f.mustChannel(t, "secret")
	q := f.register(t, "member")

	_, err := f.svc.AddDefaultStream(ctx, f.actor("member"), chat.DefaultStreamParams{StreamID: news.ID})
	wantError(t, err, chat.CodeUnauthorizedPrincipal, 400, "Must be an organization administrator")
	_, err = f.svc.AddDefaultStream(ctx, f.actor("admin"), chat.DefaultStreamParams{StreamID: secret.ID})
	wantError(t, err, chat.CodeBadRequest, 400, "Private channels cannot be made default.")
	if _, err := f.svc.AddDefaultStream(ctx, f.actor("admin"), chat.DefaultStreamParams{StreamID: news.ID}); err != nil {
		t.Fatal(err)
	}
	reg, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"default_streams"}})
	if err != nil || reg.RealmDefaultStreams == nil || !cmp.Equal(*reg.RealmDefaultStreams, []channels.ID{news.ID}) {
		t.Fatalf("register default streams: %+v, %v", reg.ChannelsState, err)
	}

	// A member who is not the creator may not archive; the creator may.
	_, err = f.svc.ArchiveStream(ctx, f.actor("guest"), chat.ArchiveStreamParams{StreamID: news.ID})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel ID")
	if _, err := f.svc.ArchiveStream(ctx, f.actor("member"), chat.ArchiveStreamParams{StreamID: news.ID}); err != nil {
		t.Fatal(err)
	}
	got := eventMaps(t, f.poll(t, "member", q, -1, true))
	want := []map[string]any{
		{"type": "default_streams", "default_streams": []any{float64(news.ID)}},
		{"type": "stream", "op": "delete", "streams": []any{map[string]any{"stream_id": float64(news.ID)}}, "stream_ids": []any{float64(news.ID)}, "for_archiving": true},
		{"type": "default_streams", "default_streams": []any{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	// Subscriptions of archived channels stay listed and can still change.
	subsRes, err := f.svc.GetSubscriptions(ctx, f.actor("member"), chat.GetSubscriptionsParams{})
	if err != nil || len(subsRes.Subscriptions) != 1 || !subsRes.Subscriptions[0].IsArchived {
		t.Fatalf("subscriptions = %+v, %v", subsRes.Subscriptions, err)
	}
	if _, err := f.svc.UpdateSubscriptionSettings(ctx, f.actor("member"), chat.UpdateSubscriptionSettingsParams{SubscriptionData: []chat.SubscriptionPropertyChange{{StreamID: news.ID, Property: "pin_to_top", Value: true}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"news"}}); err != nil {
		t.Fatal(err)
	}
	streams, err := f.svc.GetStreams(ctx, f.actor("member"), chat.GetStreamsParams{})
	if err != nil || len(streams.Streams) != 0 {
		t.Fatalf("streams = %v, %v", streams.Streams, err)
	}
	streams, err = f.svc.GetStreams(ctx, f.actor("member"), chat.GetStreamsParams{ExcludeArchived: ptr(false)})
	if err != nil || len(streams.Streams) != 1 {
		t.Fatalf("streams with archived = %v, %v", streams.Streams, err)
	}
	// Unarchiving.
	if _, err := f.svc.UpdateStream(ctx, f.actor("admin"), chat.UpdateStreamParams{StreamID: news.ID, IsArchived: ptr(false)}); err != nil {
		t.Fatal(err)
	}
	if c := f.mustChannel(t, "news"); c.IsArchived || c.IsDefault {
		t.Fatalf("after unarchiving: %+v", c)
	}
}

func TestChannelFolders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "member")
	_, err := f.svc.CreateChannelFolder(ctx, f.actor("member"), chat.CreateChannelFolderParams{Name: "Work"})
	wantError(t, err, chat.CodeUnauthorizedPrincipal, 400, "Must be an organization administrator")
	res, err := f.svc.CreateChannelFolder(ctx, f.actor("admin"), chat.CreateChannelFolderParams{Name: " Work ", Description: "All **work**"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.CreateChannelFolder(ctx, f.actor("admin"), chat.CreateChannelFolderParams{Name: "work"})
	wantError(t, err, chat.CodeBadRequest, 400, "Channel folder name already in use")
	_, err = f.svc.CreateChannelFolder(ctx, f.actor("admin"), chat.CreateChannelFolderParams{Name: " "})
	wantError(t, err, chat.CodeBadRequest, 400, "Channel folder name can't be empty.")

	f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("in folder"), NewChannelSettings: chat.NewChannelSettings{FolderID: &res.ChannelFolderID}})
	c := f.mustChannel(t, "in folder")
	if c.FolderID != res.ChannelFolderID {
		t.Fatalf("folder of the channel = %d", c.FolderID)
	}
	_, err = f.svc.UpdateChannelFolder(ctx, f.actor("admin"), chat.UpdateChannelFolderParams{ChannelFolderID: res.ChannelFolderID, IsArchived: ptr(true)})
	wantError(t, err, chat.CodeBadRequest, 400, "You need to remove all the channels from this folder to archive it.")
	if _, err := f.svc.UpdateChannelFolder(ctx, f.actor("admin"), chat.UpdateChannelFolderParams{ChannelFolderID: res.ChannelFolderID, Name: ptr("Jobs")}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.UpdateChannelFolder(ctx, f.actor("admin"), chat.UpdateChannelFolderParams{ChannelFolderID: 99, Name: ptr("x")})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel folder ID")

	list, err := f.svc.GetChannelFolders(ctx, f.actor("guest"), chat.GetChannelFoldersParams{})
	if err != nil {
		t.Fatal(err)
	}
	date := f.clock.Now().Unix()
	admin := f.ids["admin"]
	wantList := []chat.ChannelFolderRecord{{ID: res.ChannelFolderID, Name: "Jobs", Description: "All **work**", RenderedDescription: "<p>All <strong>work</strong></p>", DateCreated: &date, CreatorID: &admin}}
	if diff := cmp.Diff(wantList, list.ChannelFolders); diff != "" {
		t.Fatalf("folders (-want +got):\n%s", diff)
	}
	got := kinds(t, f.poll(t, "member", q, -1, true))
	// The new channel's first message is the notification bot's notice of its creation.
	want := []string{"channel_folder/add", "stream/create", "subscription/add", "stream/update/first_message_id=1", "message/<nil>", "channel_folder/update"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	reg, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"channel_folders"}})
	if err != nil || reg.ChannelFolders == nil || len(*reg.ChannelFolders) != 1 {
		t.Fatalf("register folders: %+v, %v", reg.ChannelsState, err)
	}
}
