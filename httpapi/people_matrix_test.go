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
	}
}

func memberMutesDeactivated(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "member", "POST", "users/me/muted_users/{deactivated}", nil)
}
