package httpapi

import (
	"strings"

	chat "github.com/teamchat/chat"
)

// selfChecked names the parameters whose text the Service itself refuses null bytes in, with
// the messages of Zulip and the spec ("Message must not contain null bytes", "Topic must not
// contain null bytes"); the boundary leaves them to it.
var selfChecked = map[string]bool{
	"content": true, "topic": true, "subject": true, "topic_name": true, "drafts": true, "draft": true,
}

// checkText refuses, once for every parameter, text that no store keeps alike: a null byte
// (PostgreSQL refuses it in text, SQLite and memory would keep it), in the raw value or, for a
// JSON value, escaped as \u0000 (see hasEscapedNUL, called where JSON is decoded). The answer
// names the parameter and is the same on every backend.
func (p *params) checkText() error {
	for name, v := range p.values {
		if strings.IndexByte(v, 0) >= 0 && !selfChecked[name] {
			return errNullBytes(name)
		}
	}
	return nil
}

// errNullBytes is the refusal of a parameter holding a null byte.
func errNullBytes(name string) error {
	return chat.InvalidArgument(name, "must not contain null bytes")
}

// hasEscapedNUL reports whether JSON text holds the escape \u0000 in a string. It follows
// escapes, so an escaped backslash followed by "u0000" (the text \u0000) is not one.
func hasEscapedNUL(raw string) bool {
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
