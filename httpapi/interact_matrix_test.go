package httpapi

import "testing"

// interactMatrixRows are the matrix rows of message interactions: reactions, emoji, typing
// and read state.
func interactMatrixRows() []matrixRow {
	return []matrixRow{
		{method: "POST", path: "messages/1/reactions", setup: memberDirectMessage, params: map[string]string{"emoji_name": "tada"}, want: only("member", "admin")},
		{method: "POST", path: "messages/1/reactions", setup: publicChannelWithMessage, params: map[string]string{"emoji_name": "zulip"}, want: membersButGuests},
		{method: "DELETE", path: "messages/1/reactions", setup: memberReaction, params: map[string]string{"emoji_name": "tada"}, want: only("member")},
	}
}

// memberReaction: the member reacts with tada to a direct message to the admin.
func memberReaction(t *testing.T, m *matrixOrg) {
	memberDirectMessage(t, m)
	m.mustCall(t, "member", "POST", "messages/1/reactions", map[string]string{"emoji_name": "tada"})
}
