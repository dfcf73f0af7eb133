package chat_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// TestSendMessageLinks: POST /messages answers message_url and message_link (feature level
// 508); a sender without metadata access to the channel gets it by id alone and the plain URL.
// Before, the answer carried the id only.
func TestSendMessageLinks(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		general := mustChannel(t, f, "general talk", chat.NewChannelSettings{}, "owner", "member")
		secret := mustChannel(t, f, "secret*plans", chat.NewChannelSettings{InviteOnly: true}, "owner")
		topic, empty, dm := "lunch > dinner", "", "direct"
		base := "https://chat.example.com/#narrow/"
		tests := []struct {
			name     string
			sender   string
			p        chat.SendMessageParams
			url      string // with %d for the new message's id
			markdown string // "" when the link is the plain URL
		}{
			{"channel topic", "member", chat.SendMessageParams{Type: "stream", ChannelID: &general, Topic: &topic},
				base + fmt.Sprintf("channel/%d-general-talk/topic/lunch.20.3E.20dinner/near/%%d", general),
				"[#general talk > lunch &gt; dinner @ 💬](%s)"},
			{"empty topic", "member", chat.SendMessageParams{Type: "channel", ChannelID: &general, Topic: &empty},
				base + fmt.Sprintf("channel/%d-general-talk/topic//near/%%d", general),
				"[#general talk > general chat @ 💬](%s)"},
			{"private channel, metadata access", "owner", chat.SendMessageParams{Type: "stream", ChannelID: &secret, Topic: &topic},
				base + fmt.Sprintf("channel/%d-secret*plans/topic/lunch.20.3E.20dinner/near/%%d", secret),
				"[#secret&#42;plans > lunch &gt; dinner @ 💬](%s)"},
			{"bot posting where it cannot read", "bot", chat.SendMessageParams{Type: "stream", ChannelID: &secret, Topic: &topic},
				base + fmt.Sprintf("channel/%d/topic/lunch.20.3E.20dinner/near/%%d", secret), ""},
			{"direct message", "member", chat.SendMessageParams{Type: dm, UserIDs: ids(f, "admin")},
				base + fmt.Sprintf("dm/%d,%d-pm/near/%%d", f.ids["admin"], f.ids["member"]), ""},
			{"to oneself", "member", chat.SendMessageParams{Type: dm, UserIDs: ids(f, "member")},
				base + fmt.Sprintf("dm/%d-pm/near/%%d", f.ids["member"]), ""},
		}
		for _, tt := range tests {
			tt.p.Content = "hello"
			res, err := f.svc.SendMessage(t.Context(), f.actor(tt.sender), tt.p)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			url := fmt.Sprintf(tt.url, res.ID)
			link := url
			if tt.markdown != "" {
				link = fmt.Sprintf(tt.markdown, url)
			}
			want := chat.SendMessageResult{ID: res.ID, MessageURL: url, MessageLink: link}
			if diff := cmp.Diff(want, res); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.name, diff)
			}
		}
	})
}

// ids are the user ids of the fixture's users by short name.
func ids(f *fixture, names ...string) []users.ID {
	out := make([]users.ID, len(names))
	for i, n := range names {
		out[i] = f.ids[n]
	}
	return out
}
