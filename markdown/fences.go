package markdown

import (
	"regexp"
	"strings"
)

// fenceOpen is an opening fence as Zulip's fenced-code preprocessor reads one: three or more
// backticks or tildes at the start of a line, then optionally a language (and a header).
var fenceOpen = regexp.MustCompile("^(~{3,}|`{3,})[ ]*(?:\\{?\\.?([a-zA-Z0-9_+\\-./#]+)[ ]*(?:[^ ~`][^~`]*)?\\}?)?$")

// WithoutCodeBlocks is content with the lines inside its fenced code blocks blanked, as what
// Zulip's later preprocessors (alert words) see once the fenced-code preprocessor has set the
// code aside. The inside of a quote or spoiler block stays (Zulip renders it as Markdown, and
// fences may nest there); any other fenced block is code, math included. A block left open
// runs to the end of the content.
func WithoutCodeBlocks(content string) string {
	if !strings.Contains(content, "```") && !strings.Contains(content, "~~~") {
		return content
	}
	lines := strings.Split(content, "\n")
	type block struct {
		fence string
		code  bool
	}
	var open []block
	for i, line := range lines {
		if n := len(open); n > 0 && strings.TrimRight(line, " \t") == open[n-1].fence {
			open = open[:n-1]
			lines[i] = ""
			continue
		}
		if n := len(open); n > 0 && open[n-1].code {
			lines[i] = ""
			continue
		}
		if m := fenceOpen.FindStringSubmatch(line); m != nil {
			lang := strings.ToLower(m[2])
			open = append(open, block{fence: m[1], code: lang != "quote" && lang != "spoiler"})
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}
