//go:build !unix

package httpapi_test

import "time"

// benchCPU is unknown here; the cpu-ms/op metric then reads 0.
func benchCPU() time.Duration { return 0 }
