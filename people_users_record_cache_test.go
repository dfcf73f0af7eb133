package chat_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// Register's user records come from the Service's cache and the HTTP layer encodes them with
// AppendRegisterJSON: for every viewer role and client_gravatar choice, after mutations of the
// users (through operations and directly in the store), the records equal those of a Service
// that starts cold on the same store, and the encoding equals json.Marshal's.
func TestRegisterUserRecordsCache(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		ids := f.profileFields(t)
		check := func(t *testing.T, step string) {
			t.Helper()
			cold := f.coldService(t)
			defer cold.Close()
			for _, who := range []string{"owner", "admin", "member", "guest"} {
				for _, gravatar := range []*bool{nil, ptr(false), ptr(true)} {
					p := chat.RegisterQueueParams{ClientGravatar: gravatar}
					var got [2]chat.RegisterQueueResult
					for i := range got { // the second one from the cache
						var err error
						if got[i], err = f.svc.RegisterQueue(ctx, f.actor(who), p); err != nil {
							t.Fatal(err)
						}
					}
					want, err := cold.RegisterQueue(ctx, f.actor(who), p)
					if err != nil {
						t.Fatal(err)
					}
					wantUsers := mustJSON(t, want.RealmUserState)
					for i, res := range got {
						if users := mustJSON(t, res.RealmUserState); !bytes.Equal(users, wantUsers) {
							t.Fatalf("%s: %s (client_gravatar %v), register %d: realm_user state\n%s\nwant (cold)\n%s", step, who, gravatar, i, users, wantUsers)
						}
						enc, err := f.svc.AppendRegisterJSON([]byte("x"), res)
						if err != nil {
							t.Fatal(err)
						}
						if plain := mustJSON(t, res); !bytes.Equal(enc[1:], plain) || enc[0] != 'x' {
							t.Fatalf("%s: %s: AppendRegisterJSON\n%s\nwant\n%s", step, who, enc, plain)
						}
					}
				}
			}
		}
		check(t, "start")
		mustDo(t, "UpdateProfileData", errOf(f.svc.UpdateProfileData(ctx, f.actor("member"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{
			{ID: int64(ids["Phone"]), Value: raw(`"555"`)}, {ID: int64(ids["Bio"]), Value: raw(`"Hi *there*"`)},
		}})))
		check(t, "profile data")
		name := "Renamed Member & co"
		mustDo(t, "UpdateUser", errOf(f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["member"], FullName: &name})))
		check(t, "renamed")
		gone := mustProvision(t, f, chat.ProvisionUserParams{Email: "gone@example.com", FullName: "Gone User"})
		check(t, "created")
		mustDo(t, "DeactivateUser", errOf(f.svc.DeactivateUser(ctx, f.actor("admin"), chat.DeactivateUserParams{UserID: gone.UserID})))
		check(t, "deactivated")
		f.setUser(t, "guest", func(u *users.User) { u.EmailVisibility = users.EmailVisibleEveryone; u.AvatarVersion++ })
		check(t, "written to the store")
	})
}

// A caller's changes to the records it got are encoded as changed.
func TestAppendRegisterJSONChangedRecord(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	res, err := f.svc.RegisterQueue(t.Context(), f.actor("member"), chat.RegisterQueueParams{})
	if err != nil {
		t.Fatal(err)
	}
	res.RealmUsers[0].FullName = "Changed"
	res.RealmUsers[len(res.RealmUsers)-1].ProfileData = nil
	enc, err := f.svc.AppendRegisterJSON(nil, res)
	if err != nil {
		t.Fatal(err)
	}
	if plain := mustJSON(t, res); !bytes.Equal(enc, plain) {
		t.Fatalf("AppendRegisterJSON\n%s\nwant\n%s", enc, plain)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Registrations of several roles run while an administrator renames a user: each result's
// records are those of one state of the users, and the encoding equals json.Marshal's (run
// under -race for the cache's locking).
func TestRegisterUserRecordsCacheConcurrent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	var wg sync.WaitGroup
	for _, who := range []string{"owner", "member", "guest", "member"} {
		wg.Go(func() {
			for range 5 {
				res, err := f.svc.RegisterQueue(ctx, f.actor(who), chat.RegisterQueueParams{})
				if err != nil {
					t.Error(err)
					return
				}
				enc, err := f.svc.AppendRegisterJSON(nil, res)
				if err != nil {
					t.Error(err)
					return
				}
				if plain := mustJSON(t, res); !bytes.Equal(enc, plain) {
					t.Errorf("%s: AppendRegisterJSON differs from json.Marshal", who)
				}
			}
		})
	}
	for i := range 5 {
		name := fmt.Sprintf("Renamed %d", i)
		mustDo(t, "UpdateUser", errOf(f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["member"], FullName: &name})))
	}
	wg.Wait()
}
