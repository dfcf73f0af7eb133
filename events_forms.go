package chat

import (
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/queue"
)

// One event goes to many queues, mostly in a handful of forms (the clients' register options
// pick the form: see clients.Adapter). The queues of one publication that take the same form
// share one sharedForm, which is encoded to JSON once, by the first GET /events that returns
// it; the others reuse the bytes. A message to a channel of 1,000 long-polling clients is thus
// encoded about once rather than 1,000 times.

// formsEncoded counts the encodings of shared forms (tests read it).
var formsEncoded atomic.Int64

// sharedForm is one form of an event, shared by the queues that take it.
type sharedForm struct {
	value any
	once  sync.Once
	raw   json.RawMessage
	err   error
}

// encoded returns the form's JSON, encoding it on first use.
func (f *sharedForm) encoded() (json.RawMessage, error) {
	f.once.Do(func() {
		formsEncoded.Add(1)
		f.raw, f.err = json.Marshal(f.value)
	})
	return f.raw, f.err
}

// MarshalJSON is the form's JSON (saved queues are encoded with it).
func (f *sharedForm) MarshalJSON() ([]byte, error) { return f.encoded() }

// formKey is what an event's form may depend on among a queue's register options: a
// clients.Adapter reads these and nothing else of queueOptions to build its form (the narrow,
// all_public_streams and the bus cut only decide whether the queue gets the event). The one
// exception, the local echo of a message event to the queue that sent it, is never shared.
type formKey struct {
	applyMarkdown, clientGravatar bool
	capabilities                  ClientCapabilities
}

// formKey is the key of the form a queue with these options takes.
func (o queueOptions) formKey() formKey {
	return formKey{applyMarkdown: o.ApplyMarkdown, clientGravatar: o.ClientGravatar, capabilities: o.Capabilities}
}

// formSharer is a clients.Adapter that tells, without building a queue's form, whether the
// queue gets the event (deliver) and whether its form is the one its formKey shares (not one
// of its own, such as the local echo to the sender's queue). A publication then builds each
// shared form once rather than once per queue.
type formSharer interface {
	SharesForm(o clients.Options) (deliver, shared bool)
}

// shareForm returns the sharedForm for the form v of a queue with register options data,
// the one already made for an equal key during this publication if any. Forms that arrived
// encoded (from the bus, or restored) pass as they are.
func shareForm(data any, v any, forms *queue.Forms) any {
	switch e := v.(type) {
	case json.RawMessage:
		return v
	case MessageEvent:
		if e.LocalMessageID != nil {
			return &sharedForm{value: v} // this queue's own form
		}
	}
	o, _ := data.(queueOptions)
	k := o.formKey()
	if f, ok := forms.Get(k); ok {
		return f
	}
	f := &sharedForm{value: v}
	forms.Put(k, f)
	return f
}
