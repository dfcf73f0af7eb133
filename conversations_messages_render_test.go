package chat_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

func TestSendMessageRendersMentions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin", "owner", "guest")
	mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "admin")
	g := f.mustGroup(t, "admin", chat.CreateUserGroupParams{Name: "guests", Description: "x", Members: []users.ID{f.ids["guest"]}})
	id := mustSendToChannel(t, f, "member", verona, "party",
		"hi @**Adam Admin**, @_**Olive Owner**, `@**Olive Owner**` @*guests* #**Verona>party** #**secret** @**Nobody**")

	want := fmt.Sprintf(`<p>hi <span class="user-mention" data-user-id="%d">@Adam Admin</span>, `+
		`<span class="user-mention silent" data-user-id="%d">Olive Owner</span>, <code>@**Olive Owner**</code> `+
		`<span class="user-group-mention" data-user-group-id="%d">@guests</span> `+
		`<a class="stream-topic" data-stream-id="%d" href="/#narrow/channel/%d-Verona/topic/party">#Verona &gt; party</a> `+
		`#<strong>secret</strong> @<strong>Nobody</strong></p>`, f.ids["admin"], f.ids["owner"], g, verona, verona)
	for _, tt := range []struct {
		who   string
		flags []string
	}{
		{"admin", []string{"mentioned"}},
		{"owner", []string{}},
		{"guest", []string{"mentioned"}},
		{"member", []string{"read"}},
	} {
		got, err := f.svc.GetMessage(ctx, f.actor(tt.who), chat.GetMessageParams{MessageID: id})
		if err != nil {
			t.Fatal(err)
		}
		if got.Message.Content != want {
			t.Errorf("%s: content\n got %s\nwant %s", tt.who, got.Message.Content, want)
		}
		if diff := cmp.Diff(tt.flags, *got.Message.Flags); diff != "" {
			t.Errorf("%s: flags (-want +got):\n%s", tt.who, diff)
		}
	}

	// An edit that drops the mention takes the flag back.
	mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: id, Content: ptr("hi @**topic**")})
	got, err := f.svc.GetMessage(ctx, f.actor("admin"), chat.GetMessageParams{MessageID: id})
	if err != nil {
		t.Fatal(err)
	}
	if got.Message.Content != `<p>hi <span class="topic-mention">@topic</span></p>` {
		t.Errorf("edited content = %s", got.Message.Content)
	}
	if diff := cmp.Diff([]string{"topic_wildcard_mentioned", "wildcard_mentioned"}, *got.Message.Flags); diff != "" {
		t.Errorf("admin's flags after the edit (-want +got):\n%s", diff)
	}
}
