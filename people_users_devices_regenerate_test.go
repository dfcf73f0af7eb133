package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage"
)

// TestRegenerateAPIKeyForgetsDevices: a new API key logs the user out of every mobile device,
// so the user's client devices and push tokens are removed (feature level 492); other users'
// devices stay. (Bots have no devices: the device endpoints refuse them.) Before, they all stayed.
func TestRegenerateAPIKeyForgetsDevices(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		count := func(who string) int {
			t.Helper()
			var n int
			err := f.store.View(ctx, func(tx storage.ReadTx) error {
				l, err := tx.Devices().List(f.ids[who])
				n = len(l)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, who := range []string{"member", "admin"} {
			mustDo(t, "RegisterClientDevice", errOf(f.svc.RegisterClientDevice(ctx, f.actor(who))))
			mustDo(t, "AddFcmToken", errOf(f.svc.AddFcmToken(ctx, f.actor(who), chat.PushTokenParams{Token: "f00d"})))
			mustDo(t, "AddApnsToken", errOf(f.svc.AddApnsToken(ctx, f.actor(who), chat.PushTokenParams{Token: "beef"})))
		}
		if count("member") != 3 {
			t.Fatalf("devices before: member %d", count("member"))
		}
		mustDo(t, "RegenerateAPIKey", errOf(f.svc.RegenerateAPIKey(ctx, f.actor("member"))))
		for who, want := range map[string]int{"member": 0, "admin": 3} {
			if got := count(who); got != want {
				t.Errorf("%s has %d devices after the regeneration, want %d", who, got, want)
			}
		}
	})
}
