package chat_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/messages"
)

// interactConsistencyCases are the consistency cases of message interactions.
func interactConsistencyCases() []consistencyCase {
	return append(append(readConsistencyCases(), realmEmojiConsistencyCases()...), []consistencyCase{
		{method: "AddReaction", name: "to a public channel's message", setup: func(t *testing.T, f *fixture) {
			mustSendToChannel(t, f, "admin", mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin", "guest"), "t", "hi")
		}, run: func(t *testing.T, f *fixture) {
			id := fetchIDs(t, f, "admin", chat.NarrowTerm{Operator: "topic", Operand: "t"})[0]
			mustDo(t, "AddReaction", errOf(f.svc.AddReaction(t.Context(), f.actor("member"), chat.AddReactionParams{MessageID: id, EmojiName: "tada"})))
			// The owner reacts from the channel's history.
			mustDo(t, "AddReaction", errOf(f.svc.AddReaction(t.Context(), f.actor("owner"), chat.AddReactionParams{MessageID: id, EmojiName: "zulip"})))
		}},
		{method: "RemoveReaction", name: "from a direct message", setup: func(t *testing.T, f *fixture) {
			id := mustSendDirect(t, f, "admin", "hi", "member")
			mustDo(t, "AddReaction", errOf(f.svc.AddReaction(t.Context(), f.actor("member"), chat.AddReactionParams{MessageID: id, EmojiName: "octopus"})))
		}, run: func(t *testing.T, f *fixture) {
			id := fetchIDs(t, f, "member", chat.NarrowTerm{Operator: "is", Operand: "dm"})[0]
			mustDo(t, "RemoveReaction", errOf(f.svc.RemoveReaction(t.Context(), f.actor("member"), chat.RemoveReactionParams{MessageID: id, EmojiName: ptr("octopus")})))
		}},
		{method: "SetTypingStatus", name: "direct and channel", setup: func(t *testing.T, f *fixture) {
			mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin", "guest")
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "SetTypingStatus", errOf(f.svc.SetTypingStatus(t.Context(), f.actor("member"), chat.SetTypingStatusParams{Op: "start", To: []usersID{f.ids["admin"]}})))
			c := f.mustChannel(t, "Verona").ID
			mustDo(t, "SetTypingStatus", errOf(f.svc.SetTypingStatus(t.Context(), f.actor("member"), chat.SetTypingStatusParams{Type: "channel", Op: "start", StreamID: &c, Topic: ptr("")})))
		}},
		{method: "ExpireTyping", name: "a start not renewed", setup: func(t *testing.T, f *fixture) {
			mustDo(t, "SetTypingStatus", errOf(f.svc.SetTypingStatus(t.Context(), f.actor("member"), chat.SetTypingStatusParams{Op: "start", To: []usersID{f.ids["admin"]}})))
		}, run: func(t *testing.T, f *fixture) {
			f.clock.Advance(chat.TypingExpiry)
			mustDo(t, "ExpireTyping", f.svc.ExpireTyping(t.Context()))
		}},
		{method: "SetTypingStatusForMessageEdit", name: "a direct message", setup: func(t *testing.T, f *fixture) {
			mustSendDirect(t, f, "member", "hi", "admin")
		}, run: func(t *testing.T, f *fixture) {
			id := fetchIDs(t, f, "member", chat.NarrowTerm{Operator: "is", Operand: "dm"})[0]
			mustDo(t, "SetTypingStatusForMessageEdit", errOf(f.svc.SetTypingStatusForMessageEdit(t.Context(), f.actor("member"), chat.SetTypingStatusForMessageEditParams{MessageID: id, Op: "start"})))
		}},
	}...)
}

func goldenReactions(t *testing.T, f *fixture) {
	ctx := t.Context()
	id := mustSendDirect(t, f, "admin", "hi", "member")
	mustDo(t, "AddReaction", errOf(f.svc.AddReaction(ctx, f.actor("admin"), chat.AddReactionParams{MessageID: id, EmojiName: "tada"})))
	mustDo(t, "RemoveReaction", errOf(f.svc.RemoveReaction(ctx, f.actor("admin"), chat.RemoveReactionParams{MessageID: id, EmojiCode: ptr("1f389")})))
}

// reactionsOf fetches a message's reactions as viewer sees them.
func reactionsOf(t *testing.T, f *fixture, viewer string, id messages.ID) []chat.ReactionRecord {
	t.Helper()
	res, err := f.svc.GetMessage(t.Context(), f.actor(viewer), chat.GetMessageParams{MessageID: id})
	if err != nil {
		t.Fatal(err)
	}
	return res.Message.Reactions
}

func TestReactions(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	id := mustSendToChannel(t, f, "admin", verona, "t", "hi")
	memberQ := f.register(t, "member", "reaction")
	ownerQ := f.register(t, "owner", "reaction")
	guestQ := f.register(t, "guest", "reaction")

	add := func(who string, p chat.AddReactionParams) error {
		p.MessageID = id
		_, err := f.svc.AddReaction(ctx, f.actor(who), p)
		return err
	}
	if err := add("member", chat.AddReactionParams{EmojiName: "thumbs_up"}); err != nil {
		t.Fatal(err)
	}
	// The admin votes for the member's reaction by code: the reaction keeps its first name.
	if err := add("admin", chat.AddReactionParams{EmojiName: "+1", EmojiCode: ptr("1f44d"), ReactionType: ptr("unicode_emoji")}); err != nil {
		t.Fatal(err)
	}
	// The owner, not subscribed, reacts from the channel's history.
	if err := add("owner", chat.AddReactionParams{EmojiName: "zulip"}); err != nil {
		t.Fatal(err)
	}
	want := []chat.ReactionRecord{
		{EmojiName: "thumbs_up", EmojiCode: "1f44d", ReactionType: "unicode_emoji", UserID: f.ids["member"]},
		{EmojiName: "thumbs_up", EmojiCode: "1f44d", ReactionType: "unicode_emoji", UserID: f.ids["admin"]},
		{EmojiName: "zulip", EmojiCode: "zulip", ReactionType: "zulip_extra_emoji", UserID: f.ids["owner"]},
	}
	if diff := cmp.Diff(want, reactionsOf(t, f, "member", id)); diff != "" {
		t.Errorf("reactions (-want +got):\n%s", diff)
	}
	res := fetch(t, f, "owner", chat.GetMessagesParams{Anchor: "newest", NumBefore: 1})
	if diff := cmp.Diff(want, res.Messages[0].Reactions); diff != "" {
		t.Errorf("GET /messages reactions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"read", "historical"}, *res.Messages[0].Flags); diff != "" {
		t.Errorf("the owner's flags after reacting (-want +got):\n%s", diff)
	}

	// Subscribers and the message's holders get the events; the guest (no access) does not.
	if n := len(messageEvents(t, f.poll(t, "member", memberQ, -1, true), "reaction")); n != 3 {
		t.Errorf("member got %d reaction events, want 3", n)
	}
	evs := messageEvents(t, f.poll(t, "owner", ownerQ, -1, true), "reaction")
	if len(evs) != 1 || evs[0]["emoji_name"] != "zulip" || evs[0]["op"] != "add" {
		t.Errorf("owner (has a row since reacting) got %v, want their own reaction only", evs)
	}
	if evs := messageEvents(t, f.poll(t, "guest", guestQ, -1, true), "reaction"); len(evs) != 0 {
		t.Errorf("guest got %v", evs)
	}

	// Removal by name finds the reaction by its code.
	if _, err := f.svc.RemoveReaction(ctx, f.actor("admin"), chat.RemoveReactionParams{MessageID: id, EmojiName: ptr("+1")}); err != nil {
		t.Fatal(err)
	}
	evs = messageEvents(t, f.poll(t, "member", memberQ, -1, true), "reaction")
	last := evs[len(evs)-1]
	if last["op"] != "remove" || last["emoji_name"] != "thumbs_up" || last["user_id"] != float64(f.ids["admin"]) {
		t.Errorf("remove event = %v", last)
	}
	if got := reactionsOf(t, f, "member", id); len(got) != 2 {
		t.Errorf("after removal: %v", got)
	}
}

func TestReactionErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin")
	id := mustSendToChannel(t, f, "admin", verona, "t", "hi")
	dm := mustSendDirect(t, f, "admin", "secret", "member")
	if _, err := f.svc.AddReaction(ctx, f.actor("member"), chat.AddReactionParams{MessageID: id, EmojiName: "tada"}); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("a", chat.MaxEmojiFieldLength+1)
	for _, tt := range []struct {
		name   string
		who    string
		add    *chat.AddReactionParams
		remove *chat.RemoveReactionParams
		code   chat.Code
		msg    string
	}{
		{"unknown emoji", "member", &chat.AddReactionParams{MessageID: id, EmojiName: "no_such_emoji"}, nil, chat.CodeBadRequest, "Emoji 'no_such_emoji' does not exist"},
		{"the same reaction twice", "member", &chat.AddReactionParams{MessageID: id, EmojiName: "tada"}, nil, chat.CodeReactionAlreadyExists, "Reaction already exists."},
		{"a code that is no emoji", "member", &chat.AddReactionParams{MessageID: id, EmojiName: "tada", EmojiCode: ptr("ffff"), ReactionType: ptr("unicode_emoji")}, nil, chat.CodeBadRequest, "Invalid emoji code."},
		{"a name that does not match the code", "member", &chat.AddReactionParams{MessageID: id, EmojiName: "octopus", EmojiCode: ptr("1f600"), ReactionType: ptr("unicode_emoji")}, nil, chat.CodeBadRequest, "Invalid emoji name."},
		{"an unknown reaction type", "member", &chat.AddReactionParams{MessageID: id, EmojiName: "tada", EmojiCode: ptr("1f600"), ReactionType: ptr("sticker")}, nil, chat.CodeBadRequest, "Invalid emoji type."},
		{"an extra emoji under another name", "member", &chat.AddReactionParams{MessageID: id, EmojiName: "zulip2", EmojiCode: ptr("zulip"), ReactionType: ptr("zulip_extra_emoji")}, nil, chat.CodeBadRequest, "Invalid emoji name."},
		{"an unknown custom emoji", "member", &chat.AddReactionParams{MessageID: id, EmojiName: "x", EmojiCode: ptr("99"), ReactionType: ptr("realm_emoji")}, nil, chat.CodeBadRequest, "Invalid custom emoji."},
		{"a too long name", "member", &chat.AddReactionParams{MessageID: id, EmojiName: long}, nil, chat.CodeBadRequest, "Invalid emoji name."},
		{"a message the guest cannot read", "guest", &chat.AddReactionParams{MessageID: id, EmojiName: "tada"}, nil, chat.CodeBadRequest, "Invalid message(s)"},
		{"someone else's direct message", "owner", &chat.AddReactionParams{MessageID: dm, EmojiName: "tada"}, nil, chat.CodeBadRequest, "Invalid message(s)"},
		{"an unknown message", "member", &chat.AddReactionParams{MessageID: 9999, EmojiName: "tada"}, nil, chat.CodeBadRequest, "Invalid message(s)"},
		{"removing a reaction one did not add", "admin", nil, &chat.RemoveReactionParams{MessageID: id, EmojiName: ptr("tada")}, chat.CodeReactionDoesNotExist, "Reaction doesn't exist."},
		{"removing without name or code", "member", nil, &chat.RemoveReactionParams{MessageID: id}, chat.CodeBadRequest, "At least one of the following arguments must be present: emoji_name, emoji_code"},
		{"removing with the wrong type", "member", nil, &chat.RemoveReactionParams{MessageID: id, EmojiCode: ptr("1f389"), ReactionType: ptr("realm_emoji")}, chat.CodeReactionDoesNotExist, "Reaction doesn't exist."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.add != nil {
				_, err = f.svc.AddReaction(ctx, f.actor(tt.who), *tt.add)
			} else {
				_, err = f.svc.RemoveReaction(ctx, f.actor(tt.who), *tt.remove)
			}
			wantError(t, err, tt.code, http.StatusBadRequest, tt.msg)
			want := []chat.ReactionRecord{{EmojiName: "tada", EmojiCode: "1f389", ReactionType: "unicode_emoji", UserID: f.ids["member"]}}
			if diff := cmp.Diff(want, reactionsOf(t, f, "admin", id)); diff != "" {
				t.Errorf("a refusal changed the reactions (-want +got):\n%s", diff)
			}
		})
	}
}
