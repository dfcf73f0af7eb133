package chattest_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	gzb "github.com/ifo/gozulipbot"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/chattest"
)

// TestGoZulipBot drives a chattest server with gozulipbot, a Zulip bot library written in Go,
// unchanged: the bot lists the channels, registers for messages, receives one that Hamlet
// sends (through the Service) and answers it in its topic, which Hamlet then reads.
func TestGoZulipBot(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := chattest.NewServer(t, chattest.Dev())
	me := s.User("iago@zulip.com")
	bot := &gzb.Bot{Email: me.Email, APIKey: me.APIKey, APIURL: s.URL + "/api/v1/", Client: s.HTTP.Client()}

	streams, err := bot.GetStreams()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"core team", "Denmark", "Rome", "sandbox", "Scotland", "Venice", "Verona", "Zulip"}
	if diff := cmp.Diff(want, streams, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("GetStreams (-want +got):\n%s", diff)
	}

	q, err := bot.RegisterEvents([]gzb.EventType{"message"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if q.ID == "" {
		t.Fatal("register returned no queue id")
	}
	hamlet := s.User("hamlet@zulip.com")
	sent, err := s.Service.SendMessage(ctx, hamlet.Actor(), chat.SendMessageParams{
		Type: "stream", ChannelName: "Denmark", Topic: ptr("castle"), Content: "To be, or not to be?",
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := q.GetEvents()
	if err != nil {
		t.Fatal(err)
	}
	// register without apply_markdown: the source; emails visible to administrators only:
	// the API email user<id>@<host>, as Zulip sends it.
	wantEvents := []gzb.EventMessage{{
		Content: "To be, or not to be?", ContentType: "text/x-markdown",
		DisplayRecipient: gzb.DisplayRecipient{Topic: "Denmark"},
		ID:               int(sent.ID), SenderEmail: apiEmail(t, s, hamlet), SenderFullName: "King Hamlet",
		SenderID: int(hamlet.ID), Subject: "castle", Timestamp: int(chattest.Epoch().Unix()), Type: "stream",
	}}
	ignore := cmpopts.IgnoreFields(gzb.EventMessage{}, "AvatarURL", "Client", "GravatarHash", "RecipientID",
		"SenderDomain", "SenderShortName", "SubjectLinks", "Queue")
	if diff := cmp.Diff(wantEvents, got, ignore); diff != "" {
		t.Errorf("GetEvents (-want +got):\n%s", diff)
	}

	resp, err := bot.Respond(got[0], "Ay, there's the rub.")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("Respond: %d %s", resp.StatusCode, body)
	}
	res, err := s.Service.GetMessages(ctx, hamlet.Actor(), chat.GetMessagesParams{Anchor: "newest", NumBefore: 1})
	if err != nil {
		t.Fatal(err)
	}
	reply := res.Messages[len(res.Messages)-1]
	type msg struct{ Sender, Topic, Content string }
	if diff := cmp.Diff(msg{apiEmail(t, s, me), "castle", "<p>Ay, there&#39;s the rub.</p>"},
		msg{reply.SenderEmail, reply.Subject, reply.Content}); diff != "" {
		t.Errorf("the bot's reply as Hamlet reads it (-want +got):\n%s", diff)
	}
}

// apiEmail is u's email as the API shows it (its "email" field).
func apiEmail(t *testing.T, s *chattest.Server, u chattest.User) string {
	t.Helper()
	rec, err := s.Service.GetOwnUser(t.Context(), u.Actor(), chat.UserQueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return rec.Email
}
