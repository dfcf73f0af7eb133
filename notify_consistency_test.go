package chat_test

import (
	"testing"
	"time"

	chat "github.com/teamchat/chat"
)

// notifyConsistencyCases are the notifications area's mutations: a pass of the missed-message
// email worker removes the pending rows and changes no client's state. (The harness's users
// have queues open, so the notification is dropped as the user's is online.)
func notifyConsistencyCases() []consistencyCase {
	return []consistencyCase{
		{method: "DeliverMissedMessageEmails", name: "a due notification is handled", setup: func(t *testing.T, f *fixture) {
			mustSendDirect(t, f, "admin", "are you there?", "member")
			f.clock.Advance(121 * time.Second)
		}, run: func(t *testing.T, f *fixture) {
			res, err := f.svc.DeliverMissedMessageEmails(t.Context(), chat.DeliverMissedMessageEmailsParams{})
			if err != nil || res.Sent+res.Dropped != 1 {
				t.Fatalf("DeliverMissedMessageEmails = %+v, %v; want one handled", res, err)
			}
		}},
		{method: "QueueDigestEmails", name: "the operator's digest pass", setup: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor("owner"), chat.UpdateRealmParams{
				Settings: map[string]any{"digest_emails_enabled": true}})))
			f.clock.Advance(6 * 24 * time.Hour)
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "QueueDigestEmails", errOf(f.svc.QueueDigestEmails(t.Context(), chat.QueueDigestEmailsParams{Now: true})))
		}},
	}
}
