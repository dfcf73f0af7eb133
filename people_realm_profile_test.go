package chat_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// profileFields creates one field of each type as the owner and returns their ids by name.
func (f *fixture) profileFields(t *testing.T) map[string]users.ProfileFieldID {
	t.Helper()
	ctx := t.Context()
	out := map[string]users.ProfileFieldID{}
	no := false
	for _, p := range []chat.CreateCustomProfileFieldParams{
		{Name: "Phone", FieldType: users.ProfileShortText},
		{Name: "Bio", FieldType: users.ProfileLongText, Hint: "About you"},
		{Name: "Team", FieldType: users.ProfileSelect, FieldData: `{"0":{"text":"Backend","order":"1"},"1":{"text":"Frontend","order":"2"}}`},
		{Name: "Birthday", FieldType: users.ProfileDate},
		{Name: "Website", FieldType: users.ProfileURL},
		{Name: "Mentor", FieldType: users.ProfileUser},
		{Name: "GitHub", FieldType: users.ProfileExternalAccount, FieldData: `{"subtype":"github"}`},
		{Name: "Pronouns", FieldType: users.ProfilePronouns},
		{Name: "Badge", FieldType: users.ProfileShortText, EditableByUser: &no},
	} {
		res, err := f.svc.CreateCustomProfileField(ctx, f.actor("owner"), p)
		if err != nil {
			t.Fatalf("CreateCustomProfileField(%s): %v", p.Name, err)
		}
		out[p.Name] = res.ID
	}
	return out
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestCustomProfileFields(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	q := f.register(t, "guest", "custom_profile_fields")
	ids := f.profileFields(t)
	list, err := f.svc.GetCustomProfileFields(ctx, f.actor("guest"))
	if err != nil || len(list.CustomFields) != 9 || list.CustomFields[2].Name != "Team" || list.CustomFields[2].Order != 2 {
		t.Fatalf("fields = %+v, %v", list.CustomFields, err)
	}
	evs := eventsNoID(t, f.poll(t, "guest", q, -1, true))
	if len(evs) != 9 || len(evs[8]["fields"].([]any)) != 9 {
		t.Errorf("custom_profile_fields events = %v", evs)
	}
	for _, tt := range []struct {
		name string
		as   string
		p    chat.CreateCustomProfileFieldParams
		code chat.Code
		msg  string
	}{
		{"member", "member", chat.CreateCustomProfileFieldParams{Name: "X"}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"blank", "admin", chat.CreateCustomProfileFieldParams{Name: " "}, chat.CodeBadRequest, "Label cannot be blank."},
		{"taken", "admin", chat.CreateCustomProfileFieldParams{Name: "Phone"}, chat.CodeBadRequest, "A field with that label already exists."},
		{"select without choices", "admin", chat.CreateCustomProfileFieldParams{Name: "S", FieldType: users.ProfileSelect, FieldData: "{}"}, chat.CodeBadRequest, "Field must have at least one choice."},
		{"bad external account", "admin", chat.CreateCustomProfileFieldParams{Name: "E", FieldType: users.ProfileExternalAccount, FieldData: `{"subtype":"myspace"}`}, chat.CodeBadRequest, "Invalid external account type"},
		{"long name", "admin", chat.CreateCustomProfileFieldParams{Name: "0123456789012345678901234567890123456789x"}, chat.CodeBadRequest, "name is too long (limit: 40 characters)"},
	} {
		before := f.snapshot(t)
		_, err := f.svc.CreateCustomProfileField(ctx, f.actor(tt.as), tt.p)
		wantError(t, err, tt.code, http.StatusBadRequest, tt.msg)
		after, _ := f.svc.GetCustomProfileFields(ctx, f.actor("guest"))
		if f.snapshot(t) != before || len(after.CustomFields) != 9 {
			t.Errorf("%s: refused creation changed the store", tt.name)
		}
	}
	_ = ids
}

func TestUpdateProfileData(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	ids := f.profileFields(t)
	q := f.register(t, "admin", "realm_user")
	mentor := itoa(int64(f.ids["admin"]))
	_, err := f.svc.UpdateProfileData(ctx, f.actor("member"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{
		{ID: int64(ids["Phone"]), Value: raw(`"+1 555"`)},
		{ID: int64(ids["Bio"]), Value: raw(`"I like **Go**"`)},
		{ID: int64(ids["Team"]), Value: raw(`"1"`)},
		{ID: int64(ids["Birthday"]), Value: raw(`"1990-02-28"`)},
		{ID: int64(ids["Website"]), Value: raw(`"https://example.com/mia"`)},
		{ID: int64(ids["Mentor"]), Value: raw(`[` + mentor + `]`)},
		{ID: int64(ids["GitHub"]), Value: raw(`"mia"`)},
		{ID: int64(ids["Pronouns"]), Value: raw(`"she/her"`)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.svc.GetUser(ctx, f.actor("guest"), chat.GetUserParams{UserID: f.ids["member"], UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
	if err != nil {
		t.Fatal(err)
	}
	pd := *got.User.ProfileData
	bio := pd[itoa(int64(ids["Bio"]))]
	if len(pd) != 8 || pd[itoa(int64(ids["Mentor"]))].Value != "["+mentor+"]" || bio.RenderedValue == nil || *bio.RenderedValue != "<p>I like <strong>Go</strong></p>" ||
		pd[itoa(int64(ids["Team"]))].RenderedValue != nil {
		t.Errorf("profile_data = %+v (bio rendered %v)", pd, bio.RenderedValue)
	}
	evs := eventsNoID(t, f.poll(t, "admin", q, -1, true))
	if len(evs) != 8 {
		t.Fatalf("got %d events, want 8: %v", len(evs), evs)
	}
	wantFirst := map[string]any{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": idf(f.ids["member"]),
		"custom_profile_field": map[string]any{"id": float64(ids["Phone"]), "value": "+1 555", "rendered_value": "<p>+1 555</p>"}}}
	if diff := cmp.Diff(wantFirst, evs[0]); diff != "" {
		t.Errorf("first event (-want +got):\n%s", diff)
	}
	// Clearing sends value null; unchanged values send nothing.
	if _, err := f.svc.UpdateProfileData(ctx, f.actor("member"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{
		{ID: int64(ids["Phone"]), Value: raw(`null`)}, {ID: int64(ids["Pronouns"]), Value: raw(`"she/her"`)},
	}}); err != nil {
		t.Fatal(err)
	}
	evs = eventsNoID(t, f.poll(t, "admin", q, 7, true))
	want := []map[string]any{{"type": "realm_user", "op": "update", "person": map[string]any{"user_id": idf(f.ids["member"]),
		"custom_profile_field": map[string]any{"id": float64(ids["Phone"]), "value": nil}}}}
	if diff := cmp.Diff(want, evs); diff != "" {
		t.Errorf("clearing events (-want +got):\n%s", diff)
	}
	// Administrators set fields users may not edit, through PATCH /users/{id}.
	if _, err := f.svc.UpdateUser(ctx, f.actor("admin"), chat.UpdateUserParams{UserID: f.ids["member"],
		ProfileData: []chat.ProfileDataUpdate{{ID: int64(ids["Badge"]), Value: raw(`"gold"`)}}}); err != nil {
		t.Errorf("admin sets a restricted field: %v", err)
	}
	if _, err := f.svc.RemoveProfileData(ctx, f.actor("member"), chat.RemoveProfileDataParams{Data: []int64{int64(ids["Bio"])}}); err != nil {
		t.Fatal(err)
	}
	got, _ = f.svc.GetUser(ctx, f.actor("guest"), chat.GetUserParams{UserID: f.ids["member"], UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
	if _, ok := (*got.User.ProfileData)[itoa(int64(ids["Bio"]))]; ok || (*got.User.ProfileData)[itoa(int64(ids["Badge"]))].Value != "gold" {
		t.Errorf("profile_data after removal = %+v", *got.User.ProfileData)
	}
}

func TestUpdateProfileDataRefusals(t *testing.T) {
	t.Parallel()
	f := newUsersFixture(t)
	ctx := t.Context()
	ids := f.profileFields(t)
	d := func(name, value string) []chat.ProfileDataUpdate {
		return []chat.ProfileDataUpdate{{ID: int64(ids[name]), Value: raw(value)}}
	}
	long := `"` + string(make([]byte, 0)) + `0123456789012345678901234567890123456789012345678901"`
	tests := []struct {
		name string
		as   string
		data []chat.ProfileDataUpdate
		msg  string
	}{
		{"unknown field", "member", []chat.ProfileDataUpdate{{ID: 999, Value: raw(`"x"`)}}, "Field id 999 not found."},
		{"restricted field", "member", d("Badge", `"gold"`), "You are not allowed to change this field. Contact an administrator to update it."},
		{"not a choice", "member", d("Team", `"7"`), "'7' is not a valid choice for 'Team'."},
		{"not a date", "member", d("Birthday", `"28/02/1990"`), "Birthday is not a date"},
		{"not a URL", "member", d("Website", `"javascript:alert(1)"`), "Website is not a URL"},
		{"unknown user", "member", d("Mentor", `[999]`), "Invalid user ID: 999"},
		{"user field not a list", "member", d("Mentor", `"x"`), "Mentor is not a list"},
		{"text not a string", "member", d("Phone", `[1]`), "Phone is not a string"},
		{"short text too long", "member", d("Phone", long), "Phone is too long (limit: 50 characters)"},
		{"bot", "bot", d("Phone", `"1"`), "This endpoint does not accept bot requests."},
		{"valid then invalid", "member", append(d("Phone", `"123"`), d("Birthday", `"x"`)...), "Birthday is not a date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.snapshot(t)
			pd, _ := f.svc.GetUsers(ctx, f.actor("admin"), chat.GetUsersParams{UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
			_, err := f.svc.UpdateProfileData(ctx, f.actor(tt.as), chat.UpdateProfileDataParams{Data: tt.data})
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, tt.msg)
			pd2, _ := f.svc.GetUsers(ctx, f.actor("admin"), chat.GetUsersParams{UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
			if f.snapshot(t) != before || !cmp.Equal(pd, pd2) {
				t.Error("refused update changed the store")
			}
		})
	}
}
