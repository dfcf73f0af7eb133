//go:build !unix

package httpapi

// serveRaw is the loop of events_conn_unix.go; elsewhere the connection reads with
// conn.Read (ok is false: the caller does).
func (pc *pollConn) serveRaw() (ok bool) { return false }
