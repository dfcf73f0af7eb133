//go:build unix && !linux

package httpapi

import "syscall"

// sockRead and sockWrite are read(2) and write(2) on a non-blocking socket (sockio_linux.go
// makes them without the scheduler's syscall bookkeeping).
func sockRead(fd int, b []byte) (int, error) { return syscall.Read(fd, b) }

func sockWrite(fd int, b []byte) (int, error) { return syscall.Write(fd, b) }
