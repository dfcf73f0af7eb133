package httpapi

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// privateChannel creates the private channel 1 ("priv") with the member subscribed; the
// administrator creates it, so administrators administer it.
func privateChannel(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "admin", "POST", "channels/create", map[string]string{
		"name": "priv", "subscribers": "[{member}]", "invite_only": "true",
	})
}

// TestPrivateChannelMatrix calls the channel routes on a private channel as each kind of
// caller: the subscribed member and the organization administrators may see it, nobody else
// may (their answers are those of a missing channel); refusals change nothing.
func TestPrivateChannelMatrix(t *testing.T) {
	t.Parallel()
	see := only("owner", "admin", "member")
	rows := []matrixRow{
		{method: "GET", path: "streams/1", setup: privateChannel, want: see},
		{method: "GET", path: "streams/1/members", setup: privateChannel, want: see},
		{method: "GET", path: "get_stream_id", setup: privateChannel, params: map[string]string{"stream": "priv"}, want: see},
		{method: "GET", path: "users/me/1/topics", setup: privateChannel, want: see},
		{method: "POST", path: "messages", setup: privateChannel, params: map[string]string{"type": "stream", "to": "1", "topic": "t", "content": "hi"}, want: only("member")},
		{method: "POST", path: "users/me/subscriptions", setup: privateChannel, params: map[string]string{"subscriptions": `[{"name":"priv"}]`}, want: only("owner", "admin", "member")},
	}
	for _, row := range rows {
		for _, caller := range callers {
			t.Run(row.method+" "+row.path+"/"+caller, func(t *testing.T) {
				t.Parallel()
				m := newMatrixOrg(t)
				row.setup(t, m)
				before := m.view(t)
				status, body := m.call(t, caller, row.method, row.path, row.params)
				if want := row.want.want(caller); status != want {
					t.Fatalf("%s %s as %s: status %d %v, want %d", row.method, row.path, caller, status, body, want)
				}
				if status != http.StatusOK {
					if msg, _ := body["msg"].(string); caller != "anonymous" && caller != "deactivated" && msg == "" {
						t.Errorf("refusal without a message: %v", body)
					}
					if diff := cmp.Diff(before, m.view(t)); diff != "" {
						t.Errorf("refused call changed the state:\n%s", diff)
					}
				}
			})
		}
	}
}
