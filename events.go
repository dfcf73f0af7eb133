package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/teamchat/chat/queue"
)

// Event is one event delivered by GET /events: its per-queue id, its type and its payload.
// The payload is one of the *Event structs of this package (RealmUserEvent, ...), or nil for a
// heartbeat. Its JSON is the payload's object with "id" added.
type Event struct {
	ID      int64
	Type    string
	Payload any
	// raw is the payload's JSON when it is already encoded (a form shared between queues, or
	// one that arrived encoded); nil: encode Payload.
	raw json.RawMessage
}

// deliveredEvent is the Event of a queued event: a shared form gives its value and its JSON,
// encoded once for all the queues that share it.
func deliveredEvent(e queue.Event) Event {
	out := Event{ID: e.ID, Type: e.Type, Payload: e.Payload}
	switch p := e.Payload.(type) {
	case *sharedForm:
		out.Payload = p.value
		if raw, err := p.encoded(); err == nil {
			out.raw = raw
		}
	case json.RawMessage:
		out.raw = p
	}
	return out
}

// MarshalJSON writes the payload's JSON object with the id key added.
func (e Event) MarshalJSON() ([]byte, error) {
	return e.appendJSON(nil)
}

// appendJSON appends the event's JSON object to b.
func (e Event) appendJSON(b []byte) ([]byte, error) {
	if e.Payload == nil && e.raw == nil {
		b = append(b, `{"type":`...)
		b = strconv.AppendQuote(b, e.Type)
		b = append(b, `,"id":`...)
		b = strconv.AppendInt(b, e.ID, 10)
		return append(b, '}'), nil
	}
	body := e.raw
	if body == nil {
		var err error
		if body, err = json.Marshal(e.Payload); err != nil {
			return nil, err
		}
	}
	body = bytes.TrimSpace(body)
	if len(body) < 2 || body[0] != '{' || body[len(body)-1] != '}' {
		return nil, fmt.Errorf("chat: payload of %s event is not a JSON object", e.Type)
	}
	b = append(b, body[:len(body)-1]...)
	if len(body) > 2 {
		b = append(b, ',')
	}
	b = append(b, `"id":`...)
	b = strconv.AppendInt(b, e.ID, 10)
	return append(b, '}'), nil
}

// AppendJSON appends the result's JSON object to b, the events' payloads as they were
// encoded (once per form, not once per response).
func (r GetEventsResult) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"events":[`...)
	for i, e := range r.Events {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = e.appendJSON(b); err != nil {
			return nil, err
		}
	}
	b = append(b, ']')
	if r.QueueID != "" {
		b = append(b, `,"queue_id":`...)
		var err error
		if b, err = appendJSONString(b, r.QueueID); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONString appends s as json.Marshal encodes it; a string of printable ASCII
// needing no escape (a queue id) is copied as it is.
func appendJSONString(b []byte, s string) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, err := json.Marshal(s)
			return append(b, q...), err
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}
