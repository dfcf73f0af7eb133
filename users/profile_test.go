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
