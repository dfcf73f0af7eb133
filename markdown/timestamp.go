package markdown

import (
	"bytes"
	"html"
	"regexp"
	"strconv"
	"time"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// timeParser is the inline parser of Zulip's global time syntax, <time:...>. Since feature
// level 503 only an ISO 8601 timestamp is recognized (a date, or a date and a time, with an
// optional UTC offset; without one the time is UTC): it renders as
// <time datetime="...Z">what was written</time>. Anything else (a Unix timestamp, "tomorrow")
// renders as Zulip's error, <span class="timestamp-error">Invalid time format: ...</span>.
type timeParser struct{}

func (timeParser) Trigger() []byte { return []byte{'<'} }

var timePrefix = []byte("<time:")

func (timeParser) Parse(_ ast.Node, block text.Reader, _ parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, timePrefix) {
		return nil
	}
	end := bytes.IndexByte(line, '>')
	if end < 0 {
		return nil
	}
	input := string(line[len(timePrefix):end])
	block.Advance(end + 1)
	n := &timeNode{Input: input}
	if t, ok := parseISO8601(input); ok {
		n.Datetime = isoUTC(t)
	}
	return n
}

// timeNode is one <time:...>: what was written and, when it is an ISO 8601 timestamp, the
// instant in UTC as Zulip writes it ("" when it is not).
type timeNode struct {
	ast.BaseInline
	Input    string
	Datetime string
}

var kindTime = ast.NewNodeKind("Time")

func (n *timeNode) Kind() ast.NodeKind { return kindTime }

func (n *timeNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Input": n.Input, "Datetime": n.Datetime}, nil)
}

// timeRenderer writes timeNodes.
type timeRenderer struct{}

func (timeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindTime, renderTime)
}

func renderTime(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*timeNode)
	if n.Datetime == "" {
		_, _ = w.WriteString(`<span class="timestamp-error">Invalid time format: ` + html.EscapeString(n.Input) + `</span>`)
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<time datetime="` + n.Datetime + `">` + html.EscapeString(n.Input) + `</time>`)
	return ast.WalkSkipChildren, nil
}

// isoUTC writes t in UTC as Python's isoformat does, with Z for +00:00: seconds always,
// microseconds when there are any.
func isoUTC(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 != 0 {
		return t.Format("2006-01-02T15:04:05.000000Z")
	}
	return t.Format("2006-01-02T15:04:05Z")
}

// isoTimestamp is the ISO 8601 forms recognized: a calendar date (extended YYYY-MM-DD or basic
// YYYYMMDD), optionally followed by T (or a space) and a time of hours, minutes and seconds
// (extended or basic, minutes and seconds optional, a fraction of a second after . or ,), and
// an offset (Z, ±hh, ±hh:mm or ±hhmm).
var isoTimestamp = regexp.MustCompile(`^(\d{4})-?(\d{2})-?(\d{2})` +
	`(?:[Tt ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?` +
	`(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$`)

// parseISO8601 parses s as an ISO 8601 timestamp (isoTimestamp); a timestamp without an
// offset is UTC.
func parseISO8601(s string) (time.Time, bool) {
	m := isoTimestamp.FindStringSubmatch(s)
	if m == nil || !consistentSeparators(s) {
		return time.Time{}, false
	}
	num := func(i int) int {
		if m[i] == "" {
			return 0
		}
		v, _ := strconv.Atoi(m[i])
		return v
	}
	year, month, day, hour, minute, sec := num(1), num(2), num(3), num(4), num(5), num(6)
	if month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	nsec := 0
	if f := m[7]; f != "" {
		v, _ := strconv.Atoi((f + "000000000")[:9])
		nsec = v
	}
	loc, ok := isoOffset(m[8])
	if !ok {
		return time.Time{}, false
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, loc)
	if t.Day() != day || t.Month() != time.Month(month) {
		return time.Time{}, false // 2024-02-30
	}
	return t, true
}

// consistentSeparators refuses a date that mixes the extended and basic forms (2024-0101).
func consistentSeparators(s string) bool {
	if len(s) < 8 {
		return false
	}
	if s[4] == '-' {
		return len(s) >= 10 && s[7] == '-'
	}
	return s[4] >= '0' && s[4] <= '9' && (len(s) < 7 || s[6] != '-')
}

// isoOffset is the location of an ISO 8601 offset ("" and Z: UTC).
func isoOffset(s string) (*time.Location, bool) {
	if s == "" || s == "Z" || s == "z" {
		return time.UTC, true
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	digits := s[1:]
	if len(digits) > 2 && digits[2] == ':' {
		digits = digits[:2] + digits[3:]
	}
	h, _ := strconv.Atoi(digits[:2])
	mins := 0
	if len(digits) == 4 {
		mins, _ = strconv.Atoi(digits[2:])
	}
	if h > 23 || mins > 59 {
		return nil, false
	}
	return time.FixedZone("", sign*(h*3600+mins*60)), true
}
