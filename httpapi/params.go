package httpapi

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi/internal/jsonparam"
)

// params are the parameters of one request, following Zulip's rules: they come from the body
// (urlencoded or multipart, whatever the method) and from the query string, the body winning,
// and the first value of a repeated key winning. Every accessor marks the name as read, so
// that ignored can list the parameters no handler looked at.
//
// A params is used by the one goroutine that serves its request; it is not safe for
// concurrent use.
type params struct {
	values map[string]string
	read   map[string]struct{}
	// files are the file parts of a multipart body, in order (handlers that take a file
	// read them; the body's bound applies).
	files [][]byte
}

// lookup returns the value of name and marks it as read.
func (p *params) lookup(name string) (string, bool) {
	v, ok := p.values[name]
	if ok {
		p.read[name] = struct{}{}
	}
	return v, ok
}

// has reports whether name is present, and marks it as read.
func (p *params) has(name string) bool {
	_, ok := p.lookup(name)
	return ok
}

// str returns the plain string value of name.
func (p *params) str(name string) (string, bool) {
	return p.lookup(name)
}

// requiredStr returns the plain string value of name, or a missing-argument error.
func (p *params) requiredStr(name string) (string, error) {
	v, ok := p.lookup(name)
	if !ok {
		return "", chat.MissingArgument(name)
	}
	return v, nil
}

// optStr returns the plain string value of name, nil when absent.
func (p *params) optStr(name string) *string {
	v, ok := p.lookup(name)
	if !ok {
		return nil
	}
	return &v
}

// boolean decodes name as a JSON boolean (true or false, nothing else); nil when absent.
func (p *params) boolean(name string) (*bool, error) {
	raw, ok := p.lookup(name)
	if !ok {
		return nil, nil
	}
	if !json.Valid([]byte(raw)) {
		return nil, errNotValidJSON(name)
	}
	switch trimJSONSpace(raw) {
	case "true":
		b := true
		return &b, nil
	case "false":
		b := false
		return &b, nil
	}
	return nil, errNotA(name, "a boolean")
}

// boolOr decodes name as a JSON boolean; def when absent.
func (p *params) boolOr(name string, def bool) (bool, error) {
	b, err := p.boolean(name)
	if err != nil || b == nil {
		return def, err
	}
	return *b, nil
}

// integer decodes name as a JSON integer (no fraction, no exponent, no quotes) that fits in
// an int64; nil when absent.
func (p *params) integer(name string) (*int64, error) {
	raw, ok := p.lookup(name)
	if !ok {
		return nil, nil
	}
	if !json.Valid([]byte(raw)) {
		return nil, errNotValidJSON(name)
	}
	n, err := strconv.ParseInt(trimJSONSpace(raw), 10, 64)
	if err != nil {
		return nil, errNotA(name, "an integer")
	}
	return &n, nil
}

// countOf is the integer n of a count parameter (num_before, ...) as an int, saturated to
// the int32 range so that no platform wraps it; its sign is kept, for the Service to refuse
// a negative count and bound a large one.
func countOf(n int64) int { return int(min(max(n, math.MinInt32), math.MaxInt32)) }

// requiredInt is integer for a required parameter.
func (p *params) requiredInt(name string) (int64, error) {
	n, err := p.integer(name)
	if err != nil {
		return 0, err
	}
	if n == nil {
		return 0, chat.MissingArgument(name)
	}
	return *n, nil
}

// jsonParam decodes a JSON-valued parameter into a new T; nil if absent. If strict, unknown
// object keys are refused (DisallowUnknownFields). JSON null leaves T at its zero value, as
// encoding/json does. Decoding into json.RawMessage accepts any JSON value, for parameters
// of several types (an integer or "unlimited").
func jsonParam[T any](p *params, name string, strict bool) (*T, error) {
	raw, ok := p.lookup(name)
	if !ok {
		return nil, nil
	}
	v := new(T)
	if err := decodeJSONValue(name, raw, v, strict); err != nil {
		return nil, err
	}
	return v, nil
}

// requiredJSON is jsonParam for a required parameter.
func requiredJSON[T any](p *params, name string, strict bool) (T, error) {
	v, err := jsonParam[T](p, name, strict)
	if err != nil {
		var zero T
		return zero, err
	}
	if v == nil {
		var zero T
		return zero, chat.MissingArgument(name)
	}
	return *v, nil
}

// ignored lists, sorted, the parameters present that were never read; nil when none.
func (p *params) ignored() []string {
	var out []string
	for k := range p.values {
		if _, ok := p.read[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

func trimJSONSpace(s string) string {
	return strings.Trim(s, " \t\r\n")
}

func errNotValidJSON(name string) *chat.Error {
	return chat.Errorf(chat.CodeBadRequest, "%s is not valid JSON", name)
}

// errNotA is "name is not a boolean" and the like; what is "a boolean", "an integer", ...
func errNotA(name, what string) *chat.Error {
	return chat.Errorf(chat.CodeBadRequest, "%s is not %s", name, what)
}

// decodeJSONValue decodes the JSON text raw of parameter name into dst (a non-nil pointer),
// refusing escaped null bytes except in the parameters the Service checks itself. A value that
// does not fit is answered in Zulip's words (see jsonparam): drafts[0]["content"] is not a
// string; an error of the destination type's own UnmarshalJSON method is answered as it is.
func decodeJSONValue(name, raw string, dst any, strict bool) error {
	err := jsonparam.Decode(name, raw, dst, jsonparam.Options{Strict: strict, RefuseNullBytes: !freeText[name]})
	if err == nil {
		return nil
	}
	var ce *chat.Error
	if errors.As(err, &ce) {
		return ce
	}
	return chat.Errorf(chat.CodeBadRequest, "%s", err.Error())
}

// groupSettingChanges reads the optional group-setting parameters named by names (each an
// integer group id or a JSON object, see chat.GroupSettingChange); nil when none is given.
func groupSettingChanges(p *params, names []string) (map[string]chat.GroupSettingChange, error) {
	var out map[string]chat.GroupSettingChange
	for _, name := range names {
		v, err := jsonParam[chat.GroupSettingChange](p, name, true)
		if err != nil {
			return nil, err
		}
		if v != nil {
			if out == nil {
				out = map[string]chat.GroupSettingChange{}
			}
			out[name] = *v
		}
	}
	return out, nil
}
