package integrations

import (
	"testing"
	"time"
)

func TestNoticeLimiter(t *testing.T) {
	t.Parallel()
	var l NoticeLimiter
	t0 := time.Unix(1000, 0)
	for _, step := range []struct {
		bot  int64
		at   time.Duration
		want bool
	}{
		{1, 0, true}, {1, 30 * time.Second, false}, {2, 30 * time.Second, true},
		{1, NoticeWait, false}, {1, NoticeWait + time.Second, true}, {1, NoticeWait + 2*time.Second, false},
	} {
		if got := l.Allow(step.bot, t0.Add(step.at)); got != step.want {
			t.Errorf("Allow(%d, +%v) = %v, want %v", step.bot, step.at, got, step.want)
		}
	}
}
