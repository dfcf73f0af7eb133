package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

func TestUpdateRemoveReorderCustomProfileFields(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	ids := f.profileFields(t)
	mustDo(t, "UpdateProfileData", errOf(f.svc.UpdateProfileData(ctx, f.actor("member"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{
		{ID: int64(ids["Phone"]), Value: raw(`"555"`)}, {ID: int64(ids["Bio"]), Value: raw(`"Hi"`)},
	}})))
	q := f.register(t, "guest", "custom_profile_fields")
	mustDo(t, "UpdateCustomProfileField", errOf(f.svc.UpdateCustomProfileField(ctx, f.actor("admin"), chat.UpdateCustomProfileFieldParams{
		FieldID: ids["Phone"], Name: ptr(" Mobile "), Hint: ptr("Work mobile"), Required: ptr(true), DisplayInProfileSummary: ptr(true),
	})))
	mustDo(t, "RemoveCustomProfileField", errOf(f.svc.RemoveCustomProfileField(ctx, f.actor("owner"), chat.RemoveCustomProfileFieldParams{FieldID: ids["Bio"]})))
	got, err := f.svc.GetCustomProfileFields(ctx, f.actor("member"))
	mustDo(t, "GetCustomProfileFields", err)
	order := make([]users.ProfileFieldID, len(got.CustomFields))
	for i, r := range got.CustomFields {
		order[len(order)-1-i] = r.ID
	}
	mustDo(t, "ReorderCustomProfileFields", errOf(f.svc.ReorderCustomProfileFields(ctx, f.actor("admin"), chat.ReorderCustomProfileFieldsParams{Order: order})))
	got, err = f.svc.GetCustomProfileFields(ctx, f.actor("member"))
	mustDo(t, "GetCustomProfileFields", err)
	var names []string
	for i, r := range got.CustomFields {
		names = append(names, r.Name)
		if r.Order != i {
			t.Errorf("field %s has order %d at place %d", r.Name, r.Order, i)
		}
		if r.ID == ids["Phone"] && (r.Hint != "Work mobile" || !r.Required || !r.DisplayInProfileSummary) {
			t.Errorf("updated field %+v", r)
		}
	}
	want := []string{"Badge", "Pronouns", "GitHub username", "Mentor", "Website", "Birthday", "Team", "Mobile"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("fields after reordering (-want +got):\n%s", diff)
	}
	if evs := f.poll(t, "guest", q, -1, true); len(evs) != 3 {
		t.Errorf("guest got %d events, want 3 custom_profile_fields", len(evs))
	}
	me, err := f.svc.GetUser(ctx, f.actor("owner"), chat.GetUserParams{UserID: f.ids["member"], UserQueryOptions: chat.UserQueryOptions{IncludeCustomProfileFields: true}})
	mustDo(t, "GetUser", err)
	if _, ok := (*me.User.ProfileData)[fmtInt(int64(ids["Bio"]))]; ok || len(*me.User.ProfileData) != 1 {
		t.Errorf("profile data after removing Bio: %v", *me.User.ProfileData)
	}
}

func TestCustomProfileFieldRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	ids := f.profileFields(t)
	mustDo(t, "UpdateCustomProfileField", errOf(f.svc.UpdateCustomProfileField(ctx, f.actor("admin"), chat.UpdateCustomProfileFieldParams{FieldID: ids["Team"], DisplayInProfileSummary: ptr(true)})))
	mustDo(t, "UpdateCustomProfileField", errOf(f.svc.UpdateCustomProfileField(ctx, f.actor("admin"), chat.UpdateCustomProfileFieldParams{FieldID: ids["Website"], DisplayInProfileSummary: ptr(true)})))
	update := func(who string, p chat.UpdateCustomProfileFieldParams) func() error {
		return func() error { return errOf(f.svc.UpdateCustomProfileField(ctx, f.actor(who), p)) }
	}
	all := []users.ProfileFieldID{}
	for _, id := range ids {
		all = append(all, id)
	}
	checkRefusals(t, f, []refusal{
		{"not an administrator", update("member", chat.UpdateCustomProfileFieldParams{FieldID: ids["Phone"], Name: ptr("x")}), chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"unknown field", update("admin", chat.UpdateCustomProfileFieldParams{FieldID: 999, Name: ptr("x")}), "", "Field id 999 not found."},
		{"blank name", update("admin", chat.UpdateCustomProfileFieldParams{FieldID: ids["Phone"], Name: ptr("  ")}), "", "Label cannot be blank."},
		{"taken name", update("admin", chat.UpdateCustomProfileFieldParams{FieldID: ids["Phone"], Name: ptr("Bio")}), "", "A field with that label already exists."},
		{"summary full", update("admin", chat.UpdateCustomProfileFieldParams{FieldID: ids["Phone"], DisplayInProfileSummary: ptr(true)}), "", "Only 2 custom profile fields can be displayed in the profile summary."},
		{"default external account", update("admin", chat.UpdateCustomProfileFieldParams{FieldID: ids["GitHub"], Hint: ptr("Your handle")}), "", "Default custom field cannot be updated."},
		{"bad choices", update("admin", chat.UpdateCustomProfileFieldParams{FieldID: ids["Team"], FieldData: ptr(`{}`)}), "", "Field must have at least one choice."},
		{"remove unknown", func() error {
			return errOf(f.svc.RemoveCustomProfileField(ctx, f.actor("admin"), chat.RemoveCustomProfileFieldParams{FieldID: 999}))
		}, "", "Field id 999 not found."},
		{"remove as member", func() error {
			return errOf(f.svc.RemoveCustomProfileField(ctx, f.actor("member"), chat.RemoveCustomProfileFieldParams{FieldID: ids["Phone"]}))
		}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
		{"reorder missing a field", func() error {
			return errOf(f.svc.ReorderCustomProfileFields(ctx, f.actor("admin"), chat.ReorderCustomProfileFieldsParams{Order: all[1:]}))
		}, "", "Invalid order mapping."},
		{"reorder as member", func() error {
			return errOf(f.svc.ReorderCustomProfileFields(ctx, f.actor("member"), chat.ReorderCustomProfileFieldsParams{Order: all}))
		}, chat.CodeUnauthorizedPrincipal, "Must be an organization administrator"},
	})
}

func TestPatchChannelFolders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	var ids []channels.FolderID
	for _, name := range []string{"Work", "Fun", "Old"} {
		res, err := f.svc.CreateChannelFolder(ctx, f.actor("admin"), chat.CreateChannelFolderParams{Name: name})
		mustDo(t, "CreateChannelFolder", err)
		ids = append(ids, res.ChannelFolderID)
	}
	mustDo(t, "UpdateChannelFolder", errOf(f.svc.UpdateChannelFolder(ctx, f.actor("admin"), chat.UpdateChannelFolderParams{ChannelFolderID: ids[2], IsArchived: ptr(true)})))
	checkRefusals(t, f, []refusal{
		{"an archived folder left out", func() error {
			return errOf(f.svc.PatchChannelFolders(ctx, f.actor("admin"), chat.PatchChannelFoldersParams{Order: []channels.FolderID{ids[1], ids[0]}}))
		}, "", "Invalid order mapping."},
		{"not an administrator", func() error {
			return errOf(f.svc.PatchChannelFolders(ctx, f.actor("member"), chat.PatchChannelFoldersParams{Order: ids}))
		}, chat.CodeUnauthorizedPrincipal, ""},
	})
	mustDo(t, "PatchChannelFolders", errOf(f.svc.PatchChannelFolders(ctx, f.actor("admin"), chat.PatchChannelFoldersParams{Order: []channels.FolderID{ids[2], ids[1], ids[0]}})))
	got, err := f.svc.GetChannelFolders(ctx, f.actor("member"), chat.GetChannelFoldersParams{IncludeArchived: true})
	mustDo(t, "GetChannelFolders", err)
	var names []string
	for _, r := range got.ChannelFolders {
		names = append(names, r.Name)
	}
	if diff := cmp.Diff([]string{"Old", "Fun", "Work"}, names); diff != "" {
		t.Errorf("folders after reordering (-want +got):\n%s", diff)
	}
}

// profileAndFolderConsistencyCases are the consistency cases of changing custom profile
// fields and ordering channel folders.
func profileAndFolderConsistencyCases() []consistencyCase {
	withData := func(t *testing.T, f *fixture) {
		ids := f.profileFields(t)
		mustDo(t, "UpdateProfileData", errOf(f.svc.UpdateProfileData(t.Context(), f.actor("member"), chat.UpdateProfileDataParams{Data: []chat.ProfileDataUpdate{
			{ID: int64(ids["Phone"]), Value: raw(`"555"`)}, {ID: int64(ids["Bio"]), Value: raw(`"Hi"`)},
		}})))
	}
	field := func(t *testing.T, f *fixture, name string) users.ProfileFieldID {
		got, err := f.svc.GetCustomProfileFields(t.Context(), f.actor("owner"))
		mustDo(t, "GetCustomProfileFields", err)
		for _, r := range got.CustomFields {
			if r.Name == name {
				return r.ID
			}
		}
		t.Fatalf("no field %s", name)
		return 0
	}
	return []consistencyCase{
		{method: "UpdateCustomProfileField", name: "name, hint and flags", setup: withData, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateCustomProfileField", errOf(f.svc.UpdateCustomProfileField(t.Context(), f.actor("admin"), chat.UpdateCustomProfileFieldParams{
				FieldID: field(t, f, "Phone"), Name: ptr("Mobile"), Hint: ptr("h"), Required: ptr(true), EditableByUser: ptr(false)})))
		}},
		{method: "RemoveCustomProfileField", name: "field with values", setup: withData, run: func(t *testing.T, f *fixture) {
			mustDo(t, "RemoveCustomProfileField", errOf(f.svc.RemoveCustomProfileField(t.Context(), f.actor("admin"), chat.RemoveCustomProfileFieldParams{FieldID: field(t, f, "Bio")})))
		}},
		{method: "ReorderCustomProfileFields", name: "reversed", setup: withData, run: func(t *testing.T, f *fixture) {
			got, err := f.svc.GetCustomProfileFields(t.Context(), f.actor("owner"))
			mustDo(t, "GetCustomProfileFields", err)
			var order []users.ProfileFieldID
			for _, r := range got.CustomFields {
				order = append([]users.ProfileFieldID{r.ID}, order...)
			}
			mustDo(t, "ReorderCustomProfileFields", errOf(f.svc.ReorderCustomProfileFields(t.Context(), f.actor("admin"), chat.ReorderCustomProfileFieldsParams{Order: order})))
		}},
		{method: "PatchChannelFolders", name: "reversed with an archived folder", setup: func(t *testing.T, f *fixture) {
			for _, name := range []string{"Work", "Fun"} {
				mustDo(t, "CreateChannelFolder", errOf(f.svc.CreateChannelFolder(t.Context(), f.actor("admin"), chat.CreateChannelFolderParams{Name: name})))
			}
			mustDo(t, "UpdateChannelFolder", errOf(f.svc.UpdateChannelFolder(t.Context(), f.actor("admin"), chat.UpdateChannelFolderParams{ChannelFolderID: 1, IsArchived: ptr(true)})))
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "PatchChannelFolders", errOf(f.svc.PatchChannelFolders(t.Context(), f.actor("admin"), chat.PatchChannelFoldersParams{Order: []channels.FolderID{2, 1}})))
		}},
	}
}

// goldenChannelFolderReorder produces channel_folder reorder.
func goldenChannelFolderReorder(t *testing.T, f *fixture) {
	ctx := t.Context()
	for _, name := range []string{"Work", "Fun"} {
		mustDo(t, "CreateChannelFolder", errOf(f.svc.CreateChannelFolder(ctx, f.actor("admin"), chat.CreateChannelFolderParams{Name: name})))
	}
	mustDo(t, "PatchChannelFolders", errOf(f.svc.PatchChannelFolders(ctx, f.actor("admin"), chat.PatchChannelFoldersParams{Order: []channels.FolderID{2, 1}})))
}
