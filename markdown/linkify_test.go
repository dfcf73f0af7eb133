package markdown

import (
	"strings"
	"testing"
)

// hashLinks links every "#<digits>" to an issue URL.
func hashLinks(s string) []Link {
	var out []Link
	for i := 0; i < len(s); i++ {
		if s[i] != '#' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > i+1 {
			out = append(out, Link{Start: i, End: j, URL: "https://example.com/issues/" + s[i+1:j]})
			i = j - 1
		}
	}
	return out
}

func TestRenderLinkified(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{"see #12 and #3.", `<p>see <a href="https://example.com/issues/12">#12</a> and <a href="https://example.com/issues/3">#3</a>.</p>`},
		{"**#7** done", `<p><strong><a href="https://example.com/issues/7">#7</a></strong> done</p>`},
		{"`#7` in code", `<p><code>#7</code> in code</p>`},
		{"[#7](https://other.example/) kept", `<p><a href="https://other.example/">#7</a> kept</p>`},
		{"#1\nnext #2", "<p><a href=\"https://example.com/issues/1\">#1</a><br>\nnext <a href=\"https://example.com/issues/2\">#2</a></p>"},
		{"no match", `<p>no match</p>`},
	}
	for _, tt := range tests {
		if got := RenderLinkified(tt.src, hashLinks); got != tt.want {
			t.Errorf("RenderLinkified(%q)\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
	if got, want := RenderLinkified("plain #1", nil), Render("plain #1"); got != want {
		t.Errorf("nil linkify: %q, want %q", got, want)
	}
	// A hostile URL is sanitized away like any other link.
	evil := func(string) []Link { return []Link{{Start: 0, End: 4, URL: "javascript:alert(1)"}} }
	if got := RenderLinkified("evil", evil); strings.Contains(got, "javascript") {
		t.Errorf("unsafe link survived: %s", got)
	}
}
