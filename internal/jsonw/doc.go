// Package jsonw appends JSON values to a byte slice exactly as encoding/json's Marshal writes
// them (HTML-safe escaping included), for the hand-written encoders of the records the API
// sends most (a subscription list of a thousand records through reflection costs more than
// building it). It knows nothing of the project; a test compares every function with
// encoding/json, and FuzzString compares strings.
package jsonw
