package jsonparam

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// fuzzTargets are the destination types FuzzDecode decodes into.
var fuzzTargets = []func() any{
	func() any { return new(any) },
	func() any { return new([]int64) },
	func() any { return new([]draft) },
	func() any { return new(embedded) },
	func() any { return new(map[string][]int64) },
	func() any { return new(map[int]string) },
	func() any { return new([2]bool) },
	func() any { return new(*float64) },
	func() any { return new(checked) },
	func() any { return new(json.RawMessage) },
}

// FuzzDecode decodes fuzzed text (the untrusted value of a request parameter) into several
// types and checks that nothing panics, that Decode accepts exactly what encoding/json accepts
// within the depth bound, and that every refusal is an *Error of a consistent kind, naming the
// parameter, with a message.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`[1, 2, "3"]`, `[{"content": 5}]`, `{"own": true, "deep": "3", "x": 1}`,
		`{"1": "a", "x": "b"}`, `{"a": [1, 2.5]}`, `[true, false, true]`, `"bad"`, `null`, `[] []`, `[message`,
		strings.Repeat("[", 33) + strings.Repeat("]", 33), `["\u0000"]`, `{"Content": "c", "TO": [1]}`,
		`{"ſ": 1, "K": 2}`, `[{"to": [1e3]}]`, `{"Inner": {"deep": 1}}`, `1.5`, `-0`, `{"a":{"b":{"c":[]}}}`, `1E1000`, `[1E1000]`, `{"x": -1e999}`} {
		f.Add(s, false, false)
		f.Add(s, true, true)
	}
	f.Fuzz(func(t *testing.T, raw string, strict, refuseNUL bool) {
		if len(raw) > 4096 {
			return
		}
		opts := Options{Strict: strict, RefuseNullBytes: refuseNUL}
		for i, target := range fuzzTargets {
			dst := target()
			err := Decode("v", raw, dst, opts)
			ref := target()
			refErr := referenceDecode(raw, ref, opts)
			if (err == nil) != (refErr == nil) {
				t.Fatalf("target %d (%T): Decode(%q) = %v, encoding/json = %v", i, dst, raw, err, refErr)
			}
			if err == nil {
				if !reflect.DeepEqual(dst, ref) {
					t.Fatalf("target %d: Decode(%q) decoded %#v, encoding/json %#v", i, raw, dst, ref)
				}
				continue
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("target %d: error %v (%T) is not an *Error", i, err, err)
			}
			if !strings.HasPrefix(e.Path, "v") || e.Error() == "" {
				t.Fatalf("target %d: error %+v does not name the parameter", i, e)
			}
			switch e.Kind {
			case TooDeep:
				if !tooDeep(raw, MaxDepth) {
					t.Fatalf("target %d: %q refused as too deep", i, raw)
				}
			case NotJSON:
				if json.Valid([]byte(raw)) {
					t.Fatalf("target %d: valid %q refused as not JSON", i, raw)
				}
			case NullByte:
				if !refuseNUL || !HasEscapedNUL(raw) {
					t.Fatalf("target %d: %q refused for a null byte", i, raw)
				}
			case WrongKind:
				if !strings.HasPrefix(e.What, "a ") && !strings.HasPrefix(e.What, "an ") {
					t.Fatalf("target %d: kind %q", i, e.What)
				}
			case UnexpectedKey:
				if !strict {
					t.Fatalf("target %d: unexpected key %q without strict", i, e.Key)
				}
			case Invalid:
			default:
				t.Fatalf("target %d: error %+v of no kind", i, e)
			}
		}
	})
}

// referenceDecode is what Decode must accept: encoding/json's decoding of one value, within
// the depth bound, without escaped null bytes when they are refused.
func referenceDecode(raw string, dst any, opts Options) error {
	if tooDeep(raw, MaxDepth) || !json.Valid([]byte(raw)) {
		return errors.New("refused before decoding")
	}
	if opts.RefuseNullBytes && HasEscapedNUL(raw) {
		return errors.New("null byte")
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	if opts.Strict {
		dec.DisallowUnknownFields()
	}
	return dec.Decode(dst)
}
