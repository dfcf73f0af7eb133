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
// JSON value, escaped as \u0000 (refused where JSON is decoded, see decodeJSONValue). The answer
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
