package chat_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// jsonFields marshals v and returns the named fields of the object it gives ("absent" for a
// missing one).
func jsonFields(t *testing.T, v any, names ...string) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for _, n := range names {
		v, ok := m[n]
		if !ok {
			v = "absent"
		}
		out[n] = v
	}
	return out
}

// TestMemberRecordBotFields checks the spec's user record on every backend: GET /users/{id},
// GET /users/{email} and GET /users carry bot_type and bot_owner_id, null for humans; GET
// /users/me keeps Zulip's schema, which leaves them out for humans.
func TestMemberRecordBotFields(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		human := map[string]any{"bot_type": nil, "bot_owner_id": nil}
		bot := map[string]any{"bot_type": float64(users.BotGeneric), "bot_owner_id": float64(f.ids["owner"])}
		for _, c := range []struct {
			name string
			want map[string]any
		}{{"member", human}, {"bot", bot}} {
			one, err := f.svc.GetUser(ctx, f.actor("admin"), chat.GetUserParams{UserID: f.ids[c.name]})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, jsonFields(t, one.User, "bot_type", "bot_owner_id")); diff != "" {
				t.Errorf("GET /users/{id} of %s (-want +got):\n%s", c.name, diff)
			}
			byEmail, err := f.svc.GetUserByEmail(ctx, f.actor("admin"), chat.GetUserByEmailParams{Email: one.User.Email})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, jsonFields(t, byEmail.User, "bot_type", "bot_owner_id")); diff != "" {
				t.Errorf("GET /users/{email} of %s (-want +got):\n%s", c.name, diff)
			}
			all, err := f.svc.GetUsers(ctx, f.actor("admin"), chat.GetUsersParams{UserIDs: []users.ID{f.ids[c.name]}})
			if err != nil || len(all.Members) != 1 {
				t.Fatalf("GetUsers: %v, %v", all, err)
			}
			if diff := cmp.Diff(c.want, jsonFields(t, all.Members[0], "bot_type", "bot_owner_id")); diff != "" {
				t.Errorf("GET /users of %s (-want +got):\n%s", c.name, diff)
			}
		}
		me, err := f.svc.GetOwnUser(ctx, f.actor("member"), chat.UserQueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]any{"bot_type": "absent", "bot_owner_id": "absent"}, jsonFields(t, me, "bot_type", "bot_owner_id")); diff != "" {
			t.Errorf("GET /users/me of a human (-want +got):\n%s", diff)
		}
	})
}
