package markdown

import "testing"

// TestGlobalTimeSyntax pins feature level 503: <time:...> recognizes ISO 8601 timestamps
// only; what is not one renders as Zulip's timestamp error.
func TestGlobalTimeSyntax(t *testing.T) {
	tests := []struct{ in, want string }{
		{"at <time:2024-01-01T00:00:00Z> ok", `<p>at <time datetime="2024-01-01T00:00:00Z">2024-01-01T00:00:00Z</time> ok</p>`},
		{"<time:2024-01-01T10:00:00+02:00>", `<p><time datetime="2024-01-01T08:00:00Z">2024-01-01T10:00:00+02:00</time></p>`},
		{"<time:2024-06-30 23:15>", `<p><time datetime="2024-06-30T23:15:00Z">2024-06-30 23:15</time></p>`},
		{"<time:2024-06-30>", `<p><time datetime="2024-06-30T00:00:00Z">2024-06-30</time></p>`},
		{"<time:20240630T231500-0130>", `<p><time datetime="2024-07-01T00:45:00Z">20240630T231500-0130</time></p>`},
		{"<time:2024-06-30T23:15:00.25Z>", `<p><time datetime="2024-06-30T23:15:00.250000Z">2024-06-30T23:15:00.25Z</time></p>`},
		// Not ISO 8601: what dateutil and Unix timestamps accepted before level 503.
		{"<time:1700000000>", `<p><span class="timestamp-error">Invalid time format: 1700000000</span></p>`},
		{"<time:tomorrow>", `<p><span class="timestamp-error">Invalid time format: tomorrow</span></p>`},
		{"<time:Jan 1 2024 10:00 UTC>", `<p><span class="timestamp-error">Invalid time format: Jan 1 2024 10:00 UTC</span></p>`},
		{"<time:2024-02-30>", `<p><span class="timestamp-error">Invalid time format: 2024-02-30</span></p>`},
		{"<time:2024-0101>", `<p><span class="timestamp-error">Invalid time format: 2024-0101</span></p>`},
		{"<time:<b>>", `<p><span class="timestamp-error">Invalid time format: &lt;b</span>&gt;</p>`},
		{"`<time:2024-01-01>`", `<p><code>&lt;time:2024-01-01&gt;</code></p>`},
		{"<time:2024-01-01", `<p>&lt;time:2024-01-01</p>`},
	}
	for _, tt := range tests {
		if got := Render(tt.in); got != tt.want {
			t.Errorf("Render(%q)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}
