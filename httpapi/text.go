package httpapi

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi/internal/jsonparam"
)

// The text boundary. Every string a request carries to the Service passes here once, before
// any store is touched: the parameters (query string and body, raw or as JSON text) and the
// path's segments. A NUL byte is refused: PostgreSQL refuses it in text while SQLite and
// memory would keep it, so the backends would answer differently. Text that is not UTF-8 is
// refused too: in parameters by their decoding (Malformed payload, params_body.go), in the
// path here. The stores refuse such text themselves (storage.ErrInvalidString, answered 400
// by the engine), so whatever the boundary misses still answers a client error.

// nulMessages are Zulip's own refusals of a NUL byte in the parameters that carry message
// text ("Message must not contain null bytes", "Topic must not contain null bytes"); any other
// parameter is refused as "Invalid <name>: must not contain null bytes".
var nulMessages = map[string]string{
	"content": "Message must not contain null bytes", "topic": "Topic must not contain null bytes",
	"subject": "Topic must not contain null bytes", "topic_name": "Topic must not contain null bytes",
}

// freeText names the parameters whose value is text that is never decoded as JSON, so that
// the escape \u0000 in it is text, not a NUL byte. drafts and draft are JSON whose text the
// Service refuses itself, with Zulip's messages for the draft's content and topic.
var freeText = map[string]bool{
	"content": true, "topic": true, "subject": true, "topic_name": true, "drafts": true, "draft": true,
}

// checkText refuses a parameter holding a NUL byte in its name or value, raw or, in a value
// that is JSON text, as the escape \u0000 in a string: the handlers decode many values as
// JSON, some with fallbacks of their own, and this one check covers them all. The answer
// names the parameter and is the same on every backend.
func (p *params) checkText() error {
	for name, v := range p.values {
		switch {
		case strings.IndexByte(name, 0) >= 0:
			return errNullBytes("parameter name")
		case strings.IndexByte(v, 0) >= 0 && name != "drafts" && name != "draft":
			return errNullBytes(name)
		case !freeText[name] && escapesNUL(v):
			return errNullBytes(name)
		}
	}
	return nil
}

// escapesNUL reports whether v is JSON text with the escape \u0000 in a string.
func escapesNUL(v string) bool {
	return strings.Contains(v, `\u0000`) && json.Valid([]byte(v)) && jsonparam.HasEscapedNUL(v)
}

// checkPath refuses a path segment holding a NUL byte or text that is not UTF-8, naming
// the route's segment (values, from match).
func checkPath(values map[string]string) error {
	for name, v := range values {
		if strings.IndexByte(v, 0) >= 0 {
			return errNullBytes(name)
		}
		if !utf8.ValidString(v) {
			return chat.InvalidArgument(name, "must be valid UTF-8")
		}
	}
	return nil
}

// errNullBytes is the refusal of a parameter (or path segment) holding a NUL byte.
func errNullBytes(name string) error {
	if msg, ok := nulMessages[name]; ok {
		return chat.Errorf(chat.CodeBadRequest, "%s", msg)
	}
	return chat.InvalidArgument(name, "must not contain null bytes")
}
