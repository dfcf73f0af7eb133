package transfer_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/teamchat/chat/transfer"
)

// TestProgress reports on a terminal (a line rewritten in place, ended by Done) and in a log
// (one line per interval); nil and zero Progress values report nothing.
func TestProgress(t *testing.T) {
	t.Parallel()
	var term bytes.Buffer
	p := &transfer.Progress{Terminal: &term}
	p.Step("export: messages", 1000, 0)
	p.Step("export: messages", 2000, 2000) // the last step always shows
	p.Done()
	if got := term.String(); !strings.HasPrefix(got, "\rexport: messages: 1000") || !strings.Contains(got, "2000/2000 (100%)") || !strings.HasSuffix(got, "\n") {
		t.Errorf("terminal output %q", got)
	}
	var logs bytes.Buffer
	l := &transfer.Progress{Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	l.Step("import: messages", 5, 0)
	l.Step("import: messages", 6, 0) // within the interval: not logged
	if got := strings.Count(logs.String(), "msg=progress"); got != 1 {
		t.Errorf("log lines: %d, want 1:\n%s", got, logs.String())
	}
	if !strings.Contains(logs.String(), "phase=\"import: messages\" done=5") {
		t.Errorf("log line %q", logs.String())
	}
	var none *transfer.Progress
	none.Step("x", 1, 1) // no panic, nothing to report
	none.Done()
	(&transfer.Progress{}).Step("x", 1, 1)
}
