package cputime_test

import (
	"runtime"
	"testing"

	"github.com/teamchat/chat/internal/cputime"
)

func TestProcessAdvancesWithWork(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no getrusage here")
	}
	start := cputime.Process()
	x := 0
	for i := 0; cputime.Process() == start && i < 1e9; i++ {
		x += i
	}
	if got := cputime.Process(); got <= start {
		t.Fatalf("Process() = %v after work, want more than %v (x=%d)", got, start, x)
	}
}
