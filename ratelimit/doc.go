// Package ratelimit is a sliding-window rate limiter keyed by strings (a username, a client
// address, a user id). It imports only the standard library and is safe for concurrent use.
package ratelimit
