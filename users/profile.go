package users

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// ProfileFieldID identifies a custom profile field of the organization.
type ProfileFieldID int64

// ProfileFieldType is the kind of a custom profile field.
type ProfileFieldType int

// The custom profile field types with their wire values.
const (
	ProfileShortText       ProfileFieldType = 1
	ProfileLongText        ProfileFieldType = 2
	ProfileSelect          ProfileFieldType = 3
	ProfileDate            ProfileFieldType = 4
	ProfileURL             ProfileFieldType = 5
	ProfileUser            ProfileFieldType = 6
	ProfileExternalAccount ProfileFieldType = 7
	ProfilePronouns        ProfileFieldType = 8
)

// ProfileFieldTypeInfo names one type for register's custom_profile_field_types.
type ProfileFieldTypeInfo struct {
	Key  string // e.g. SHORT_TEXT
	Type ProfileFieldType
	Name string // e.g. Text (short)
}

// ProfileFieldTypes lists the types in wire order.
func ProfileFieldTypes() []ProfileFieldTypeInfo {
	return []ProfileFieldTypeInfo{
		{"SHORT_TEXT", ProfileShortText, "Text (short)"},
		{"LONG_TEXT", ProfileLongText, "Text (long)"},
		{"SELECT", ProfileSelect, "List of options"},
		{"DATE", ProfileDate, "Date picker"},
		{"URL", ProfileURL, "Link"},
		{"USER", ProfileUser, "Users"},
		{"EXTERNAL_ACCOUNT", ProfileExternalAccount, "External account"},
		{"PRONOUNS", ProfilePronouns, "Pronouns"},
	}
}

// Valid reports whether t is one of the eight types.
func (t ProfileFieldType) Valid() bool { return t >= ProfileShortText && t <= ProfilePronouns }

// Rendered reports whether values of the type are Markdown with a rendered_value.
func (t ProfileFieldType) Rendered() bool { return t == ProfileShortText || t == ProfileLongText }

// Limits of custom profile fields.
const (
	MaxProfileFieldNameLength = 40
	MaxProfileFieldHintLength = 80
	MaxShortProfileValue      = 50
	MaxLongProfileValue       = 500
	MaxProfileFields          = 100
	MaxProfileSummaryFields   = 2
)

// ProfileField is a custom profile field of the organization.
type ProfileField struct {
	ID   ProfileFieldID
	Type ProfileFieldType
	Name string
	Hint string
	// FieldData is the JSON text of the type's options: for SELECT the choices
	// ({"key":{"text":..,"order":..}}), for EXTERNAL_ACCOUNT the subtype.
	FieldData               string
	Order                   int
	DisplayInProfileSummary bool
	Required                bool
	EditableByUser          bool
}

// ProfileValue is one user's value of one field.
type ProfileValue struct {
	UserID  ID
	FieldID ProfileFieldID
	Value   string
	// RenderedValue is the HTML of Markdown-capable types ("" for the others).
	RenderedValue string
}

// selectChoice is one option of a SELECT field.
type selectChoice struct {
	Text  string `json:"text"`
	Order string `json:"order"`
}

// externalAccount is the field data of an EXTERNAL_ACCOUNT field.
type externalAccount struct {
	Subtype    string `json:"subtype"`
	URLPattern string `json:"url_pattern,omitempty"`
}

// ExternalAccount is one of Zulip's default external account kinds (its
// DEFAULT_EXTERNAL_ACCOUNTS): the text admins pick it by, the name and hint a field of that
// kind gets, and the URL pattern of its links.
type ExternalAccount struct {
	Text, Name, Hint, URLPattern string
}

// DefaultExternalAccounts are the default external account kinds, by subtype (besides
// "custom", whose field data carries its own URL pattern).
func DefaultExternalAccounts() map[string]ExternalAccount {
	return map[string]ExternalAccount{
		"github":  {Text: "GitHub", Name: "GitHub username", URLPattern: "https://github.com/%(username)s"},
		"twitter": {Text: "Twitter", Name: "Twitter username", URLPattern: "https://twitter.com/%(username)s"},
	}
}

// CheckProfileField validates a new field definition and returns it normalised (trimmed
// name and hint, canonical field data). A field of a default external account kind takes
// that kind's name and hint whatever it was given, as Zulip's
// try_add_realm_default_custom_profile_field does.
func CheckProfileField(f ProfileField) (ProfileField, error) {
	f.Name = strings.TrimSpace(f.Name)
	f.Hint = strings.TrimSpace(f.Hint)
	if !f.Type.Valid() {
		return f, errors.New("Invalid field type.")
	}
	if f.Type == ProfileExternalAccount && f.Name == "" {
		f.Name = "External account"
	}
	switch {
	case f.Name == "":
		return f, errors.New("Label cannot be blank.")
	case utf8.RuneCountInString(f.Name) > MaxProfileFieldNameLength:
		return f, fmt.Errorf("name is too long (limit: %d characters)", MaxProfileFieldNameLength)
	case utf8.RuneCountInString(f.Hint) > MaxProfileFieldHintLength:
		return f, fmt.Errorf("hint is too long (limit: %d characters)", MaxProfileFieldHintLength)
	}
	switch f.Type {
	case ProfileSelect:
		var choices map[string]selectChoice
		dec := json.NewDecoder(strings.NewReader(f.FieldData))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&choices); err != nil {
			return f, errors.New("Invalid field_data: each choice needs text and order")
		}
		if len(choices) == 0 {
			return f, errors.New("Field must have at least one choice.")
		}
		texts := map[string]bool{}
		for key, c := range choices {
			if strings.TrimSpace(key) == "" || strings.TrimSpace(c.Text) == "" {
				return f, errors.New("Invalid field_data: choices need a key and a text")
			}
			if texts[c.Text] {
				return f, errors.New("Field must not have duplicate choices.")
			}
			texts[c.Text] = true
		}
		b, _ := json.Marshal(choices)
		f.FieldData = string(b)
	case ProfileExternalAccount:
		var ea externalAccount
		dec := json.NewDecoder(strings.NewReader(f.FieldData))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ea); err != nil {
			return f, errors.New("Invalid field_data: subtype required")
		}
		switch {
		case ea.Subtype == "custom":
			if !strings.Contains(ea.URLPattern, "%(username)s") {
				return f, errors.New("Custom external account must define URL pattern")
			}
			if _, err := url.ParseRequestURI(strings.ReplaceAll(ea.URLPattern, "%(username)s", "x")); err != nil {
				return f, errors.New("Invalid URL pattern")
			}
		default:
			acct, ok := DefaultExternalAccounts()[ea.Subtype]
			if !ok {
				return f, errors.New("Invalid external account type")
			}
			ea.URLPattern, f.Name, f.Hint = "", acct.Name, acct.Hint
		}
		b, _ := json.Marshal(ea)
		f.FieldData = string(b)
	default:
		f.FieldData = ""
	}
	return f, nil
}

// CheckProfileValue validates a value for field f and returns its stored form: the text
// itself, or for USER fields the JSON list of ids. raw is the JSON of the value (a string, or
// for USER fields a list of user ids); userExists tells which user ids are valid.
func (f ProfileField) CheckProfileValue(raw json.RawMessage, userExists func(ID) bool) (string, error) {
	if f.Type == ProfileUser {
		var ids []ID
		if err := json.Unmarshal(raw, &ids); err != nil {
			return "", fmt.Errorf("%s is not a list", f.Name)
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		for _, id := range ids {
			if !userExists(id) {
				return "", fmt.Errorf("Invalid user ID: %d", id)
			}
		}
		b, _ := json.Marshal(ids)
		return string(b), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("%s is not a string", f.Name)
	}
	switch f.Type {
	case ProfileShortText, ProfileExternalAccount, ProfilePronouns:
		if utf8.RuneCountInString(s) > MaxShortProfileValue {
			return "", fmt.Errorf("%s is too long (limit: %d characters)", f.Name, MaxShortProfileValue)
		}
	case ProfileLongText:
		if utf8.RuneCountInString(s) > MaxLongProfileValue {
			return "", fmt.Errorf("%s is too long (limit: %d characters)", f.Name, MaxLongProfileValue)
		}
	case ProfileSelect:
		var choices map[string]selectChoice
		_ = json.Unmarshal([]byte(f.FieldData), &choices)
		if _, ok := choices[s]; !ok {
			return "", fmt.Errorf("'%s' is not a valid choice for '%s'.", s, f.Name)
		}
	case ProfileDate:
		if _, err := time.Parse("2006-01-02", s); err != nil {
			return "", fmt.Errorf("%s is not a date", f.Name)
		}
	case ProfileURL:
		u, err := url.ParseRequestURI(s)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || len(s) > 2048 {
			return "", fmt.Errorf("%s is not a URL", f.Name)
		}
	}
	return s, nil
}

// IsEmptyProfileValue reports whether raw clears a value: null, "" or [].
func IsEmptyProfileValue(raw json.RawMessage) bool {
	t := strings.TrimSpace(string(raw))
	return t == "" || t == "null" || t == `""` || t == "[]"
}

// ProfileFieldOrder sorts fields by Order, then ID.
func ProfileFieldOrder(a, b ProfileField) int {
	if a.Order != b.Order {
		return a.Order - b.Order
	}
	return int(a.ID - b.ID)
}

// IsDefaultExternalAccount reports whether f is an external account field of a known subtype
// (github, twitter): Zulip defines its name and hint, which administrators cannot change.
func (f ProfileField) IsDefaultExternalAccount() bool {
	if f.Type != ProfileExternalAccount {
		return false
	}
	var ea externalAccount
	_ = json.Unmarshal([]byte(f.FieldData), &ea)
	return ea.Subtype != "custom"
}
