package integrations

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ordered is a JSON object with its members in the order Python's json.loads keeps: the
// order of first appearance, a repeated key taking the last value.
type ordered struct {
	keys []string
	vals map[string]any
}

// decodeOrdered parses one JSON value keeping the order of object members (objects are
// *ordered, numbers json.Number).
func decodeOrdered(body []byte) (any, error) {
	if !utf8.Valid(body) {
		return nil, ErrInvalidJSON
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	v, err := orderedValue(d)
	if err != nil {
		return nil, ErrInvalidJSON
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, ErrInvalidJSON
	}
	return v, nil
}

func orderedValue(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	delim, ok := t.(json.Delim)
	if !ok {
		return t, nil
	}
	switch delim {
	case '[':
		list := []any{}
		for d.More() {
			v, err := orderedValue(d)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := d.Token()
		return list, err
	case '{':
		obj := &ordered{vals: map[string]any{}}
		for d.More() {
			kt, err := d.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := orderedValue(d)
			if err != nil {
				return nil, err
			}
			if _, seen := obj.vals[k]; !seen {
				obj.keys = append(obj.keys, k)
			}
			obj.vals[k] = v
		}
		_, err := d.Token()
		return obj, err
	}
	return nil, errors.New("unexpected delimiter")
}

// dumps writes v as Python's json.dumps(v, indent=indent) does (ensure_ascii; indent < 0:
// no indentation, with Python's ", " and ": " separators).
func dumps(v any, indent int) string {
	var b strings.Builder
	writePython(&b, v, indent, 0)
	return b.String()
}

func writePython(b *strings.Builder, v any, indent, depth int) {
	newline := func(d int) {
		if indent >= 0 {
			b.WriteByte('\n')
			b.WriteString(strings.Repeat(" ", indent*d))
		}
	}
	sep := ", "
	if indent >= 0 {
		sep = ","
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		writePyString(b, x)
	case json.Number:
		b.WriteString(pyJSONNumber(x))
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(sep)
			}
			newline(depth + 1)
			writePython(b, e, indent, depth+1)
		}
		newline(depth)
		b.WriteByte(']')
	case *ordered:
		if len(x.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(sep)
			}
			newline(depth + 1)
			writePyString(b, k)
			b.WriteString(": ")
			writePython(b, x.vals[k], indent, depth+1)
		}
		newline(depth)
		b.WriteByte('}')
	}
}

// writePyString writes s as a JSON string with Python's ensure_ascii escapes.
func writePyString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	u := func(r rune) {
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(hex[(r>>shift)&0xf])
		}
	}
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= ' ' && r <= '~':
			b.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			u(0xd800 | (r>>10)&0x3ff)
			u(0xdc00 | r&0x3ff)
		default:
			u(r)
		}
	}
	b.WriteByte('"')
}

// pyJSONNumber is a JSON number as json.dumps writes it back after json.loads: an integer
// unchanged (but "-0" is 0), anything with a fraction or an exponent as a Python float.
func pyJSONNumber(n json.Number) string {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if strings.TrimLeft(s, "-0") == "" {
			return "0"
		}
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return s
	}
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return pyFloat(f)
}

// pyNumber is a JSON number as Python's str() writes it after json.loads.
func pyNumber(n json.Number) string {
	s := pyJSONNumber(n)
	switch s {
	case "Infinity":
		return "inf"
	case "-Infinity":
		return "-inf"
	}
	return s
}

// pyFloat is Python's repr of a float: the shortest digits that read back, in positional
// notation with at least one decimal for exponents from -4 to 15, in scientific otherwise.
func pyFloat(f float64) string {
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	if x < -4 || x >= 16 {
		return mant + "e" + exp
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
