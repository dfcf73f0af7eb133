package chat_test

import (
	"encoding/json"
	"fmt"
	"testing"

	chat "github.com/teamchat/chat"
)

// A profile_data item without "value" is refused, as Zulip refuses it
// (`data[0]["value"] field is missing: Field required`), in PATCH /users/me/profile_data and
// PATCH /users/{id}, and changes nothing; "value": null still clears the field.
func TestProfileDataItemWithoutValue(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		ids := f.profileFields(t)
		phone, bio := int64(ids["Phone"]), int64(ids["Bio"])
		mustDo(t, "UpdateProfileData", errOf(f.svc.UpdateProfileData(ctx, f.actor("member"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{
			{ID: phone, Value: raw(`"555"`)}, {ID: bio, Value: raw(`"Hi"`)},
		}})))
		decode := func(text string) []chat.ProfileDataUpdate {
			t.Helper()
			var out []chat.ProfileDataUpdate
			if err := json.Unmarshal([]byte(text), &out); err != nil {
				t.Fatal(err)
			}
			return out
		}
		missing := decode(fmt.Sprintf(`[{"id":%d,"value":"556"},{"id":%d}]`, phone, bio))
		before := f.snapshot(t)
		q := f.register(t, "member")
		_, err := f.svc.UpdateProfileData(ctx, f.actor("member"), chat.UpdateProfileDataParams{Data: missing})
		wantError(t, err, chat.CodeBadRequest, 400, `data[1]["value"] field is missing: Field required`)
		_, err = f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["member"], ProfileData: missing})
		wantError(t, err, chat.CodeBadRequest, 400, `profile_data[1]["value"] field is missing: Field required`)
		if after := f.snapshot(t); after != before {
			t.Fatalf("a refused request changed the store:\n%s\n%s", before, after)
		}
		if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
			t.Fatalf("events = %v, want none", kinds(t, evs))
		}
		res, err := f.svc.GetUser(ctx, f.actor("admin"), chat.GetUserParams{UserID: f.ids["member"], UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
		if err != nil {
			t.Fatal(err)
		}
		if got := (*res.User.ProfileData)[fmt.Sprint(bio)].Value; got != "Hi" {
			t.Fatalf("Bio = %q, want it kept", got)
		}
		_, err = f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["member"], ProfileData: decode(fmt.Sprintf(`[{"id":%d,"value":null}]`, bio))})
		if err != nil {
			t.Fatalf(`"value": null: %v`, err)
		}
		res, err = f.svc.GetUser(ctx, f.actor("admin"), chat.GetUserParams{UserID: f.ids["member"], UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := (*res.User.ProfileData)[fmt.Sprint(bio)]; ok {
			t.Fatalf(`Bio = %v after "value": null, want it cleared`, v)
		}
	})
}
