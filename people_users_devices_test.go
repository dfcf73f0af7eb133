package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
)

// devicesConsistencyCases register and remove devices and push tokens: nothing a client's
// state shows changes (without a push service there are no push_devices), and no event goes
// out.
func devicesConsistencyCases() []consistencyCase {
	token := chat.PushTokenParams{Token: "c0ffee"}
	return []consistencyCase{
		{method: "RegisterClientDevice", name: "a member's phone", run: func(t *testing.T, f *fixture) {
			mustDo(t, "RegisterClientDevice", errOf(f.svc.RegisterClientDevice(t.Context(), f.actor("member"))))
		}},
		{method: "RemoveClientDevice", name: "at logout", run: func(t *testing.T, f *fixture) {
			d, err := f.svc.RegisterClientDevice(t.Context(), f.actor("member"))
			mustDo(t, "RegisterClientDevice", err)
			mustDo(t, "RemoveClientDevice", errOf(f.svc.RemoveClientDevice(t.Context(), f.actor("member"), chat.RemoveClientDeviceParams{DeviceID: d.DeviceID})))
		}},
		{method: "RegisterPushDevice", name: "refused without a push service", run: func(t *testing.T, f *fixture) {
			wantMsg(t, "RegisterPushDevice", errOf(f.svc.RegisterPushDevice(t.Context(), f.actor("member"))), "Server is not configured to use push notification service.")
		}},
		{method: "AddApnsToken", name: "an iPhone", run: func(t *testing.T, f *fixture) {
			mustDo(t, "AddApnsToken", errOf(f.svc.AddApnsToken(t.Context(), f.actor("member"), token)))
		}},
		{method: "RemoveApnsToken", name: "an iPhone", run: func(t *testing.T, f *fixture) {
			mustDo(t, "AddApnsToken", errOf(f.svc.AddApnsToken(t.Context(), f.actor("member"), token)))
			mustDo(t, "RemoveApnsToken", errOf(f.svc.RemoveApnsToken(t.Context(), f.actor("member"), token)))
		}},
		{method: "AddFcmToken", name: "an Android phone", run: func(t *testing.T, f *fixture) {
			mustDo(t, "AddFcmToken", errOf(f.svc.AddFcmToken(t.Context(), f.actor("member"), token)))
		}},
		{method: "RemoveFcmToken", name: "an Android phone", run: func(t *testing.T, f *fixture) {
			mustDo(t, "AddFcmToken", errOf(f.svc.AddFcmToken(t.Context(), f.actor("member"), token)))
			mustDo(t, "RemoveFcmToken", errOf(f.svc.RemoveFcmToken(t.Context(), f.actor("member"), token)))
		}},
	}
}

func TestPushRoutesWithoutAPushService(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	a, err := f.svc.RegisterClientDevice(ctx, f.actor("member"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.svc.RegisterClientDevice(ctx, f.actor("member"))
	if err != nil || b.DeviceID == a.DeviceID {
		t.Fatalf("second device: %v, %v (first %v)", b, err, a)
	}
	_, err = f.svc.RegisterClientDevice(ctx, f.actor("bot"))
	wantMsg(t, "a bot's device", err, "This endpoint does not accept bot requests.")
	wantMsg(t, "another user's device", errOf(f.svc.RemoveClientDevice(ctx, f.actor("guest"), chat.RemoveClientDeviceParams{DeviceID: a.DeviceID})), "Invalid device ID")
	wantMsg(t, "remove", errOf(f.svc.RemoveClientDevice(ctx, f.actor("member"), chat.RemoveClientDeviceParams{DeviceID: a.DeviceID})), "")
	wantMsg(t, "remove twice", errOf(f.svc.RemoveClientDevice(ctx, f.actor("member"), chat.RemoveClientDeviceParams{DeviceID: a.DeviceID})), "Invalid device ID")
	wantMsg(t, "empty token", errOf(f.svc.AddFcmToken(ctx, f.actor("member"), chat.PushTokenParams{})), "Empty or invalid length token")
	wantMsg(t, "bad APNs token", errOf(f.svc.AddApnsToken(ctx, f.actor("member"), chat.PushTokenParams{Token: "not hex!"})), "Invalid APNS token")
	wantMsg(t, "token twice", errOf(f.svc.AddApnsToken(ctx, f.actor("member"), chat.PushTokenParams{Token: "abcd"})), "")
	wantMsg(t, "token twice", errOf(f.svc.AddApnsToken(ctx, f.actor("member"), chat.PushTokenParams{Token: "abcd"})), "")
	wantMsg(t, "remove token", errOf(f.svc.RemoveApnsToken(ctx, f.actor("member"), chat.PushTokenParams{Token: "abcd"})), "")
	wantMsg(t, "remove unknown token", errOf(f.svc.RemoveApnsToken(ctx, f.actor("member"), chat.PushTokenParams{Token: "abcd"})), "Token does not exist")
}
