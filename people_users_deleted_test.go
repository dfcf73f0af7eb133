package chat_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

// TestDeletedUserIsDeleted pins feature level 490: a user deactivated with delete_profile is
// is_deleted in GET /users, GET /users/{id} and register's realm_non_active_users, the key
// absent for everyone else; a realm_user update event says so; reactivation clears it. The
// marker is stored, so a fresh process sees it (memory, SQLite, PostgreSQL).
func TestDeletedUserIsDeleted(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		q := f.register(t, "admin", "realm_user")
		mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["guest"]})))
		mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: f.ids["member"],
			Actions: &chat.DeactivateUserActions{DeleteProfile: true}})))
		var deleted []float64
		for _, e := range eventsNoID(t, f.poll(t, "admin", q, -1, true)) {
			if p := e["person"].(map[string]any); p["is_deleted"] == true {
				deleted = append(deleted, p["user_id"].(float64))
			}
		}
		if diff := cmp.Diff([]float64{idf(f.ids["member"])}, deleted); diff != "" {
			t.Errorf("is_deleted events (-want +got):\n%s", diff)
		}
		cold := f.coldService(t)
		defer cold.Close()
		all, err := cold.GetUsers(ctx, f.actor("admin"), chat.GetUsersParams{})
		mustDo(t, "GetUsers", err)
		for _, m := range all.Members {
			if want := m.UserID == f.ids["member"]; m.IsDeleted != want {
				t.Errorf("GetUsers: user %d is_deleted = %v, want %v", m.UserID, m.IsDeleted, want)
			}
		}
		one, err := cold.GetUser(ctx, f.actor("owner"), chat.GetUserParams{UserID: f.ids["member"]})
		mustDo(t, "GetUser", err)
		raw, _ := json.Marshal(one.User)
		var obj map[string]any
		_ = json.Unmarshal(raw, &obj)
		if obj["is_deleted"] != true {
			t.Errorf("GET /users/{id} of the deleted user: %s", raw)
		}
		reg, err := cold.RegisterQueue(ctx, f.actor("owner"), chat.RegisterQueueParams{EventTypes: []string{"realm_user"}})
		mustDo(t, "RegisterQueue", err)
		raw, _ = json.Marshal(reg)
		var state struct {
			NonActive []map[string]any `json:"realm_non_active_users"`
		}
		_ = json.Unmarshal(raw, &state)
		got := map[float64]any{}
		for _, u := range state.NonActive {
			got[u["user_id"].(float64)] = u["is_deleted"]
		}
		if want := map[float64]any{idf(f.ids["member"]): true, idf(f.ids["guest"]): nil}; !cmp.Equal(want, got) {
			t.Errorf("realm_non_active_users is_deleted = %v, want %v", got, want)
		}
		mustDo(t, "ReactivateUser", errOf(f.svc.ReactivateUser(ctx, f.actor("admin"), chat.ReactivateUserParams{UserID: f.ids["member"]})))
		back, err := f.coldService(t).GetUser(ctx, f.actor("owner"), chat.GetUserParams{UserID: f.ids["member"]})
		mustDo(t, "GetUser", err)
		if back.User.IsDeleted || back.User.IsActive == nil || !*back.User.IsActive {
			t.Errorf("reactivated user: %+v", back.User)
		}
	})
}
