package jsonparam

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// MaxDepth bounds the nesting of arrays and objects in a value.
const MaxDepth = 32

// Kind is what went wrong with a value.
type Kind int

// Kinds of Error.
const (
	// TooDeep: the text nests arrays and objects more than MaxDepth levels deep.
	TooDeep Kind = iota + 1
	// NotJSON: the text is not one well-formed JSON value.
	NotJSON
	// NullByte: a string holds the escape \u0000 and Options.RefuseNullBytes is set.
	NullByte
	// WrongKind: the value at Path is not of the kind What ("a boolean", "an integer", ...).
	WrongKind
	// UnexpectedKey: in strict mode, the object at Path has a member Key that names no field.
	UnexpectedKey
	// Invalid: any other failure to decode (Err says which, possibly an error of an
	// UnmarshalJSON method of the destination type).
	Invalid
)

// Error is the reason a parameter's value was refused. Its text is Zulip's message.
type Error struct {
	Kind Kind
	// Path is the parameter's name, followed for WrongKind by the place inside its value
	// (name[0]["content"]) and for UnexpectedKey by the place of the object.
	Path string
	What string // WrongKind: "a boolean", "an integer", "a float", "a string", "a list", "a dict"
	Key  string // UnexpectedKey: the member's key
	Err  error  // the decoder's error, when there is one
}

func (e *Error) Error() string {
	switch e.Kind {
	case TooDeep:
		return e.Path + " is too deeply nested"
	case NotJSON:
		return e.Path + " is not valid JSON"
	case NullByte:
		return "Invalid " + e.Path + ": must not contain null bytes"
	case WrongKind:
		return e.Path + " is not " + e.What
	case UnexpectedKey:
		return `Argument "` + e.Key + `" at ` + e.Path + " is unexpected"
	}
	return "Invalid " + e.Path
}

// Unwrap returns the decoder's error, so that an error of the destination type's own
// UnmarshalJSON method can be found with errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Options are the rules of one decoding.
type Options struct {
	// Strict refuses object members that name no field of the destination struct
	// (encoding/json's DisallowUnknownFields).
	Strict bool
	// RefuseNullBytes refuses text with the escape \u0000 in a string (checked after the
	// syntax, before decoding).
	RefuseNullBytes bool
}

// Decode decodes the JSON text raw of the parameter name into dst, a non-nil pointer, as
// encoding/json does (JSON null leaves *dst as it is; decoding into json.RawMessage accepts
// any value). It checks the nesting first (TooDeep, without recursion), then the syntax
// (NotJSON: trailing data included), then null bytes if asked; a decoding failure is then
// explained by walking the value against the type of *dst. Every error is an *Error.
func Decode(name, raw string, dst any, opts Options) error {
	if tooDeep(raw, MaxDepth) {
		return &Error{Kind: TooDeep, Path: name}
	}
	if !json.Valid([]byte(raw)) {
		return &Error{Kind: NotJSON, Path: name}
	}
	if opts.RefuseNullBytes && HasEscapedNUL(raw) {
		return &Error{Kind: NullByte, Path: name}
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	if opts.Strict {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(dst)
	if err == nil {
		return nil
	}
	return explain(name, raw, reflect.TypeOf(dst).Elem(), opts.Strict, err)
}

// explain turns the error err of decoding raw into a value of type t into an *Error. The
// walk's finding is used when it agrees with encoding/json's (the same kind, the same key);
// otherwise the error is worded from encoding/json's own report.
func explain(name, raw string, t reflect.Type, strict bool, err error) *Error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		what := kindName(te.Type)
		if what == "" {
			return &Error{Kind: Invalid, Path: name, Err: err}
		}
		if prob := walk(raw, t, name, strict); prob != nil && prob.Kind == WrongKind && prob.What == what {
			prob.Err = err
			return prob
		}
		return &Error{Kind: WrongKind, Path: name + fieldPath(te.Field), What: what, Err: err}
	}
	if key, ok := unknownFieldKey(err); ok {
		if prob := walk(raw, t, name, strict); prob != nil && prob.Kind == UnexpectedKey && prob.Key == key {
			prob.Err = err
			return prob
		}
		return &Error{Kind: UnexpectedKey, Path: name, Key: key, Err: err}
	}
	return &Error{Kind: Invalid, Path: name, Err: err}
}

// unknownFieldKey extracts the key from encoding/json's DisallowUnknownFields error.
func unknownFieldKey(err error) (string, bool) {
	quoted, ok := strings.CutPrefix(err.Error(), "json: unknown field ")
	if !ok {
		return "", false
	}
	key, uerr := strconv.Unquote(quoted)
	return key, uerr == nil
}

// fieldPath turns the dotted Field of a json.UnmarshalTypeError into path parts: a.b is
// ["a"]["b"].
func fieldPath(field string) string {
	if field == "" {
		return ""
	}
	var b strings.Builder
	for part := range strings.SplitSeq(field, ".") {
		b.WriteString(`["`)
		b.WriteString(part)
		b.WriteString(`"]`)
	}
	return b.String()
}

// tooDeep reports whether JSON text nests arrays and objects more than limit levels deep.
// It scans without recursing and does not need the text to be well-formed.
func tooDeep(s string, limit int) bool {
	depth := 0
	inString, escaped := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			if depth++; depth > limit {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}

// HasEscapedNUL reports whether JSON text holds the escape \u0000 in a string. It follows
// escapes, so an escaped backslash followed by "u0000" (the text \u0000) is not one.
func HasEscapedNUL(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] == 'u' && i+5 < len(raw) && raw[i+2:i+6] == "0000" {
			return true
		}
		i++ // skip the escaped character
	}
	return false
}
