//go:build unix

package disk

import "syscall"

// syscallNotDir is the error of a path through a file (a key under another key's object).
var syscallNotDir error = syscall.ENOTDIR
