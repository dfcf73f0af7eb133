package chat_test

import (
	"encoding/json"
	"testing"

	chat "github.com/teamchat/chat"
)

// TestGetSubscriptionsRelease: a released result's records array serves later lists, which
// come out as encoding/json writes their records, whether they are as long, longer or
// shorter than the array's last use.
func TestGetSubscriptionsRelease(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	names := []string{"Verona", "Denmark", "Rome"}
	for _, n := range names[:2] {
		mustChannel(t, f, n, chat.NewChannelSettings{}, "member")
	}
	list := func(what string, want int) {
		t.Helper()
		res, err := f.svc.GetSubscriptions(ctx, f.actor("member"), chat.GetSubscriptionsParams{})
		if err != nil {
			t.Fatal(err)
		}
		wire, err := res.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := json.Marshal(struct {
			Subscriptions []chat.SubscriptionRecord `json:"subscriptions"`
		}{res.Subscriptions})
		if err != nil {
			t.Fatal(err)
		}
		if string(wire) != string(plain) {
			t.Errorf("%s: AppendJSON wrote\n%s\nencoding/json\n%s", what, wire, plain)
		}
		if len(res.Subscriptions) < want {
			t.Errorf("%s: %d subscriptions, want at least %d", what, len(res.Subscriptions), want)
		}
		res.Release()
	}
	list("first", 2)
	list("again, from the released array", 2)
	mustChannel(t, f, names[2], chat.NewChannelSettings{}, "member")
	list("one more", 3)
	if _, err := f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: names[:2]}); err != nil {
		t.Fatal(err)
	}
	list("two fewer", 1)
}
