package chat_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/realms"
)

func TestGetReadReceipts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "owner", "admin", "member", "guest", "bot")
	id := mustSendToChannel(t, f, "admin", c, "t", "hello")
	secret := mustSendToChannel(t, f, "admin", mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "admin"), "t", "hidden")
	receipts := func(who string, id usersMessageID) (chat.GetReadReceiptsResult, error) {
		return f.svc.GetReadReceipts(ctx, f.actor(who), chat.GetReadReceiptsParams{MessageID: id})
	}
	_, err := receipts("member", id)
	wantMsg(t, "disabled", err, "Read receipts are disabled in this organization.")
	setRealm(t, f, func(r *realms.Realm) { r.SetValue("enable_read_receipts", true) })

	for _, who := range []string{"owner", "member", "guest", "bot"} {
		mustDo(t, "UpdateMessageFlags", errOf(f.svc.UpdateMessageFlags(ctx, f.actor(who), chat.UpdateMessageFlagsParams{Messages: []usersMessageID{id}, Op: "add", Flag: "read"})))
	}
	// The owner does not send read receipts; the member muted the guest.
	mustDo(t, "UpdateSettings", errOf(f.svc.UpdateSettings(ctx, f.actor("owner"), chat.UpdateSettingsParams{Values: map[string]any{"send_read_receipts": false}})))
	mustDo(t, "MuteUser", errOf(f.svc.MuteUser(ctx, f.actor("member"), chat.MuteUserParams{MutedUserID: f.ids["guest"]})))

	for _, tc := range []struct {
		who  string
		want []usersID
	}{
		// The sender (admin) is never listed.
		{"admin", []usersID{f.ids["member"], f.ids["guest"], f.ids["bot"]}},
		// Those the viewer muted, and those who muted the viewer, are left out (not the
		// viewer).
		{"member", []usersID{f.ids["member"], f.ids["bot"]}},
		{"guest", []usersID{f.ids["guest"], f.ids["bot"]}},
	} {
		res, err := receipts(tc.who, id)
		if err != nil {
			t.Fatalf("%s: %v", tc.who, err)
		}
		if diff := cmp.Diff(sortedUserIDs(tc.want), res.UserIDs); diff != "" {
			t.Errorf("%s's view (-want +got):\n%s", tc.who, diff)
		}
	}
	_, err = receipts("member", secret)
	wantMsg(t, "a message the viewer may not read", err, "Invalid message(s)")
}

// sortedUserIDs returns ids ascending.
func sortedUserIDs(ids []usersID) []usersID {
	out := append([]usersID{}, ids...)
	slices.Sort(out)
	return out
}
