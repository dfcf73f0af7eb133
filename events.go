package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Event is one event delivered by GET /events: its per-queue id, its type and its payload.
// The payload is one of the *Event structs of this package (RealmUserEvent, ...), or nil for a
// heartbeat. Its JSON is the payload's object with "id" added.
type Event struct {
	ID      int64
	Type    string
	Payload any
}

// MarshalJSON writes the payload's JSON object with the id key added.
func (e Event) MarshalJSON() ([]byte, error) {
	if e.Payload == nil {
		return fmt.Appendf(nil, `{"type":%s,"id":%d}`, strconv.Quote(e.Type), e.ID), nil
	}
	body, err := json.Marshal(e.Payload)
	if err != nil {
		return nil, err
	}
	body = bytes.TrimSpace(body)
	if len(body) < 2 || body[0] != '{' || body[len(body)-1] != '}' {
		return nil, fmt.Errorf("chat: payload of %s event is not a JSON object", e.Type)
	}
	out := make([]byte, 0, len(body)+24)
	out = append(out, body[:len(body)-1]...)
	if len(body) > 2 {
		out = append(out, ',')
	}
	out = fmt.Appendf(out, `"id":%d}`, e.ID)
	return out, nil
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

// forClient drops the computable avatar URL for client_gravatar clients, as register does. An
// update (a person map) marked gravatarClient carries only a computable avatar URL: those
// clients do not receive it at all.
func (e RealmUserEvent) forClient(o queueOptions) (any, bool) {
	if _, isUpdate := e.Person.(person); isUpdate {
		if e.onlyGravatarClients {
			return e, o.clientGravatar
		}
		return e, !(e.gravatarClient && o.clientGravatar)
	}
	rec, ok := e.Person.(UserRecord)
	if !e.gravatarClient || !o.clientGravatar || !ok {
		return e, true
	}
	rec.AvatarURL = nil
	e.Person = rec
	return e, true
}
