package httpapi

import "testing"

// peopleMatrixRows are the matrix rows of statuses, muting, bots and invitations.
func peopleMatrixRows() []matrixRow {
	return []matrixRow{
		{method: "POST", path: "users/me/status", params: map[string]string{"status_text": "busy"}, want: authenticated().except("bot", 400)},
		{method: "GET", path: "users/{member}/status", want: authenticated()},
		{method: "POST", path: "users/{member}/status", params: map[string]string{"status_text": "away"}, want: only("owner", "admin")},
		// The guest cannot mute themself.
		{method: "POST", path: "users/me/muted_users/{guest}", want: authenticated().except("guest", 400)},
		{method: "DELETE", path: "users/me/muted_users/{deactivated}", setup: memberMutesDeactivated, want: only("member")},
		// The owner is the organization's only owner.
		{method: "DELETE", path: "users/me", want: authenticated().except("owner", 400)},
		{method: "PATCH", path: "users/member@matrix.test", params: map[string]string{"full_name": "Renamed"}, want: only("owner", "admin")},
		{method: "PATCH", path: "realm/profile_fields", setup: phoneField, params: map[string]string{"order": "[1]"}, want: only("owner", "admin")},
		{method: "PATCH", path: "realm/profile_fields/1", setup: phoneField, params: map[string]string{"name": "Mobile"}, want: only("owner", "admin")},
		{method: "DELETE", path: "realm/profile_fields/1", setup: phoneField, want: only("owner", "admin")},
		{method: "PATCH", path: "channel_folders", params: map[string]string{"order": "[]"}, want: only("owner", "admin")},
		// The matrix bot belongs to the member.
		{method: "GET", path: "bots", want: authenticated()},
		{method: "PATCH", path: "bots/{bot}", params: map[string]string{"full_name": "Renamed Bot"}, want: only("owner", "admin", "member")},
		{method: "POST", path: "bots/{bot}/api_key/regenerate", want: only("owner", "admin", "member")},
		{method: "DELETE", path: "bots/{bot}", want: only("owner", "admin", "member")},
		{method: "POST", path: "invites", params: map[string]string{"invitee_emails": "new@matrix.test", "stream_ids": "[]"}, want: only("owner", "admin", "moderator", "member")},
		{method: "DELETE", path: "invites/1", setup: memberEmailInvite, want: only("owner", "admin", "member")},
		{method: "POST", path: "invites/1/resend", setup: memberEmailInvite, want: only("owner", "admin", "member")},
		// No video call provider is configured: every authenticated caller gets Zulip's 400.
		{method: "POST", path: "calls/zoom/create", want: authenticated().except("owner", 400).except("admin", 400).except("moderator", 400).except("member", 400).except("guest", 400).except("bot", 400)},
		{method: "POST", path: "calls/webex/create", want: authenticated().except("owner", 400).except("admin", 400).except("moderator", 400).except("member", 400).except("guest", 400).except("bot", 400)},
		{method: "GET", path: "calls/bigbluebutton/create", params: map[string]string{"meeting_name": "standup"}, want: authenticated()},
		{method: "GET", path: "streams/1/email_address", setup: publicChannelWithMessage, want: authenticated().except("guest", 400)},
		// The link is the administrator's: others need to be administrators.
		{method: "PATCH", path: "invites/multiuse/1", setup: adminInvite, params: map[string]string{"invite_as": "400"}, want: only("owner", "admin")},
		{method: "POST", path: "realm/test_welcome_bot_custom_message", params: map[string]string{"welcome_message_custom_text": "Welcome!"}, want: only("owner", "admin")},
	}
}

func memberMutesDeactivated(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "users/me/muted_users/{deactivated}", nil)
}

func memberEmailInvite(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "invites", map[string]string{"invitee_emails": "invited@matrix.test", "stream_ids": "[]"})
}
