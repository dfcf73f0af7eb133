package integrations

import (
	"encoding/json"
	"strconv"
)

// payload is a decoded JSON body read the way Zulip's WildValue reads one: a required field
// that is missing or of the wrong type is the payload's error (sticky: the first one wins),
// which makes the request an AnomalousPayloadError; optional reads never fail.
type payload struct {
	err error
}

// val is a value of a payload found at path.
type val struct {
	v    any
	ok   bool // present (a JSON null is present)
	path string
	p    *payload
}

// decode parses a JSON body, keeping the order of object members (Python's dicts keep it,
// and formatters list members in it); anything but one JSON value is ErrInvalidJSON.
func decode(body []byte) (val, *payload, error) {
	v, err := decodeOrdered(body)
	if err != nil {
		return val{}, nil, err
	}
	p := &payload{}
	return val{v: v, ok: true, path: "payload", p: p}, p, nil
}

// done returns the payload's error, if a required read failed.
func (p *payload) done(msgs []Message) ([]Message, error) {
	if p.err != nil {
		return nil, p.err
	}
	return msgs, nil
}

func (v val) fail(what string) {
	if v.p != nil && v.p.err == nil {
		v.p.err = &AnomalousPayloadError{Detail: v.path + " " + what}
	}
}

// get is the member key of an object (absent when v is not an object or lacks it).
func (v val) get(key string) val {
	path := key // the member's name alone: building full paths costs more than their use in logs
	m, ok := v.v.(*ordered)
	if !ok {
		return val{path: path, p: v.p}
	}
	x, ok := m.vals[key]
	return val{v: x, ok: ok, path: path, p: v.p}
}

// at is the required member key: a missing one fails the payload.
func (v val) at(key string) val {
	x := v.get(key)
	if !x.ok {
		x.fail("is missing")
	}
	return x
}

// has reports whether v is an object with the member key.
func (v val) has(key string) bool { return v.get(key).ok }

// str is v as a required string.
func (v val) str() string {
	s, ok := v.v.(string)
	if !ok {
		v.fail("is not a string")
	}
	return s
}

// optStr is v as a string when it is one ("" otherwise).
func (v val) optStr() string {
	s, _ := v.v.(string)
	return s
}

// integer is v as a required integer, in its JSON digits.
func (v val) integer() string {
	n, ok := v.v.(json.Number)
	if ok {
		if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
			return string(n)
		}
	}
	v.fail("is not an integer")
	return ""
}

// list is v as a required array.
func (v val) list() []val {
	l, ok := v.v.([]any)
	if !ok {
		v.fail("is not a list")
		return nil
	}
	out := make([]val, len(l))
	for i, x := range l {
		out[i] = val{v: x, ok: true, path: v.path, p: v.p}
	}
	return out
}

// truthy is Python's truth of v: false for absent, null, false, 0, "", [] and {}.
func (v val) truthy() bool {
	switch x := v.v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case []any:
		return len(x) > 0
	case *ordered:
		return len(x.keys) > 0
	}
	return true
}

// text is v as Python's str() writes it in a format string.
func (v val) text() string {
	switch x := v.v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case string:
		return x
	case json.Number:
		return pyNumber(x)
	}
	return dumps(v.v, -1)
}

// items are the members of an object, in order (none when v is not an object).
func (v val) items() []struct {
	key string
	val val
} {
	m, ok := v.v.(*ordered)
	if !ok {
		return nil
	}
	out := make([]struct {
		key string
		val val
	}, len(m.keys))
	for i, k := range m.keys {
		out[i].key, out[i].val = k, v.get(k)
	}
	return out
}
