package chat_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/realms"
)

// TestMoveErrorsOfRecentLevels: feature level 505 (a change_all move of a message past the
// time limit, in a topic where some messages are within it, answers
// MOVE_MESSAGES_TIME_LIMIT_EXCEEDED; when none are, the message's own time limit error) and
// 509 (the message's own stream_id is no channel move). Before, the first answered "The time
// limit for editing this message's topic has passed." and the second refused a content edit
// with "Cannot change message content while changing channel".
func TestMoveErrorsOfRecentLevels(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		w := seedEditWorld(t, f)
		setRealm(t, f, func(r *realms.Realm) { r.MoveMessagesWithinStreamLimitSeconds = 3600 })
		f.clock.Advance(2 * time.Hour)
		newer := mustSendToChannel(t, f, "member", w.public, "party", "fourth")

		// 505: the member's old message (w.party[1]) is past the limit; one message is not.
		_, err := f.svc.UpdateMessage(ctx, f.actor("member"), chat.UpdateMessageParams{
			MessageID: w.party[1], Topic: ptr("later"), PropagateMode: "change_all"})
		var ce *chat.Error
		if !errors.As(err, &ce) || ce.Code != chat.CodeMoveMessagesTimeLimitExceeded ||
			ce.Msg != "You only have permission to move the 1/4 most recent messages in this topic." {
			t.Fatalf("change_all from an old message: %v", err)
		}
		want := map[string]any{"first_message_id_allowed_to_move": newer, "total_messages_in_topic": 4, "total_messages_allowed_to_move": 1}
		if diff := cmp.Diff(want, ce.Extra); diff != "" {
			t.Errorf("extra (-want +got):\n%s", diff)
		}
		// change_one of the old message still answers its own time limit.
		_, err = f.svc.UpdateMessage(ctx, f.actor("member"), chat.UpdateMessageParams{
			MessageID: w.party[1], Topic: ptr("later"), PropagateMode: "change_one"})
		wantError(t, err, chat.CodeBadRequest, 400, "The time limit for editing this message's topic has passed.")
		// A topic where no message is within the limit: the message's own error.
		f.clock.Advance(2 * time.Hour)
		_, err = f.svc.UpdateMessage(ctx, f.actor("member"), chat.UpdateMessageParams{
			MessageID: w.party[1], Topic: ptr("later"), PropagateMode: "change_all"})
		wantError(t, err, chat.CodeBadRequest, 400, "The time limit for editing this message's topic has passed.")
		for _, id := range append(w.party, newer) {
			if got := messageAs(t, f, "admin", id).Subject; got != "party" {
				t.Errorf("a refused move moved message %d to %q", id, got)
			}
		}

		// 509: the message's own channel with new content is a content edit.
		fresh := mustSendToChannel(t, f, "member", w.public, "news", "draft")
		mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: fresh, StreamID: &w.public, Content: ptr("final")})
		if got := messageAs(t, f, "member", fresh); got.Content != "<p>final</p>" || got.StreamID == nil || *got.StreamID != w.public {
			t.Errorf("after the edit: content %q, stream %v", got.Content, got.StreamID)
		}
		// ... and alone, nothing to change.
		_, err = f.svc.UpdateMessage(ctx, f.actor("member"), chat.UpdateMessageParams{MessageID: fresh, StreamID: &w.public})
		wantError(t, err, chat.CodeBadRequest, 400, "Nothing to change")
	})
}
