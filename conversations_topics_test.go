package chat_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
)

// userTopics is what register's user_topics says for viewer.
func userTopics(t *testing.T, f *fixture, viewer string) []chat.UserTopicRecord {
	t.Helper()
	res, err := f.svc.RegisterQueue(t.Context(), f.actor(viewer), chat.RegisterQueueParams{
		FetchEventTypes: []string{"user_topic"}, ClientCapabilities: chat.ClientCapabilities{EmptyTopicName: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	return *res.UserTopics
}

func TestUpdateUserTopic(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member")
	secret := mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "admin")
	q := f.register(t, "member", "user_topic", "muted_topics")
	set := func(c channels.ID, topic string, p topics.VisibilityPolicy) error {
		return errOf(f.svc.UpdateUserTopic(ctx, f.actor("member"), chat.UpdateUserTopicParams{StreamID: c, Topic: topic, VisibilityPolicy: p}))
	}
	mustDo(t, "mute", set(verona, "Party", topics.PolicyMuted))
	mustDo(t, "mute again (no change)", set(verona, "party", topics.PolicyMuted))
	mustDo(t, "follow a topic without messages", set(verona, "general chat", topics.PolicyFollowed))
	mustDo(t, "clear a policy never set", set(verona, "other", topics.PolicyNone))
	want := []chat.UserTopicRecord{
		{StreamID: verona, TopicName: "", LastUpdated: f.clock.Now().Unix(), VisibilityPolicy: topics.PolicyFollowed},
		{StreamID: verona, TopicName: "Party", LastUpdated: f.clock.Now().Unix(), VisibilityPolicy: topics.PolicyMuted},
	}
	if diff := cmp.Diff(want, userTopics(t, f, "member")); diff != "" {
		t.Errorf("user_topics (-want +got):\n%s", diff)
	}
	evs := eventJSON(t, f.poll(t, "member", q, -1, true))
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, e["type"].(string))
	}
	if diff := cmp.Diff([]string{"muted_topics", "user_topic", "muted_topics", "user_topic"}, kinds); diff != "" {
		t.Errorf("event kinds (-want +got):\n%s", diff)
	}
	if got := evs[3]["topic_name"]; got != "general chat" {
		t.Errorf("topic_name for a client without empty_topic_name = %v", got)
	}
	if diff := cmp.Diff([]any{[]any{"Verona", "Party", float64(f.clock.Now().Unix())}}, evs[2]["muted_topics"]); diff != "" {
		t.Errorf("muted_topics (-want +got):\n%s", diff)
	}
	mustDo(t, "unmute", set(verona, "PARTY", topics.PolicyNone))
	if got := userTopics(t, f, "member"); len(got) != 1 || got[0].TopicName != "" {
		t.Errorf("after clearing: %v", got)
	}

	before := userTopics(t, f, "member")
	for _, tt := range []struct {
		name string
		err  error
		msg  string
	}{
		{"private channel without access", set(secret, "x", topics.PolicyMuted), "Invalid channel ID"},
		{"unknown channel", set(9999, "x", topics.PolicyNone), "Invalid channel ID"},
		{"bad policy", set(verona, "x", 4), "Invalid visibility_policy"},
		{"long topic", set(verona, strings.Repeat("x", 61), topics.PolicyMuted), "topic is too long (limit: 60 characters)"},
		{"null byte", set(verona, "a\x00", topics.PolicyMuted), "Topic must not contain null bytes"},
	} {
		wantError(t, tt.err, chat.CodeBadRequest, http.StatusBadRequest, tt.msg)
		if diff := cmp.Diff(before, userTopics(t, f, "member")); diff != "" {
			t.Fatalf("%s changed user_topics:\n%s", tt.name, diff)
		}
	}
	// Clearing needs only the channel to exist.
	mustDo(t, "clear in a private channel", set(secret, "x", topics.PolicyNone))
}

func TestMuteTopicLegacy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member")
	name := "Verona"
	mute := func(p chat.MuteTopicParams) error { return errOf(f.svc.MuteTopic(ctx, f.actor("member"), p)) }
	mustDo(t, "mute by name", mute(chat.MuteTopicParams{Stream: &name, Topic: "t", Op: "add"}))
	wantError(t, mute(chat.MuteTopicParams{StreamID: &verona, Topic: "T", Op: "add"}), chat.CodeBadRequest, 400, "Topic already muted")
	if got := userTopics(t, f, "member"); len(got) != 1 || got[0].VisibilityPolicy != topics.PolicyMuted {
		t.Fatalf("after mute: %v", got)
	}
	mustDo(t, "unmute by id", mute(chat.MuteTopicParams{StreamID: &verona, Topic: "t", Op: "remove"}))
	wantError(t, mute(chat.MuteTopicParams{StreamID: &verona, Topic: "t", Op: "remove"}), chat.CodeBadRequest, 400, "Topic is not muted")
	wantError(t, mute(chat.MuteTopicParams{StreamID: &verona, Stream: &name, Topic: "t", Op: "add"}), chat.CodeBadRequest, 400, "Unsupported parameter combination: stream_id, stream")
	wantError(t, mute(chat.MuteTopicParams{Topic: "t", Op: "add"}), chat.CodeBadRequest, 400, "Missing 'stream_id' argument")
	if got := userTopics(t, f, "member"); len(got) != 0 {
		t.Fatalf("after refusals: %v", got)
	}
}

// seedTopic stores n messages in a channel topic directly (the member sends them; member and
// admin receive them) and returns their ids, ascending.
func seedTopic(t *testing.T, f *fixture, c channels.ID, topic string, n int) []messages.ID {
	t.Helper()
	ids := make([]messages.ID, 0, n)
	err := f.store.Update(t.Context(), func(tx storage.Tx) error {
		for i := range n {
			id, err := tx.Messages().Create(messages.Message{
				SenderID: f.ids["member"], ChannelID: c, Topic: topic, Content: "m", Rendered: "<p>m</p>",
				Timestamp: f.clock.Now().Unix() + int64(i), Client: "test",
			}, []messages.UserMessage{{UserID: f.ids["member"], Flags: messages.FlagRead}, {UserID: f.ids["admin"]}})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// tickingClock makes every read of the Service's clock advance it by step.
func tickingClock(step time.Duration) func(*chat.Options) {
	c := newClock()
	return func(o *chat.Options) {
		o.Now = func() time.Time { c.Advance(step); return c.Now() }
	}
}

func TestDeleteTopicInRounds(t *testing.T) {
	t.Parallel()
	f := newFixture(t, tickingClock(time.Second), func(o *chat.Options) {
		o.TopicDeleteBatchSize, o.TopicDeleteBudget, o.MaxEventsPerQueue = 1000, 3500*time.Millisecond, 100000
	})
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	doomed := seedTopic(t, f, c, "Doomed", 10000)
	kept := seedTopic(t, f, c, "kept", 5)
	other := mustChannel(t, f, "Denmark", chat.NewChannelSettings{}, "member")
	elsewhere := seedTopic(t, f, other, "doomed", 3)
	mustDo(t, "mute", errOf(f.svc.UpdateUserTopic(ctx, f.actor("member"), chat.UpdateUserTopicParams{StreamID: c, Topic: "doomed", VisibilityPolicy: topics.PolicyMuted})))
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{ClientCapabilities: chat.ClientCapabilities{BulkMessageDeletion: true}})
	if err != nil {
		t.Fatal(err)
	}
	q := *res.QueueID

	var rounds []bool
	for range 20 {
		res, err := f.svc.DeleteTopic(ctx, f.actor("admin"), chat.DeleteTopicParams{StreamID: c, TopicName: "DOOMED"})
		if err != nil {
			t.Fatal(err)
		}
		rounds = append(rounds, res.Complete)
		if res.Complete {
			break
		}
	}
	if len(rounds) < 3 || slices.Contains(rounds[:len(rounds)-1], true) || !rounds[len(rounds)-1] {
		t.Fatalf("complete per request = %v, want several false then true", rounds)
	}

	// Every delete_message event arrived once, newest batches first; the stream update names
	// the new first message.
	deleted := map[messages.ID]int{}
	var firstIDs []any
	var batchMax []messages.ID
	for _, e := range eventJSON(t, f.poll(t, "member", q, -1, true)) {
		switch e["type"] {
		case "delete_message":
			if e["stream_id"] != float64(c) || e["topic"] != "doomed" || e["message_type"] != "stream" {
				t.Fatalf("event %v", e)
			}
			ids := e["message_ids"].([]any)
			for _, id := range ids {
				deleted[messages.ID(id.(float64))]++
			}
			batchMax = append(batchMax, messages.ID(ids[len(ids)-1].(float64)))
		case "stream":
			firstIDs = append(firstIDs, e["value"])
		}
	}
	if len(deleted) != len(doomed) {
		t.Errorf("%d messages in delete events, want %d", len(deleted), len(doomed))
	}
	for _, id := range doomed {
		if deleted[id] != 1 {
			t.Fatalf("message %d in %d delete events, want 1", id, deleted[id])
		}
	}
	if !slices.IsSortedFunc(batchMax, func(a, b messages.ID) int { return int(b - a) }) {
		t.Errorf("batches not newest first: %v", batchMax)
	}
	if diff := cmp.Diff([]any{float64(kept[0])}, firstIDs); diff != "" {
		t.Errorf("first_message_id updates (-want +got):\n%s", diff)
	}
	if got := fetchIDs(t, f, "admin", chat.NarrowTerm{Operator: "channel", Operand: float64(c)}); !slices.Equal(got, kept) {
		t.Errorf("left in the channel: %v, want %v", got, kept)
	}
	if got := fetchIDs(t, f, "member", chat.NarrowTerm{Operator: "channel", Operand: float64(other)}); !slices.Equal(got, elsewhere) {
		t.Errorf("other channel: %v, want %v", got, elsewhere)
	}
	if got := userTopics(t, f, "member"); len(got) != 0 {
		t.Errorf("user_topics after the topic is gone: %v", got)
	}
}

func TestDeleteTopicRefusalsAndEventForms(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	a := mustSendToChannel(t, f, "member", c, "t", "one")
	b := mustSendToChannel(t, f, "member", c, "t", "two")
	before := f.messageCount(t)
	_, err := f.svc.DeleteTopic(ctx, f.actor("member"), chat.DeleteTopicParams{StreamID: c, TopicName: "t"})
	wantError(t, err, chat.CodeUnauthorizedPrincipal, 400, "Must be an organization administrator")
	_, err = f.svc.DeleteTopic(ctx, f.actor("admin"), chat.DeleteTopicParams{StreamID: 9999, TopicName: "t"})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel ID")
	if n := f.messageCount(t); n != before {
		t.Fatalf("refusals changed the messages: %d, want %d", n, before)
	}
	if res, err := f.svc.DeleteTopic(ctx, f.actor("admin"), chat.DeleteTopicParams{StreamID: c, TopicName: "no such topic"}); err != nil || !res.Complete {
		t.Fatalf("empty topic: %v %v", res, err)
	}
	legacy := f.register(t, "member")
	res, err := f.svc.DeleteTopic(ctx, f.actor("admin"), chat.DeleteTopicParams{StreamID: c, TopicName: "T"})
	if err != nil || !res.Complete {
		t.Fatalf("DeleteTopic: %v %v", res, err)
	}
	var got []any
	for _, e := range messageEvents(t, f.poll(t, "member", legacy, -1, true), "delete_message") {
		if _, bulk := e["message_ids"]; bulk {
			t.Errorf("client without bulk_message_deletion got %v", e)
		}
		got = append(got, e["message_id"])
	}
	if diff := cmp.Diff([]any{float64(a), float64(b)}, got); diff != "" {
		t.Errorf("single-message events (-want +got):\n%s", diff)
	}
}

func TestDeleteMessageAndStreamTopics(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	a := mustSendToChannel(t, f, "member", c, "Party", "one")
	b := mustSendToChannel(t, f, "admin", c, "lunch", "two")
	d := mustSendToChannel(t, f, "member", c, "party", "three")
	dm := mustSendDirect(t, f, "admin", "private", "member")
	got, err := f.svc.GetStreamTopics(ctx, f.actor("member"), chat.GetStreamTopicsParams{StreamID: c})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]chat.TopicRecord{{Name: "party", MaxID: d}, {Name: "lunch", MaxID: b}}, got.Topics); diff != "" {
		t.Errorf("topics (-want +got):\n%s", diff)
	}
	_, err = f.svc.GetStreamTopics(ctx, f.actor("guest"), chat.GetStreamTopicsParams{StreamID: c})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel ID")

	before := f.messageCount(t)
	for _, tt := range []struct {
		who string
		id  messages.ID
		msg string
	}{
		{"member", b, "You don't have permission to delete this message"},
		{"owner", dm, "Invalid message(s)"},
		{"member", 9999, "Invalid message(s)"},
	} {
		wantError(t, errOf(f.svc.DeleteMessage(ctx, f.actor(tt.who), chat.DeleteMessageParams{MessageID: tt.id})), chat.CodeBadRequest, 400, tt.msg)
	}
	if n := f.messageCount(t); n != before {
		t.Fatalf("refusals deleted messages: %d, want %d", n, before)
	}
	mustDo(t, "admin deletes", errOf(f.svc.DeleteMessage(ctx, f.actor("admin"), chat.DeleteMessageParams{MessageID: a})))
	mustDo(t, "sender deletes a direct message", errOf(f.svc.DeleteMessage(ctx, f.actor("admin"), chat.DeleteMessageParams{MessageID: dm})))
	if got := fetchIDs(t, f, "member"); !slices.Equal(got, []messages.ID{b, d}) {
		t.Errorf("left: %v", got)
	}
}
