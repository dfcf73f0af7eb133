// Package jsonparam decodes the JSON-valued parameters of a request (a list of ids, a draft
// object, a narrow) into Go values and, when a value does not fit its Go type, says where and
// why in Zulip's words: `drafts[0]["content"] is not a string`, `Argument "color" at draft is
// unexpected`, `v is too deeply nested`.
//
// encoding/json decodes; on failure it names the place in its own terms (a dotted Go field
// path, no list index), so Decode walks the text again against the type, following
// encoding/json's rules (json tags, case-insensitive keys, embedded structs, the ",string"
// option, custom decoders), and reports the first mismatch in document order.
//
// It imports nothing of the project: its errors are *Error values, which the HTTP layer turns
// into the API's error answers (every one a 400 BAD_REQUEST with Error's text as its message).
package jsonparam
