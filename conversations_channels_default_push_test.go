package chat_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// TestDefaultPushNotifications pins feature level 507: default_push_notifications, set by
// administrators only when creating a channel (subscribe, POST /channels/create) or
// changing it (PATCH /streams/{id}), is a field of channel objects with a stream update
// event, and turns on push notifications in each user's first subscription to the channel,
// whatever the user's default; a resubscription keeps the user's choice. Stored on every
// backend: a fresh process sees it.
func TestDefaultPushNotifications(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		// Only administrators set it, at creation and afterwards.
		_, err := f.svc.Subscribe(ctx, f.actor("member"), chat.SubscribeParams{Subscriptions: subs("alerts"),
			NewChannelSettings: chat.NewChannelSettings{DefaultPushNotifications: true}})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Insufficient permission")
		_, err = f.svc.CreateChannel(ctx, f.actor("member"), chat.CreateChannelParams{Name: "alerts", Subscribers: []users.ID{f.ids["member"]},
			NewChannelSettings: chat.NewChannelSettings{DefaultPushNotifications: true}})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Insufficient permission")

		f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("alerts"),
			NewChannelSettings: chat.NewChannelSettings{DefaultPushNotifications: true}})
		created, err := f.svc.CreateChannel(ctx, f.actor("admin"), chat.CreateChannelParams{Name: "pages", Subscribers: []users.ID{f.ids["admin"]},
			NewChannelSettings: chat.NewChannelSettings{DefaultPushNotifications: true}})
		mustDo(t, "CreateChannel", err)
		f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("quiet")})
		alerts := channelID(t, f, "alerts")
		for id, want := range map[channels.ID]bool{alerts: true, created.ID: true, channelID(t, f, "quiet"): false} {
			got, err := f.coldService(t).GetStreamByID(ctx, f.actor("admin"), chat.GetStreamByIDParams{StreamID: id})
			mustDo(t, "GetStreamByID", err)
			if got.Stream.DefaultPushNotifications != want {
				t.Errorf("channel %s: default_push_notifications = %v, want %v", got.Stream.Name, got.Stream.DefaultPushNotifications, want)
			}
		}
		_, err = f.svc.UpdateStream(ctx, f.actor("member"), chat.UpdateStreamParams{StreamID: channelID(t, f, "quiet"), DefaultPushNotifications: ptr(true)})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Insufficient permission")

		// A first subscription has push notifications on; the user's choice then stays.
		f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("alerts")})
		if got := pushSetting(t, f, "member", alerts); got == nil || !*got {
			t.Fatalf("member's first subscription: push_notifications = %v, want true", got)
		}
		mustDo(t, "UpdateSubscriptionSettings", errOf(f.svc.UpdateSubscriptionSettings(ctx, f.actor("member"), chat.UpdateSubscriptionSettingsParams{
			SubscriptionData: []chat.SubscriptionPropertyChange{{StreamID: alerts, Property: "push_notifications", Value: false}}})))
		mustDo(t, "Unsubscribe", errOf(f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"alerts"}})))
		f.mustSubscribe(t, "member", chat.SubscribeParams{Subscriptions: subs("alerts")})
		if got := pushSetting(t, f, "member", alerts); got == nil || *got {
			t.Errorf("member's resubscription: push_notifications = %v, want false (the user's choice)", got)
		}

		// Turned off by an administrator: a stream update event, and later first
		// subscriptions inherit the user's default again.
		q := f.register(t, "member", "stream")
		mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(ctx, f.actor("admin"), chat.UpdateStreamParams{StreamID: alerts, DefaultPushNotifications: ptr(false)})))
		want := []map[string]any{{"type": "stream", "op": "update", "stream_id": float64(alerts), "name": "alerts",
			"property": "default_push_notifications", "value": false}}
		if diff := cmp.Diff(want, eventsNoID(t, f.poll(t, "member", q, -1, true))); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("alerts")})
		if got := pushSetting(t, f, "owner", alerts); got != nil {
			t.Errorf("owner's first subscription after the change: push_notifications = %v, want null", *got)
		}
	})
}

// channelID is the id of the channel named name.
func channelID(t *testing.T, f *fixture, name string) channels.ID {
	t.Helper()
	res, err := f.svc.GetStreamID(t.Context(), f.actor("admin"), chat.GetStreamIDParams{Stream: name})
	mustDo(t, "GetStreamID", err)
	return res.StreamID
}

// pushSetting is who's push_notifications setting for channel id, read by a fresh process.
func pushSetting(t *testing.T, f *fixture, who string, id channels.ID) *bool {
	t.Helper()
	cold := f.coldService(t)
	defer cold.Close()
	res, err := cold.GetSubscriptions(t.Context(), f.actor(who), chat.GetSubscriptionsParams{})
	mustDo(t, "GetSubscriptions", err)
	for _, s := range res.Subscriptions {
		if s.StreamID == id {
			return s.PushNotifications
		}
	}
	t.Fatalf("%s is not subscribed to channel %d", who, id)
	return nil
}
