package transfer_test

import (
	"testing"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/transfer"
)

// TestImportConverterOutput imports a Zulip-format export as the Slack and Mattermost
// converters write it (testdata/converter: no system groups, group settings left out, no
// rendered_content for some messages, Zulip's reactions in realm.json) and checks that the
// organization works: messages are rendered and delivered with their flags and reactions, a
// member may post in the imported channel, the guest sees what a guest may.
func TestImportConverterOutput(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	st, bl := memory.New(), blobmemory.New()
	res, err := transfer.ImportDir(ctx, st, bl, "testdata/converter", transfer.ImportOptions{})
	must(t, err)
	if res.Users != 4 || res.Channels != 2 || res.Messages != 4 {
		t.Fatalf("imported %+v", res)
	}
	svc, err := chat.New(chat.Options{Store: st, Blobs: bl})
	must(t, err)
	t.Cleanup(func() { svc.Close() })
	ann, bob, cy := chat.Actor{UserID: 11}, chat.Actor{UserID: 12}, chat.Actor{UserID: 13}
	topic := "after the import"
	if _, err := svc.SendMessage(ctx, bob, chat.SendMessageParams{Type: "stream", ChannelName: "general", Topic: &topic, Content: "still works"}); err != nil {
		t.Errorf("a member posting in the imported channel: %v", err)
	}
	get := chat.GetMessagesParams{Anchor: "oldest", NumAfter: 100}
	for _, tc := range []struct {
		name  string
		actor chat.Actor
		want  []string // rendered content, in order
	}{
		{"owner", ann, []string{"<p>Hello <strong>everyone</strong></p>", "<p>hi Ann</p>", "<p>group chat</p>", "<p>secret <em>plans</em></p>", "<p>still works</p>"}},
		{"member", bob, []string{"<p>Hello <strong>everyone</strong></p>", "<p>hi Ann</p>", "<p>group chat</p>", "<p>still works</p>"}},
		{"guest", cy, []string{"<p>Hello <strong>everyone</strong></p>", "<p>group chat</p>", "<p>still works</p>"}},
	} {
		got, err := svc.GetMessages(ctx, tc.actor, get)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var rendered []string
		for _, m := range got.Messages {
			rendered = append(rendered, jsonOf(t, m).(map[string]any)["content"].(string))
		}
		if len(rendered) != len(tc.want) {
			t.Errorf("%s sees %q, want %q", tc.name, rendered, tc.want)
			continue
		}
		for i := range rendered {
			if rendered[i] != tc.want[i] {
				t.Errorf("%s's message %d: %q, want %q", tc.name, i, rendered[i], tc.want[i])
			}
		}
	}
	got, err := svc.GetMessages(ctx, bob, get)
	must(t, err)
	first := jsonOf(t, got.Messages[0]).(map[string]any)
	if flags := first["flags"].([]any); len(flags) != 1 || flags[0] != "starred" {
		t.Errorf("bob's flags on the first message: %v", flags)
	}
	group := jsonOf(t, got.Messages[2]).(map[string]any)
	if r := group["reactions"].([]any); len(r) != 1 || r[0].(map[string]any)["emoji_name"] != "tada" {
		t.Errorf("reactions of the group message: %v", r)
	}
	if rec := group["display_recipient"].([]any); len(rec) != 3 {
		t.Errorf("the group message's recipients: %v", rec)
	}
	reg, err := svc.RegisterQueue(ctx, ann, chat.RegisterQueueParams{})
	must(t, err)
	state := jsonOf(t, reg).(map[string]any)
	settings, _ := state["user_settings"].(map[string]any)
	if state["realm_name"] != "Slack Workspace" || settings["twenty_four_hour_time"] != true {
		t.Errorf("register: realm_name %v, user_settings.twenty_four_hour_time %v", state["realm_name"], settings["twenty_four_hour_time"])
	}
}
