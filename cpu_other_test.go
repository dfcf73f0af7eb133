//go:build !unix

package chat_test

import "time"

// cpuTime is unknown here; the cpu-ms/op metric then reads 0.
func cpuTime() time.Duration { return 0 }
