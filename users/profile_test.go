package users_test

import (
	"encoding/json"
	"testing"

	"github.com/teamchat/chat/users"
)

func TestCheckProfileValue(t *testing.T) {
	t.Parallel()
	exists := func(id users.ID) bool { return id == 1 || id == 2 }
	sel, err := users.CheckProfileField(users.ProfileField{Type: users.ProfileSelect, Name: " Team ", FieldData: `{"a":{"text":"A","order":"1"}}`})
	if err != nil || sel.Name != "Team" {
		t.Fatalf("CheckProfileField = %+v, %v", sel, err)
	}
	tests := []struct {
		f    users.ProfileField
		raw  string
		want string
		err  bool
	}{
		{users.ProfileField{Type: users.ProfileShortText, Name: "P"}, `"hi"`, "hi", false},
		{users.ProfileField{Type: users.ProfileShortText, Name: "P"}, `5`, "", true},
		{sel, `"a"`, "a", false},
		{sel, `"b"`, "", true},
		{users.ProfileField{Type: users.ProfileDate, Name: "D"}, `"2020-02-29"`, "2020-02-29", false},
		{users.ProfileField{Type: users.ProfileDate, Name: "D"}, `"2021-02-29"`, "", true},
		{users.ProfileField{Type: users.ProfileURL, Name: "U"}, `"https://x.test/a"`, "https://x.test/a", false},
		{users.ProfileField{Type: users.ProfileURL, Name: "U"}, `"ftp://x.test"`, "", true},
		{users.ProfileField{Type: users.ProfileUser, Name: "M"}, `[2,1,2]`, "[1,2]", false},
		{users.ProfileField{Type: users.ProfileUser, Name: "M"}, `[3]`, "", true},
	}
	for _, tt := range tests {
		got, err := tt.f.CheckProfileValue(json.RawMessage(tt.raw), exists)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("CheckProfileValue(%v, %s) = %q, %v; want %q, error %v", tt.f.Type, tt.raw, got, err, tt.want, tt.err)
		}
	}
	for _, bad := range []users.ProfileField{
		{Type: 9, Name: "x"},
		{Type: users.ProfileShortText, Name: ""},
		{Type: users.ProfileExternalAccount, FieldData: `{"subtype":"custom","url_pattern":"https://x.test/"}`},
	} {
		if _, err := users.CheckProfileField(bad); err == nil {
			t.Errorf("CheckProfileField(%+v) accepted", bad)
		}
	}
	for _, empty := range []string{`null`, `""`, `[]`} {
		if !users.IsEmptyProfileValue(json.RawMessage(empty)) {
			t.Errorf("%s is not empty", empty)
		}
	}
}

// TestDefaultExternalAccountFields: a field of a default external account kind takes the
// kind's name and hint, whatever it was given (Zulip's
// try_add_realm_default_custom_profile_field); a custom one keeps its own.
func TestDefaultExternalAccountFields(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in         users.ProfileField
		name, hint string
	}{
		{users.ProfileField{Type: users.ProfileExternalAccount, FieldData: `{"subtype":"github"}`}, "GitHub username", ""},
		{users.ProfileField{Type: users.ProfileExternalAccount, Name: "Code", Hint: "yours", FieldData: `{"subtype":"github"}`}, "GitHub username", ""},
		{users.ProfileField{Type: users.ProfileExternalAccount, Name: "Tweets", FieldData: `{"subtype":"twitter"}`}, "Twitter username", ""},
		{users.ProfileField{Type: users.ProfileExternalAccount, Name: "Wiki", Hint: "page", FieldData: `{"subtype":"custom","url_pattern":"https://w.test/%(username)s"}`}, "Wiki", "page"},
	} {
		got, err := users.CheckProfileField(tt.in)
		if err != nil || got.Name != tt.name || got.Hint != tt.hint {
			t.Errorf("CheckProfileField(%q, %s) = name %q, hint %q, %v; want %q, %q", tt.in.Name, tt.in.FieldData, got.Name, got.Hint, err, tt.name, tt.hint)
		}
	}
}
