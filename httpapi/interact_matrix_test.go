package httpapi

import (
	"testing"

	chat "github.com/teamchat/chat"
)

// interactMatrixRows are the matrix rows of message interactions: reactions, emoji, typing
// and read state.
func interactMatrixRows() []matrixRow {
	return []matrixRow{
		{method: "POST", path: "messages/1/reactions", setup: memberDirectMessage, params: map[string]string{"emoji_name": "tada"}, want: only("member", "admin")},
		{method: "POST", path: "messages/1/reactions", setup: publicChannelWithMessage, params: map[string]string{"emoji_name": "zulip"}, want: membersButGuests},
		{method: "DELETE", path: "messages/1/reactions", setup: memberReaction, params: map[string]string{"emoji_name": "tada"}, want: only("member")},
		{method: "POST", path: "typing", params: map[string]string{"op": "start", "to": "[{owner}]"}, want: authenticated()},
		{method: "POST", path: "typing", setup: publicChannelWithMessage, params: map[string]string{"type": "channel", "op": "start", "stream_id": "1", "topic": "t"}, want: authenticated().except("guest", 400)},
		{method: "GET", path: "realm/emoji", want: authenticated()},
		// The matrix sends no file: refused for everyone, guests for their role.
		{method: "POST", path: "realm/emoji/tick", want: only()},
		{method: "DELETE", path: "realm/emoji/tick", setup: memberEmoji, want: only("owner", "admin", "member")},
		{method: "POST", path: "mark_all_as_read", setup: memberDirectMessage, want: authenticated()},
		{method: "POST", path: "mark_stream_as_read", setup: publicChannelWithMessage, params: map[string]string{"stream_id": "1"}, want: authenticated().except("guest", 400)},
		{method: "POST", path: "mark_topic_as_read", setup: publicChannelWithMessage, params: map[string]string{"stream_id": "1", "topic_name": "t"}, want: only("member")},
		{method: "POST", path: "messages/flags/narrow", setup: memberDirectMessage, params: map[string]string{"anchor": "newest", "num_before": "10", "num_after": "0", "narrow": "[]", "op": "add", "flag": "read"}, want: authenticated()},
		{method: "GET", path: "messages/1/history", setup: memberDirectMessage, want: only("member", "admin")},
		{method: "GET", path: "messages/1/history", setup: publicChannelWithMessage, want: authenticated().except("guest", 400)},
		{method: "GET", path: "messages/1/read_receipts", setup: readReceiptsOn, want: only("member", "admin")},
		{method: "GET", path: "messages/matches_narrow", setup: memberDirectMessage, params: map[string]string{"msg_ids": "[1]", "narrow": "[]"}, want: authenticated()},
		{method: "POST", path: "messages/1/report", setup: moderationChannelWithMessage, params: map[string]string{"report_type": "spam"}, want: authenticated().except("guest", 400)},
		{method: "POST", path: "messages/render", params: map[string]string{"content": "**hi**"}, want: authenticated()},
		{method: "POST", path: "messages/1/typing", setup: memberDirectMessage, params: map[string]string{"op": "start"}, want: only("member", "admin")},
	}
}

// readReceiptsOn: the organization shows read receipts; the member sent a direct message to
// the admin.
func readReceiptsOn(t *testing.T, m *matrixOrg) {
	memberDirectMessage(t, m)
	m.mustCall(t, "owner", "PATCH", "realm", map[string]string{"enable_read_receipts": "true"})
}

// moderationChannelWithMessage: the public channel of publicChannelWithMessage is also the
// moderation request channel.
func moderationChannelWithMessage(t *testing.T, m *matrixOrg) {
	publicChannelWithMessage(t, m)
	m.mustCall(t, "owner", "PATCH", "realm", map[string]string{"moderation_request_channel_id": "1"})
}

// memberReaction: the member reacts with tada to a direct message to the admin.
func memberReaction(t *testing.T, m *matrixOrg) {
	memberDirectMessage(t, m)
	m.mustCall(t, "member", "POST", "messages/1/reactions", map[string]string{"emoji_name": "tada"})
}

// pngImage is a 1×1 PNG image (emoji are decoded and resized).
var pngImage = []byte("\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99\x3d\x1d\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82")

// memberEmoji: the member added the custom emoji "tick".
func memberEmoji(t *testing.T, m *matrixOrg) {
	t.Helper()
	if _, err := m.svc.UploadCustomEmoji(t.Context(), chat.Actor{UserID: m.ids["member"]}, chat.UploadCustomEmojiParams{Name: "tick", Files: 1, Image: pngImage}); err != nil {
		t.Fatal(err)
	}
}
