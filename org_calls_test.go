package chat_test

import (
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

func TestUnconfiguredVideoCalls(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	_, err := f.svc.CreateZoomVideoCall(ctx, f.actor("member"), chat.CreateZoomVideoCallParams{IsVideoCall: true})
	wantError(t, err, chat.CodeBadRequest, 400, "Zoom credentials have not been configured")
	_, err = f.svc.CreateWebexVideoCall(ctx, f.actor("member"))
	wantError(t, err, chat.CodeBadRequest, 400, "Webex credentials have not been configured")
	_, err = f.svc.CreateZoomVideoCall(ctx, chat.Actor{}, chat.CreateZoomVideoCallParams{})
	wantError(t, err, chat.CodeUnauthorized, 401, "")
	res, err := f.svc.CreateBigBlueButtonVideoCall(ctx, f.actor("member"), chat.CreateBigBlueButtonVideoCallParams{MeetingName: "standup"})
	mustDo(t, "CreateBigBlueButtonVideoCall", err)
	if !strings.HasPrefix(res.URL, "/calls/bigbluebutton/join?bigbluebutton=") || !strings.Contains(res.URL, "%3A") {
		t.Errorf("BigBlueButton URL %q", res.URL)
	}
	other, err := f.svc.CreateBigBlueButtonVideoCall(ctx, f.actor("member"), chat.CreateBigBlueButtonVideoCallParams{MeetingName: "standup"})
	mustDo(t, "CreateBigBlueButtonVideoCall", err)
	if other.URL == res.URL {
		t.Error("two calls got one link")
	}
	_, err = f.svc.CreateBigBlueButtonVideoCall(ctx, f.actor("member"), chat.CreateBigBlueButtonVideoCallParams{MeetingName: strings.Repeat("x", 1001)})
	wantError(t, err, chat.CodeBadRequest, 400, "meeting_name is too long (limit: 1000 characters)")
}

func TestStreamEmailAddressWithoutGateway(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	public := mustChannel(t, f, "lobby", chat.NewChannelSettings{}, "member")
	private := mustChannel(t, f, "vault", chat.NewChannelSettings{InviteOnly: true}, "admin")
	res, err := f.svc.GetStreamEmailAddress(ctx, f.actor("member"), chat.GetStreamEmailAddressParams{StreamID: public})
	mustDo(t, "GetStreamEmailAddress", err)
	if res.Email != "" {
		t.Errorf("email %q, want empty (no gateway)", res.Email)
	}
	own := f.ids["member"]
	if _, err := f.svc.GetStreamEmailAddress(ctx, f.actor("member"), chat.GetStreamEmailAddressParams{StreamID: public, SenderID: &own}); err != nil {
		t.Errorf("sender self: %v", err)
	}
	for _, tc := range []struct {
		name   string
		who    string
		stream channels.ID
		sender users.ID
		msg    string
	}{
		{"a private channel of others", "member", private, 0, "Invalid channel ID"},
		{"an unknown channel", "member", 999, 0, "Invalid channel ID"},
		{"someone else's bot", "member", public, f.ids["bot"], "Insufficient permission"},
		{"a human sender", "member", public, f.ids["admin"], "No such bot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := chat.GetStreamEmailAddressParams{StreamID: tc.stream}
			if tc.sender != 0 {
				p.SenderID = &tc.sender
			}
			_, err := f.svc.GetStreamEmailAddress(ctx, f.actor(tc.who), p)
			wantError(t, err, chat.CodeBadRequest, 400, tc.msg)
		})
	}
}
