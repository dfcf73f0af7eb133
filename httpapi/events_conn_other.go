//go:build !unix

package httpapi

import "errors"

// serveRaw is the loop of events_conn_unix.go; elsewhere the connection reads with
// conn.Read (ok is false: the caller does).
func (pc *pollConn) serveRaw() (ok bool) { return false }

// tryWrite is events_conn_unix.go's; not reached elsewhere (no long-poll is left waiting).
func (pc *pollConn) tryWrite([]byte) (int, error) { return 0, errors.ErrUnsupported }

// rawWrite is events_conn_unix.go's.
type rawWrite struct{}
