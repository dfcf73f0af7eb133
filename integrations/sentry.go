package integrations

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// sentryIntegration is Sentry (zerver/webhooks/sentry): events (an exception, with the
// traceback of the frame in the exception's file, or a message) and issues (created,
// resolved, assigned, ignored), from Sentry's internal integration, its plain webhooks
// (transformed to the same shape) and its deprecated plugin.
var sentryIntegration = &Integration{
	Name: "sentry", DisplayName: "Sentry", ClientName: "Sentry",
	format: formatSentry,
}

// sentryLexers maps Sentry's platform to the code block's language.
var sentryLexers = map[string]string{
	"go": "go", "java": "java", "javascript": "javascript", "node": "javascript", "python": "python3", "ruby": "ruby",
}

func formatSentry(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	data := root.get("data")
	if !data.ok || data.v == nil {
		data = sentryWebhookPayload(root)
	}
	var topic, body string
	switch {
	case !data.truthy():
		topic, body = sentryDeprecated(root)
	case data.has("event"):
		topic, body, err = sentryEvent(data.get("event"))
	case data.has("issue"):
		topic, body, err = sentryIssue(root.at("action").str(), data.get("issue"), root.at("actor"))
	default:
		keys := make([]string, 0)
		for _, kv := range data.items() {
			keys = append(keys, "'"+kv.key+"'")
		}
		err = unsupported("[" + strings.Join(keys, ", ") + "]")
	}
	if p.err != nil {
		return nil, p.err
	}
	if err != nil {
		return nil, err
	}
	return []Message{{Topic: topic, Content: body}}, nil
}

// sentryWebhookPayload is Zulip's transform_webhook_payload: a plain webhook's event, given
// the web_url and datetime of the internal integration's (absent: not such an event).
func sentryWebhookPayload(root val) val {
	event := root.get("event")
	if !event.get("event_id").truthy() {
		return val{path: "payload", p: root.p}
	}
	m := event.v.(*ordered)
	base, err := url.Parse(root.at("url").str())
	if err != nil {
		root.get("url").fail("is not a URL")
		return val{path: "payload", p: root.p}
	}
	ref, _ := url.Parse("events/" + event.get("event_id").text() + "/")
	setOrdered(m, "web_url", base.ResolveReference(ref).String())
	ts := event.get("timestamp")
	if !ts.ok {
		ts = event.at("received")
	}
	f, err := strconv.ParseFloat(ts.text(), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		ts.fail("is not a timestamp")
		return val{path: "payload", p: root.p}
	}
	sec, frac := math.Modf(f)
	t := time.Unix(int64(sec), int64(frac*1e9)).UTC()
	setOrdered(m, "datetime", t.Format("2006-01-02T15:04:05.000000+00:00"))
	return root
}

func setOrdered(m *ordered, key string, v any) {
	if _, ok := m.vals[key]; !ok {
		m.keys = append(m.keys, key)
	}
	m.vals[key] = v
}

// sentryTime is Zulip's rendering of Sentry's ISO times: to the second, a space for the T.
func sentryTime(s string) string {
	s, _, _ = strings.Cut(s, ".")
	return strings.ReplaceAll(s, "T", " ")
}

func sentryEvent(event val) (string, string, error) {
	topic := event.at("title").str()
	platform := event.at("platform").str()
	if platform == "python" && event.at("title").str() != "This is an example Python exception" {
		if v, err := strconv.Atoi(event.at("version").text()); err == nil && v < 7 {
			return "", "", unsupported("Raven SDK")
		}
	}
	head := func(kind string) string {
		return "**New " + kind + ":** [" + topic + "](" + event.at("web_url").str() + ")\n```quote\n**level:** " +
			event.at("level").str() + "\n**timestamp:** " + sentryTime(event.at("datetime").str()) + "\n"
	}
	switch {
	case event.has("exception"):
		filename := event.at("metadata").get("filename")
		body := head("exception") + "**filename:** " + filename.text() + "\n```\n"
		if tb, ok := sentryTraceback(event, filename); ok {
			body += "\nTraceback:\n```" + sentryLexers[platform] + "\n" + tb + "```\n"
		}
		return topic, body, nil
	case event.has("logentry"):
		return topic, head("message event") + "```\n", nil
	}
	return "", "", unsupported("unknown-event type")
}

// sentryTraceback is the context of the last frame, in the last exception with a stack
// trace, that is in the exception's file.
func sentryTraceback(event, filename val) (string, bool) {
	if !filename.truthy() {
		return "", false
	}
	values := event.at("exception").at("values").list()
	var stack val
	for i := len(values) - 1; i >= 0; i-- {
		if values[i].has("stacktrace") {
			stack = values[i].get("stacktrace")
			break
		}
	}
	if !stack.truthy() {
		return "", false
	}
	frames := stack.at("frames").list()
	for i := len(frames) - 1; i >= 0; i-- {
		f := frames[i]
		if f.get("filename").v != filename.v {
			continue
		}
		line := f.get("context_line")
		if !line.ok || line.v == nil {
			return "", false
		}
		return sentryLines(f.get("pre_context")) + "---> " + line.str() + "\n" + sentryLines(f.get("post_context")), true
	}
	return "", false
}

// sentryLines indents context lines by five spaces, an empty one staying empty.
func sentryLines(lines val) string {
	if !lines.ok || lines.v == nil {
		return ""
	}
	var b strings.Builder
	for _, l := range lines.list() {
		if s := l.str(); s != "" {
			b.WriteString("     " + s)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func sentryIssue(action string, issue, actor val) (string, string, error) {
	topic := issue.at("title").str()
	assignee := "No one"
	if a := issue.at("assignedTo"); a.truthy() {
		assignee = a.at("name").str()
		if a.at("type").optStr() == "team" {
			assignee = "team " + assignee
		}
	}
	switch action {
	case "created":
		return topic, "**New issue created:** " + topic + "\n```quote\n**level:** " + issue.at("level").str() +
			"\n**timestamp:** " + sentryTime(issue.at("lastSeen").str()) + "\n**assignee:** " + assignee + "\n```", nil
	case "resolved":
		return topic, "Issue **" + topic + "** was marked as resolved by **" + actor.at("name").str() + "**.", nil
	case "assigned":
		return topic, "Issue **" + topic + "** has now been assigned to **" + assignee + "** by **" + actor.at("name").str() + "**.", nil
	case "ignored":
		return topic, "Issue **" + topic + "** was ignored by **" + actor.at("name").str() + "**.", nil
	}
	return "", "", unsupported("unknown-issue-action type")
}

func sentryDeprecated(root val) (string, string) {
	topic := root.get("project_name").text()
	if !root.has("project_name") {
		topic = "None"
	}
	msg := root.get("message").text()
	if !root.has("message") {
		msg = "None"
	}
	link := root.get("url").text()
	if !root.has("url") {
		link = "None"
	}
	return topic, "New [issue](" + link + ") (level: " + strings.ToUpper(root.at("level").str()) + "):\n\n``` quote\n" + msg + "\n```"
}
