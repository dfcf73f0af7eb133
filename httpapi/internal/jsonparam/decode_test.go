package jsonparam

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type draft struct {
	Type    string  `json:"type"`
	To      []int64 `json:"to"`
	Topic   string  `json:"topic"`
	Content string  `json:"content"`
	Time    float64 `json:"timestamp"`
}

type embedded struct {
	Inner
	Own bool `json:"own"`
}

type Inner struct {
	Deep int `json:"deep"`
}

func ptr[T any](v T) *T { return &v }

// decodeAs decodes into a new T the value of the parameter name.
func decodeAs[T any](name string, strict bool) func(raw string) (any, error) {
	return func(raw string) (any, error) {
		v := new(T)
		if err := Decode(name, raw, v, Options{Strict: strict}); err != nil {
			return nil, err
		}
		return v, nil
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	nested := func(depth int) string { return strings.Repeat("[", depth) + strings.Repeat("]", depth) }
	tests := []struct {
		name   string
		raw    string
		decode func(raw string) (any, error)
		want   any
		msg    string
	}{
		{
			name:   "list of integers",
			raw:    "[1, 2, 3]",
			decode: decodeAs[[]int64]("v", false),
			want:   &[]int64{1, 2, 3},
		},
		{
			name:   "list given a string",
			raw:    `"message"`,
			decode: decodeAs[[]string]("v", false),
			msg:    "v is not a list",
		},
		{
			name:   "list given an object",
			raw:    `{"a": 1}`,
			decode: decodeAs[[]string]("v", false),
			msg:    "v is not a list",
		},
		{
			name:   "wrong element",
			raw:    `[1, 2, "3"]`,
			decode: decodeAs[[]int64]("v", false),
			msg:    "v[2] is not an integer",
		},
		{
			name:   "float element in a list of integers",
			raw:    `[4.0]`,
			decode: decodeAs[[]int64]("v", false),
			msg:    "v[0] is not an integer",
		},
		{
			name:   "null list",
			raw:    "null",
			decode: decodeAs[[]string]("v", false),
			want:   new([]string),
		},
		{
			name:   "dict",
			raw:    `{"a": 1, "b": [true]}`,
			decode: decodeAs[map[string]any]("v", true),
			want:   &map[string]any{"a": 1.0, "b": []any{true}},
		},
		{
			name:   "dict given a list",
			raw:    `[1]`,
			decode: decodeAs[map[string]int]("v", false),
			msg:    "v is not a dict",
		},
		{
			name:   "dict value",
			raw:    `{"a": 1, "b c": "two"}`,
			decode: decodeAs[map[string]int]("v", false),
			msg:    `v["b c"] is not an integer`,
		},
		{
			name:   "dict with integer keys",
			raw:    `{"1": "a", "x": "b"}`,
			decode: decodeAs[map[int]string]("v", false),
			msg:    `v["x"] is not an integer`,
		},
		{
			name:   "struct given a list",
			raw:    `[{"content": "hi"}]`,
			decode: decodeAs[draft]("draft", true),
			msg:    "draft is not a dict",
		},
		{
			name:   "strict struct",
			raw:    `{"type": "stream", "to": [1], "topic": "t", "content": "c", "timestamp": 1.5}`,
			decode: decodeAs[draft]("draft", true),
			want:   &draft{Type: "stream", To: []int64{1}, Topic: "t", Content: "c", Time: 1.5},
		},
		{
			name:   "strict struct matches keys regardless of case, as encoding/json",
			raw:    `{"Content": "c"}`,
			decode: decodeAs[draft]("draft", true),
			want:   &draft{Content: "c"},
		},
		{
			name:   "strict struct with an unknown key",
			raw:    `{"type": "stream", "color": "red"}`,
			decode: decodeAs[draft]("draft", true),
			msg:    `Argument "color" at draft is unexpected`,
		},
		{
			name:   "lenient struct with an unknown key",
			raw:    `{"type": "stream", "color": {"deep": [1]}}`,
			decode: decodeAs[draft]("draft", false),
			want:   &draft{Type: "stream"},
		},
		{
			name:   "unknown key in a nested struct",
			raw:    `[{"content": "ok"}, {"content": "ok", "extra": 1}]`,
			decode: decodeAs[[]draft]("drafts", true),
			msg:    `Argument "extra" at drafts[1] is unexpected`,
		},
		{
			name:   "wrong type in a nested struct",
			raw:    `[{"content": 5}]`,
			decode: decodeAs[[]draft]("drafts", true),
			msg:    `drafts[0]["content"] is not a string`,
		},
		{
			name:   "wrong type deeper in a nested struct",
			raw:    `[{"content": "a"}, {"to": [1, 2.5]}]`,
			decode: decodeAs[[]draft]("drafts", false),
			msg:    `drafts[1]["to"][1] is not an integer`,
		},
		{
			name:   "float",
			raw:    `{"timestamp": "noon"}`,
			decode: decodeAs[draft]("draft", false),
			msg:    `draft["timestamp"] is not a float`,
		},
		{
			name:   "first error in document order",
			raw:    `{"topic": 1, "content": 2}`,
			decode: decodeAs[draft]("draft", false),
			msg:    `draft["topic"] is not a string`,
		},
		{
			name:   "embedded struct fields",
			raw:    `{"own": true, "deep": 3}`,
			decode: decodeAs[embedded]("e", true),
			want:   &embedded{Inner: Inner{Deep: 3}, Own: true},
		},
		{
			name:   "embedded struct field of the wrong type",
			raw:    `{"own": true, "deep": "3"}`,
			decode: decodeAs[embedded]("e", true),
			msg:    `e["deep"] is not an integer`,
		},
		{
			name:   "boolean",
			raw:    `1`,
			decode: decodeAs[bool]("b", false),
			msg:    "b is not a boolean",
		},
		{
			name:   "integer or string as RawMessage",
			raw:    `30`,
			decode: decodeAs[json.RawMessage]("message_retention_days", false),
			want:   &json.RawMessage{'3', '0'},
		},
		{
			name:   "string as RawMessage",
			raw:    `"unlimited"`,
			decode: decodeAs[json.RawMessage]("message_retention_days", false),
			want:   ptr(json.RawMessage(`"unlimited"`)),
		},
		{
			name:   "not JSON",
			raw:    `[message`,
			decode: decodeAs[[]string]("event_types", false),
			msg:    "event_types is not valid JSON",
		},
		{
			name:   "trailing data",
			raw:    `[] []`,
			decode: decodeAs[[]string]("v", false),
			msg:    "v is not valid JSON",
		},
		{
			name: "32 levels",
			raw:  nested(32),
			decode: func(raw string) (any, error) {
				v, err := decodeAs[any]("v", false)(raw)
				if err != nil {
					return nil, err
				}
				out, err := json.Marshal(v) // cmp.Diff is slow on deep values
				return string(out), err
			},
			want: nested(32),
		},
		{
			name:   "33 levels",
			raw:    nested(33),
			decode: decodeAs[any]("v", false),
			msg:    "v is too deeply nested",
		},
		{
			name:   "objects count as levels",
			raw:    strings.Repeat(`{"a":`, 33) + "1" + strings.Repeat("}", 33),
			decode: decodeAs[json.RawMessage]("v", false),
			msg:    "v is too deeply nested",
		},
		{
			name:   "very deep",
			raw:    nested(20000),
			decode: decodeAs[any]("v", false),
			msg:    "v is too deeply nested", // beyond what encoding/json's scanner allows
		},
		{
			name:   "brackets in strings do not count",
			raw:    `["` + strings.Repeat("[{", 100) + `\"]"]`,
			decode: decodeAs[[]string]("v", false),
			want:   &[]string{strings.Repeat("[{", 100) + `"]`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.decode(tt.raw)
			if tt.msg != "" {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("error %v (%T) is not an *Error", err, err)
				}
				if e.Error() != tt.msg {
					t.Errorf("error = %q, want %q", e.Error(), tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decoded (-want +got):\n%s", diff)
			}
		})
	}
}

// errBad is the error of checked's own decoding.
var errBad = errors.New("bad value")

// checked refuses the value "bad" with an error of its own.
type checked string

func (c *checked) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "bad" {
		return errBad
	}
	*c = checked(s)
	return nil
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		raw     string
		dst     any
		opts    Options
		want    Error
		wrapped error // found by errors.Is
	}{
		{"too deep", strings.Repeat("[", 40), new(any), Options{}, Error{Kind: TooDeep, Path: "v"}, nil},
		{"not JSON", "[1,", new([]int), Options{}, Error{Kind: NotJSON, Path: "v"}, nil},
		{"escaped null byte refused", `["a\u0000"]`, new([]string), Options{RefuseNullBytes: true}, Error{Kind: NullByte, Path: "v"}, nil},
		{"null byte checked after the syntax", `["a\u0000"`, new([]string), Options{RefuseNullBytes: true}, Error{Kind: NotJSON, Path: "v"}, nil},
		{"null byte checked before the types", `["a\u0000", 1]`, new([]string), Options{RefuseNullBytes: true}, Error{Kind: NullByte, Path: "v"}, nil},
		{"wrong kind", `["a", 1]`, new([]string), Options{}, Error{Kind: WrongKind, Path: "v[1]", What: "a string"}, nil},
		{"unexpected key", `{"own": true, "x": 1}`, new(embedded), Options{Strict: true}, Error{Kind: UnexpectedKey, Path: "v", Key: "x"}, nil},
		{"error of an UnmarshalJSON method", `"bad"`, new(checked), Options{}, Error{Kind: Invalid, Path: "v"}, errBad},
		{"a kind without a name", `1`, new(chan int), Options{}, Error{Kind: Invalid, Path: "v"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := Decode("v", tt.raw, tt.dst, tt.opts)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not an *Error", err, err)
			}
			got := *e
			got.Err = nil
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if tt.wrapped != nil && !errors.Is(err, tt.wrapped) {
				t.Errorf("error %v does not wrap %v", err, tt.wrapped)
			}
		})
	}
	t.Run("messages", func(t *testing.T) {
		t.Parallel()
		for e, want := range map[Error]string{
			{Kind: TooDeep, Path: "v"}:                        "v is too deeply nested",
			{Kind: NotJSON, Path: "v"}:                        "v is not valid JSON",
			{Kind: NullByte, Path: "v"}:                       "Invalid v: must not contain null bytes",
			{Kind: WrongKind, Path: `v["a"]`, What: "a dict"}: `v["a"] is not a dict`,
			{Kind: UnexpectedKey, Path: "v[0]", Key: "k"}:     `Argument "k" at v[0] is unexpected`,
			{Kind: Invalid, Path: "v"}:                        "Invalid v",
		} {
			if got := e.Error(); got != want {
				t.Errorf("%+v: Error() = %q, want %q", e, got, want)
			}
		}
	})
}

func TestErrorFallback(t *testing.T) {
	t.Parallel()
	for field, want := range map[string]string{"": "", "a": `["a"]`, "a.b": `["a"]["b"]`} {
		if got := fieldPath(field); got != want {
			t.Errorf("fieldPath(%q) = %q, want %q", field, got, want)
		}
	}
	if key, ok := unknownFieldKey(errors.New(`json: unknown field "a \"b\""`)); !ok || key != `a "b"` {
		t.Errorf("unknownFieldKey = %q, %v", key, ok)
	}
	if _, ok := unknownFieldKey(errors.New("json: something else")); ok {
		t.Errorf("unknownFieldKey accepted another error")
	}
}

func TestTooDeep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		want bool
	}{
		{"1", false},
		{"[]", false},
		{`[[["\\"]]]`, false},
		{`["\"[[[[["]`, false},
		{`{"a":{"b":[1]}}`, false},
		{`{"a":{"b":[[1]]}}`, true},
	}
	for _, tt := range tests {
		if got := tooDeep(tt.s, 3); got != tt.want {
			t.Errorf("tooDeep(%s, 3) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestHasEscapedNUL(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]bool{
		`"a\u0000b"`:     true,
		`["\u0000"]`:     true,
		`{"k":"\u0000"}`: true,
		`"\\u0000"`:      false, // the text \u0000
		`"\\\u0000"`:     true,  // a backslash, then NUL
		`"\u00001"`:      true,
		`"\u0001"`:       false,
		`"u0000"`:        false,
		`"\"\u0000"`:     true,
		`"\`:             false,
	} {
		if got := HasEscapedNUL(raw); got != want {
			t.Errorf("HasEscapedNUL(%s) = %v, want %v", raw, got, want)
		}
	}
}
