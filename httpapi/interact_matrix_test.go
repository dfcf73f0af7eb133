package httpapi

import "testing"

// interactMatrixRows are the matrix rows of message interactions: reactions, emoji, typing
// and read state.
func interactMatrixRows() []matrixRow {
	return []matrixRow{
		{method: "POST", path: "messages/1/reactions", setup: memberDirectMessage, params: map[string]string{"emoji_name": "tada"}, want: only("member", "admin")},
		{method: "POST", path: "messages/1/reactions", setup: publicChannelWithMessage, params: map[string]string{"emoji_name": "zulip"}, want: membersButGuests},
		{method: "DELETE", path: "messages/1/reactions", setup: memberReaction, params: map[string]string{"emoji_name": "tada"}, want: only("member")},
		{method: "POST", path: "typing", params: map[string]string{"op": "start", "to": "[{owner}]"}, want: authenticated()},
		{method: "POST", path: "typing", setup: publicChannelWithMessage, params: map[string]string{"type": "channel", "op": "start", "stream_id": "1", "topic": "t"}, want: authenticated().except("guest", 400)},
		{method: "POST", path: "messages/1/typing", setup: memberDirectMessage, params: map[string]string{"op": "start"}, want: only("member", "admin")},
	}
}

// memberReaction: the member reacts with tada to a direct message to the admin.
func memberReaction(t *testing.T, m *matrixOrg) {
	memberDirectMessage(t, m)
	m.mustCall(t, "member", "POST", "messages/1/reactions", map[string]string{"emoji_name": "tada"})
}
