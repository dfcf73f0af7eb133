package jsonparam

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// maxPointerChain bounds the pointers followed from one type (type P *P is legal Go).
const maxPointerChain = 16

// kindName is what a JSON value must be to decode into t: "a boolean", "an integer",
// ...; "" for types without such a name.
func kindName(t reflect.Type) string {
	for i := 0; t.Kind() == reflect.Pointer && i < maxPointerChain; i++ {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a float"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a dict"
	}
	return ""
}

// errWalkAborted stops a walk that cannot go on (a token stream error).
var errWalkAborted = errors.New("walk aborted")

// walk walks well-formed JSON text raw (at most MaxDepth deep) against type t, following
// encoding/json's rules, and returns the first mismatch in document order (a WrongKind or
// UnexpectedKey *Error); nil when it finds none.
func walk(raw string, t reflect.Type, name string, strict bool) *Error {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	w := &walker{dec: dec, strict: strict}
	if err := w.value(t, name); err != nil {
		var prob *Error
		if errors.As(err, &prob) {
			return prob
		}
	}
	return nil
}

type walker struct {
	dec    *json.Decoder
	strict bool
}

func (w *walker) token() (json.Token, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return nil, errWalkAborted
	}
	return tok, nil
}

// value checks the next value of the stream against t.
func (w *walker) value(t reflect.Type, path string) error {
	tok, err := w.token()
	if err != nil {
		return err
	}
	return w.check(tok, t, path)
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonNumberType      = reflect.TypeFor[json.Number]()
)

// customDecoding reports whether encoding/json hands values of t to a method of its own.
func customDecoding(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshalerType) || pt.Implements(jsonUnmarshalerType) ||
		t.Implements(textUnmarshalerType) || pt.Implements(textUnmarshalerType)
}

// check checks the value that starts with tok against t.
func (w *walker) check(tok json.Token, t reflect.Type, path string) error {
	if tok == nil {
		return nil // null decodes into anything, as a no-op or a nil
	}
	for i := 0; ; i++ {
		if i > maxPointerChain || customDecoding(t) {
			return w.skip(tok)
		}
		if t.Kind() != reflect.Pointer {
			break
		}
		t = t.Elem()
	}
	if t.Kind() == reflect.Interface {
		return w.skip(tok)
	}
	mismatch := func() error {
		if err := w.skip(tok); err != nil {
			return err
		}
		return &Error{Kind: WrongKind, Path: path, What: kindName(t)}
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
				return mismatch()
			}
			return w.list(t, path)
		}
		switch t.Kind() {
		case reflect.Map:
			return w.dict(t, path)
		case reflect.Struct:
			return w.object(t, path)
		}
		return mismatch()
	case bool:
		if t.Kind() != reflect.Bool {
			return mismatch()
		}
	case json.Number:
		fits := t == jsonNumberType
		var err error
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			_, err = strconv.ParseInt(v.String(), 10, t.Bits())
			fits = err == nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			_, err = strconv.ParseUint(v.String(), 10, t.Bits())
			fits = err == nil
		case reflect.Float32, reflect.Float64:
			_, err = strconv.ParseFloat(v.String(), t.Bits())
			fits = err == nil
		}
		if !fits {
			return mismatch()
		}
	case string:
		if t.Kind() != reflect.String && (t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8) {
			return mismatch()
		}
	}
	return nil
}

// list checks the elements of an array, after its "[", against slice or array type t.
func (w *walker) list(t reflect.Type, path string) error {
	for i := 0; w.dec.More(); i++ {
		if t.Kind() == reflect.Array && i >= t.Len() {
			if err := w.skipValue(); err != nil { // extra elements are dropped
				return err
			}
			continue
		}
		if err := w.value(t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	_, err := w.token() // ]
	return err
}

// dict checks the members of an object, after its "{", against map type t.
func (w *walker) dict(t reflect.Type, path string) error {
	kt := t.Key()
	keyKind := kt.Kind()
	textKey := reflect.PointerTo(kt).Implements(textUnmarshalerType)
	switch keyKind {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !textKey {
			if err := w.skip(json.Delim('{')); err != nil {
				return err
			}
			return &Error{Kind: WrongKind, Path: path, What: "a dict"}
		}
	}
	for w.dec.More() {
		key, err := w.key()
		if err != nil {
			return err
		}
		sub := path + `["` + key + `"]`
		if !textKey {
			var kerr error
			switch keyKind {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				_, kerr = strconv.ParseInt(key, 10, kt.Bits())
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				_, kerr = strconv.ParseUint(key, 10, kt.Bits())
			}
			if kerr != nil {
				return &Error{Kind: WrongKind, Path: sub, What: "an integer"}
			}
		}
		if err := w.value(t.Elem(), sub); err != nil {
			return err
		}
	}
	_, err := w.token() // }
	return err
}

// object checks the members of an object, after its "{", against struct type t.
func (w *walker) object(t reflect.Type, path string) error {
	fields := structFieldsOf(t)
	for w.dec.More() {
		key, err := w.key()
		if err != nil {
			return err
		}
		f := fields.lookup(key)
		switch {
		case f == nil && w.strict:
			return &Error{Kind: UnexpectedKey, Path: path, Key: key}
		case f == nil || f.quoted:
			err = w.skipValue()
		default:
			err = w.value(f.typ, path+`["`+key+`"]`)
		}
		if err != nil {
			return err
		}
	}
	_, err := w.token() // }
	return err
}

func (w *walker) key() (string, error) {
	tok, err := w.token()
	if err != nil {
		return "", err
	}
	key, ok := tok.(string)
	if !ok {
		return "", errWalkAborted
	}
	return key, nil
}

func (w *walker) skipValue() error {
	tok, err := w.token()
	if err != nil {
		return err
	}
	return w.skip(tok)
}

// skip consumes the rest of the value that starts with tok.
func (w *walker) skip(tok json.Token) error {
	if d, ok := tok.(json.Delim); !ok || (d != '[' && d != '{') {
		return nil
	}
	for depth := 1; depth > 0; {
		tok, err := w.token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			depth++
		case json.Delim(']'), json.Delim('}'):
			depth--
		}
	}
	return nil
}
