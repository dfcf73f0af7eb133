//go:build !unix

package disk

import "errors"

// syscallNotDir never matches outside Unix, where such paths fail as not found.
var syscallNotDir = errors.New("not a directory")
