package chat_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// setRealm changes the organization's settings directly in the store.
func setRealm(t *testing.T, f *fixture, change func(r *realms.Realm)) {
	t.Helper()
	err := f.store.Update(t.Context(), func(tx storage.Tx) error {
		r, err := tx.Realm().Get()
		if err != nil {
			return err
		}
		change(&r)
		return tx.Realm().Put(r)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// messageAs reads a message as who sees it.
func messageAs(t *testing.T, f *fixture, who string, id messages.ID) chat.MessageRecord {
	t.Helper()
	res, err := f.svc.GetMessage(t.Context(), f.actor(who), chat.GetMessageParams{MessageID: id, AllowEmptyTopicName: true})
	if err != nil {
		t.Fatalf("GetMessage(%d): %v", id, err)
	}
	return res.Message
}

func TestUpdateMessageRefusals(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	groupSetting := func(f *fixture, name string) users.GroupSetting {
		return users.Named(f.groupIDs(t)[name])
	}
	cases := []struct {
		name  string
		setup func(t *testing.T, f *fixture, w editWorld)
		who   string
		p     func(w editWorld) chat.UpdateMessageParams
		code  chat.Code
		msg   string
	}{
		{"editing turned off", func(t *testing.T, f *fixture, w editWorld) {
			setRealm(t, f, func(r *realms.Realm) { r.AllowMessageEditing = false })
		}, "admin", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("x")}
		}, chat.CodeBadRequest, "Your organization has turned off message editing"},
		{"content after the edit window", func(t *testing.T, f *fixture, w editWorld) {
			f.clock.Advance(621 * time.Second)
		}, "admin", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("x")}
		}, chat.CodeBadRequest, "The time limit for editing this message has passed"},
		{"someone else's content, even an administrator", nil, "owner", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("x")}
		}, chat.CodeBadRequest, "You don't have permission to edit this message"},
		{"a message one cannot read", nil, "guest", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.direct, Content: ptr("x")}
		}, chat.CodeBadRequest, "Invalid message(s)"},
		{"topic with a control character", nil, "admin", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr("editing\nfun")}
		}, chat.CodeBadRequest, "Invalid character in topic, at position 8!"},
		{"topic of a direct message", nil, "admin", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.direct, Topic: ptr("x")}
		}, chat.CodeBadRequest, "Direct messages cannot have topics."},
		{"direct message to a channel", nil, "admin", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.direct, StreamID: &w.public}
		}, chat.CodeBadRequest, "Direct messages cannot be moved to channels."},
		{"topic without can_move_messages_between_topics_group", func(t *testing.T, f *fixture, w editWorld) {
			g := groupSetting(f, users.GroupAdministrators)
			setRealm(t, f, func(r *realms.Realm) { r.CanMoveMessagesBetweenTopicsGroup = g })
		}, "member", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr("x")}
		}, chat.CodeBadRequest, "You don't have permission to edit this message"},
		{"resolve without can_resolve_topics_group", func(t *testing.T, f *fixture, w editWorld) {
			g := groupSetting(f, users.GroupAdministrators)
			setRealm(t, f, func(r *realms.Realm) { r.CanResolveTopicsGroup = g })
		}, "member", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr(messages.ResolvedPrefix + "party"), PropagateMode: "change_all"}
		}, chat.CodeBadRequest, "You don't have permission to resolve topics in this channel."},
		{"topic after the move window", func(t *testing.T, f *fixture, w editWorld) {
			f.clock.Advance(8 * 24 * time.Hour)
		}, "member", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr("x")}
		}, chat.CodeBadRequest, "The time limit for editing this message's topic has passed."},
		{"channel without can_move_messages_between_channels_group", func(t *testing.T, f *fixture, w editWorld) {
			g := groupSetting(f, users.GroupModerators)
			setRealm(t, f, func(r *realms.Realm) { r.CanMoveMessagesBetweenChannelsGroup = g })
		}, "member", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], StreamID: &w.other}
		}, chat.CodeBadRequest, "You don't have permission to move this message"},
		{"channel after the move window", func(t *testing.T, f *fixture, w editWorld) {
			setRealm(t, f, func(r *realms.Realm) { r.MoveMessagesBetweenStreamsLimitSeconds = 60 })
			f.clock.Advance(81 * time.Second)
		}, "member", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], StreamID: &w.other}
		}, chat.CodeBadRequest, "The time limit for editing this message's channel has passed"},
		{"a message of an archived channel", func(t *testing.T, f *fixture, w editWorld) {
			mustDo(t, "ArchiveStream", errOf(f.svc.ArchiveStream(t.Context(), f.actor("admin"), chat.ArchiveStreamParams{StreamID: w.public})))
		}, "admin", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("x")}
		}, chat.CodeBadRequest, "Invalid message(s)"},
		{"to an archived channel", func(t *testing.T, f *fixture, w editWorld) {
			mustDo(t, "ArchiveStream", errOf(f.svc.ArchiveStream(t.Context(), f.actor("admin"), chat.ArchiveStreamParams{StreamID: w.other})))
		}, "admin", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], StreamID: &w.other}
		}, chat.CodeBadRequest, "Invalid channel ID"},
		{"an unknown channel", nil, "member", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], StreamID: ptr(w.other + 100)}
		}, chat.CodeBadRequest, "Invalid channel ID"},
		{"empty topic where topics are required", func(t *testing.T, f *fixture, w editWorld) {
			mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(t.Context(), f.actor("admin"), chat.UpdateStreamParams{StreamID: w.public, TopicsPolicy: ptr("disable_empty_topic")})))
		}, "member", func(w editWorld) chat.UpdateMessageParams {
			return chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr("")}
		}, chat.CodeBadRequest, "Topics are required in this organization."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			w := seedEditWorld(t, f)
			if c.setup != nil {
				c.setup(t, f, w)
			}
			before := messageAs(t, f, "admin", w.party[0])
			_, err := f.svc.UpdateMessage(ctx, f.actor(c.who), c.p(w))
			var ce *chat.Error
			if !errors.As(err, &ce) || ce.Code != c.code || ce.Msg != c.msg {
				t.Fatalf("error = %v, want %s %q", err, c.code, c.msg)
			}
			if diff := cmp.Diff(before, messageAs(t, f, "admin", w.party[0])); diff != "" {
				t.Errorf("a refused edit changed the message (-before +after):\n%s", diff)
			}
		})
	}
}

func TestUpdateMessageChangeAllTimeLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := seedEditWorld(t, f)
	setRealm(t, f, func(r *realms.Realm) { r.MoveMessagesWithinStreamLimitSeconds = 3600 })
	f.clock.Advance(2 * time.Hour)
	newer := mustSendToChannel(t, f, "member", w.public, "party", "fourth")
	_, err := f.svc.UpdateMessage(t.Context(), f.actor("member"), chat.UpdateMessageParams{
		MessageID: newer, Topic: ptr("later"), PropagateMode: "change_all",
	})
	var ce *chat.Error
	if !errors.As(err, &ce) || ce.Code != chat.CodeMoveMessagesTimeLimitExceeded ||
		ce.Msg != "You only have permission to move the 1/4 most recent messages in this topic." {
		t.Fatalf("error = %v", err)
	}
	want := map[string]any{"first_message_id_allowed_to_move": newer, "total_messages_in_topic": 4, "total_messages_allowed_to_move": 1}
	if diff := cmp.Diff(want, ce.Extra); diff != "" {
		t.Errorf("extra (-want +got):\n%s", diff)
	}
	// A moderator is not limited; change_later from the allowed message works for the member.
	mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: newer, Topic: ptr("later"), PropagateMode: "change_later"})
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr("later"), PropagateMode: "change_all"})
	for _, id := range append(w.party, newer) {
		if got := messageAs(t, f, "admin", id).Subject; got != "later" {
			t.Errorf("message %d topic = %q", id, got)
		}
	}
}

func TestUpdateMessageHistoryAndTimestamps(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := seedEditWorld(t, f)
	f.clock.Advance(time.Minute)
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("edited"), Topic: ptr("renamed")})
	f.clock.Advance(time.Minute)
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr(messages.ResolvedPrefix + "renamed")})
	m := messageAs(t, f, "member", w.party[0])
	editedAt := f.clock.Now().Add(-time.Minute).Unix()
	if m.LastEditTimestamp == nil || *m.LastEditTimestamp != editedAt || m.LastMovedTimestamp == nil || *m.LastMovedTimestamp != editedAt {
		t.Errorf("timestamps: edit %v moved %v, want both %d (resolving does not count as a move)", m.LastEditTimestamp, m.LastMovedTimestamp, editedAt)
	}
	if len(m.EditHistory) != 2 || m.EditHistory[0].PrevTopic == nil || *m.EditHistory[0].PrevTopic != "renamed" ||
		m.EditHistory[1].PrevContent == nil || *m.EditHistory[1].PrevContent != "first @**Mia Member**" {
		t.Errorf("edit_history = %+v", m.EditHistory)
	}
	setRealm(t, f, func(r *realms.Realm) { r.MessageEditHistoryVisibilityPolicy = "moves" })
	for _, e := range messageAs(t, f, "member", w.party[0]).EditHistory {
		if e.PrevContent != nil {
			t.Errorf("moves policy shows content: %+v", e)
		}
	}
	setRealm(t, f, func(r *realms.Realm) { r.MessageEditHistoryVisibilityPolicy = "none" })
	if h := messageAs(t, f, "member", w.party[0]).EditHistory; h != nil {
		t.Errorf("none policy shows %+v", h)
	}
	// Blank content becomes "(deleted)".
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("  \n")})
	if got := messageAs(t, f, "admin", w.party[0]).Content; got != "<p>(deleted)</p>" {
		t.Errorf("blank edit content = %q", got)
	}
}

// topicContents lists the contents of a topic's messages as the admin reads them, oldest first.
func topicContents(t *testing.T, f *fixture, c channels.ID, topic string) []string {
	t.Helper()
	res, err := f.svc.GetMessages(t.Context(), f.actor("admin"), chat.GetMessagesParams{
		Anchor: "oldest", NumAfter: 100, AllowEmptyTopicName: true, ApplyMarkdown: ptr(false),
		Narrow: []chat.NarrowTerm{{Operator: "channel", Operand: float64(c)}, {Operator: "topic", Operand: topic}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range res.Messages {
		out = append(out, m.Content)
	}
	return out
}

func TestUpdateMessageNotices(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	w := seedEditWorld(t, f)
	resolved := messages.ResolvedPrefix + "party"
	mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: w.party[0], Topic: &resolved, PropagateMode: "change_all"})
	want := []string{"first @**Mia Member**", "second", "third", "@_**Mia Member|3** has marked this topic as resolved."}
	if diff := cmp.Diff(want, topicContents(t, f, w.public, resolved)); diff != "" {
		t.Errorf("resolved topic (-want +got):\n%s", diff)
	}
	// Unresolving within the grace period removes the notice instead of adding another.
	f.clock.Advance(30 * time.Second)
	mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr("party"), PropagateMode: "change_all"})
	if diff := cmp.Diff(want[:3], topicContents(t, f, w.public, "party")); diff != "" {
		t.Errorf("unresolved topic (-want +got):\n%s", diff)
	}
	// A move to another channel with both breadcrumbs.
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[2], StreamID: &w.other, SendNotificationToOldThread: ptr(true)})
	moved := topicContents(t, f, w.other, "party")
	if len(moved) != 2 || moved[0] != "third" || !strings.HasPrefix(moved[1], "[A message](https://chat.example.com/#narrow/channel/3-Denmark/topic/party/near/") ||
		!strings.HasSuffix(moved[1], ") was moved here from #**Verona>party** by @_**Adam Admin|2**.") {
		t.Errorf("new thread = %q", moved)
	}
	left := topicContents(t, f, w.public, "party")
	if got := left[len(left)-1]; got != "A message was moved from this topic to #**Denmark>party** by @_**Adam Admin|2**." {
		t.Errorf("old thread notice = %q", got)
	}
}

func TestRegisterShowsDefaultMoveGroupsOfAnOlderOrganization(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	setRealm(t, f, func(r *realms.Realm) {
		r.CanMoveMessagesBetweenTopicsGroup, r.CanMoveMessagesBetweenChannelsGroup, r.CanResolveTopicsGroup =
			users.GroupSetting{}, users.GroupSetting{}, users.GroupSetting{}
	})
	res, err := f.svc.RegisterQueue(t.Context(), f.actor("member"), chat.RegisterQueueParams{EventTypes: []string{"realm"}})
	if err != nil {
		t.Fatal(err)
	}
	g := f.groupIDs(t)
	want := []users.GroupSetting{users.Named(g[users.GroupEveryone]), users.Named(g[users.GroupMembers]), users.Named(g[users.GroupEveryone])}
	got := []users.GroupSetting{res.RealmCanMoveMessagesBetweenTopicsGroup, res.RealmCanMoveMessagesBetweenChannelsGroup, res.RealmCanResolveTopicsGroup}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The defaults also decide: a member may move a topic.
	w := seedEditWorld(t, f)
	mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr("moved")})
}
