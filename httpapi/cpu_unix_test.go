//go:build unix

package httpapi_test

import (
	"syscall"
	"time"
)

// benchCPU is the CPU time (user and system) this process has used.
func benchCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
