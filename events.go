package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/teamchat/chat/internal/clients"
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

// RealmUserEvent is a realm_user event: op add (Person is a UserRecord), update (Person holds
// user_id and the changed fields) or remove.
type RealmUserEvent struct {
	Type   string `json:"type"`
	Op     string `json:"op"`
	Person any    `json:"person"`
	// gravatarClient marks a Person (a UserRecord) whose avatar_url becomes null for clients
	// that registered with client_gravatar: its avatar is a Gravatar and its recipients may
	// see the email.
	gravatarClient bool
	// onlyGravatarClients limits an update to the clients that registered with
	// client_gravatar (an avatar_url that only they see change).
	onlyGravatarClients bool
}

// ReadsOptions: the form depends on client_gravatar only.
func (RealmUserEvent) ReadsOptions() clients.Reads { return clients.Gravatar }

// ForClient drops the computable avatar URL for client_gravatar clients, as register does. An
// update (a person map) marked gravatarClient carries only a computable avatar URL: those
// clients do not receive it at all.
func (e RealmUserEvent) ForClient(o clients.Options) (any, bool) {
	if _, isUpdate := e.Person.(person); isUpdate {
		if e.onlyGravatarClients {
			return e, o.ClientGravatar
		}
		return e, !(e.gravatarClient && o.ClientGravatar)
	}
	rec, ok := e.Person.(UserRecord)
	if !e.gravatarClient || !o.ClientGravatar || !ok {
		return e, true
	}
	rec.AvatarURL = nil
	e.Person = rec
	return e, true
}
