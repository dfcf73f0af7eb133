// Package topics holds the rules of topics, which are a string field on messages and not
// records of their own: topic-name normalisation and limits, the empty topic and its display
// name, per-user visibility policies (muted, unmuted, followed) and the batching of topic
// deletion.
//
// It imports users, channels (for the channel id type) and the standard library only. It does
// no I/O and reads no clock; everything in it is safe for concurrent use.
package topics
