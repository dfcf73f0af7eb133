package drafts

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNormalize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    Draft
		want  Draft
		field string // refusal's field; "" for success
	}{
		{"stream keeps topic", Draft{Type: TypeStream, To: []int64{4}, Topic: "hi", Content: "x  \n"},
			Draft{Type: TypeStream, To: []int64{4}, Topic: "hi", Content: "x"}, ""},
		{"private drops topic and self from a group", Draft{Type: TypePrivate, To: []int64{3, 7, 3, 1}, Topic: "t", Content: "x"},
			Draft{Type: TypePrivate, To: []int64{3, 7}, Content: "x"}, ""},
		{"private to self keeps self", Draft{Type: TypePrivate, To: []int64{1}, Content: "x"},
			Draft{Type: TypePrivate, To: []int64{1}, Content: "x"}, ""},
		{"private without recipients becomes unaddressed", Draft{Type: TypePrivate, To: nil, Content: "x"},
			Draft{Type: TypeNone, To: []int64{}, Content: "x"}, ""},
		{"unaddressed drops topic", Draft{Type: TypeNone, Topic: "t", Content: "\n\nx"},
			Draft{Type: TypeNone, To: []int64{}, Content: "x"}, ""},
		{"bad type", Draft{Type: "huddle", Content: "x"}, Draft{}, "type"},
		{"blank", Draft{Content: " \n"}, Draft{}, "content"},
		{"null in content", Draft{Content: "a\x00"}, Draft{}, "content"},
		{"null in topic", Draft{Type: TypeStream, To: []int64{1}, Topic: "\x00", Content: "a"}, Draft{}, "topic"},
		{"negative time", Draft{Content: "a", Timestamp: -1}, Draft{}, "timestamp"},
		{"stream with 2", Draft{Type: TypeStream, To: []int64{1, 2}, Content: "a"}, Draft{}, "to"},
		{"too many recipients", Draft{Type: TypePrivate, To: make([]int64, MaxRecipients+1), Content: "a"}, Draft{}, "to"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.in, 1)
			var fe *FieldError
			if tt.field != "" {
				if !errors.As(err, &fe) || fe.Field != tt.field {
					t.Fatalf("error = %v, want a refusal of %s", err, tt.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestTruncation(t *testing.T) {
	t.Parallel()
	if got := TruncateTopic(strings.Repeat("ü", 61)); got != strings.Repeat("ü", 57)+"..." {
		t.Errorf("TruncateTopic = %q", got)
	}
	if got := TruncateTopic(strings.Repeat("ü", 60)); got != strings.Repeat("ü", 60) {
		t.Errorf("a 60-character topic changed: %q", got)
	}
}

func TestSnippetAndViewRules(t *testing.T) {
	t.Parallel()
	if got, err := CheckSnippetTitle("  Hi  "); err != nil || got != "Hi" {
		t.Errorf("CheckSnippetTitle = %q, %v", got, err)
	}
	for in, msg := range map[string]string{
		" ":                     "title cannot be blank",
		strings.Repeat("a", 61): "title is too long (limit: 60 characters)",
	} {
		if _, err := CheckSnippetTitle(in); err == nil || err.Error() != msg {
			t.Errorf("CheckSnippetTitle(%q) = %v, want %q", in, err, msg)
		}
	}
	if _, err := CheckSnippetContent(strings.Repeat("a", 10001)); err == nil || err.Error() != "content is too long (limit: 10000 characters)" {
		t.Errorf("CheckSnippetContent(long) = %v", err)
	}
	name := "Mine"
	for _, tt := range []struct {
		v    NavigationView
		want error
	}{
		{NavigationView{Fragment: "inbox"}, nil},
		{NavigationView{Fragment: "inbox", Name: &name}, ErrBuiltInViewName},
		{NavigationView{Fragment: "narrow/is/alerted"}, ErrCustomViewName},
		{NavigationView{Fragment: "narrow/is/alerted", Name: &name}, nil},
	} {
		if err := CheckNewView(tt.v); !errors.Is(err, tt.want) {
			t.Errorf("CheckNewView(%+v) = %v, want %v", tt.v, err, tt.want)
		}
	}
}
