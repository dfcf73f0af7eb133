package transfer

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Progress reports how far a long backup, export or import has come. The zero value (and a
// nil *Progress) reports nothing. It is safe for concurrent use.
type Progress struct {
	// Terminal, when set, receives one line rewritten in place ("\r") at most every
	// Interval/10, and a final newline from Done.
	Terminal io.Writer
	// Logger, when set (and Terminal is not), receives one log line at most every Interval.
	Logger *slog.Logger
	// Interval between log lines; 5 seconds when zero.
	Interval time.Duration

	mu    sync.Mutex
	last  time.Time
	wrote bool
}

// Step reports that phase has reached done of total units (total 0: unknown).
func (p *Progress) Step(phase string, done, total int64) {
	if p == nil || (p.Terminal == nil && p.Logger == nil) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	every := p.Interval
	if every <= 0 {
		every = 5 * time.Second
	}
	if p.Terminal != nil {
		every /= 10
	}
	now := time.Now()
	if now.Sub(p.last) < every && done != total {
		return
	}
	p.last = now
	p.print(phase, done, total)
}

func (p *Progress) print(phase string, done, total int64) {
	if p.Terminal != nil {
		line := fmt.Sprintf("%s: %d", phase, done)
		if total > 0 {
			line = fmt.Sprintf("%s: %d/%d (%d%%)", phase, done, total, done*100/total)
		}
		fmt.Fprintf(p.Terminal, "\r%-60s", line)
		p.wrote = true
		return
	}
	p.Logger.Info("progress", "phase", phase, "done", done, "total", total)
}

// Done ends the terminal's progress line.
func (p *Progress) Done() {
	if p == nil || p.Terminal == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.wrote {
		fmt.Fprintln(p.Terminal)
		p.wrote = false
	}
}
