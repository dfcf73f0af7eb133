package integrations

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Integration is one third-party service whose webhooks the server accepts at
// /api/v1/external/{Name}.
type Integration struct {
	// Name is the URL's name ("github"); DisplayName the name people read ("GitHub").
	Name, DisplayName string
	// ClientName is Zulip's webhook_client_name: the messages' client is
	// "Zulip{ClientName}Webhook" and errors name "the {ClientName} webhook".
	ClientName string
	// EventHeader is the HTTP header carrying the event type, "" when the payload does.
	EventHeader string
	// AllEventTypes lists the event types only_events and exclude_events can name; nil when
	// the integration does not support filtering.
	AllEventTypes []string
	// URLOptions are the optional URL parameters the integration reads beyond the common ones.
	URLOptions []URLOption
	// unquote: the stream and topic parameters are percent-decoded once more (Zulip's
	// unquote_url_parameters, for services that encode them twice).
	unquote bool
	format  func(*Request) ([]Message, error)
}

// URLOption is an optional parameter of an integration's URL, as register's
// realm_incoming_webhook_bots describes it.
type URLOption struct {
	Key       string `json:"key"`
	Label     string `json:"label"`
	Validator string `json:"validator"`
}

// Request is what an integration reads of one webhook request.
type Request struct {
	// Body is the request body (nil when it was a form, whose fields are in Params).
	Body []byte
	// Header is the request's HTTP header.
	Header http.Header
	// Params gives the URL's query parameters and a form body's fields.
	Params func(name string) (string, bool)
	// Topic is the topic parameter (nil when absent): it replaces the integration's topic.
	Topic *string
	// OnlyEvents and ExcludeEvents are the only_events and exclude_events parameters (nil
	// when absent): lists of shell-style patterns.
	OnlyEvents, ExcludeEvents []string
	// People lists the organization's users, for the integrations that name them (Jira);
	// nil: nobody is known. Called at most once per request, only when needed.
	People func() []Person
}

// Person is a user of the organization as an integration may name them, ascending by id.
type Person struct {
	FullName, Email string
	Active          bool
}

func (r *Request) param(name string) (string, bool) {
	if r.Params == nil {
		return "", false
	}
	return r.Params(name)
}

// Message is one message an integration sends: to Topic of the URL's channel, or to the
// bot's owner when the URL names no channel.
type Message struct {
	Topic, Content string
	// Event is Zulip's complete_event_type, matched by only_events and exclude_events ("":
	// the message is never filtered).
	Event string
}

// ErrInvalidJSON is a body that is not the JSON the integration expects: Zulip's
// INVALID_JSON "Malformed JSON" (the bot's owner is told).
var ErrInvalidJSON = errors.New("Malformed JSON")

// UnsupportedEventError is an event the service sends but the integration does not turn
// into a message: Zulip's UNSUPPORTED_WEBHOOK_EVENT_TYPE, answered with HTTP 200.
type UnsupportedEventError struct {
	Webhook, Event string // the integration's ClientName and the event type
}

func (e *UnsupportedEventError) Error() string {
	return fmt.Sprintf("The '%s' event isn't currently supported by the %s webhook; ignoring", e.Event, e.Webhook)
}

// MissingHeaderError is a request without the integration's event header: Zulip's
// MISSING_HTTP_EVENT_HEADER (the bot's owner is told).
type MissingHeaderError struct {
	Header string
}

func (e *MissingHeaderError) Error() string {
	return fmt.Sprintf("Missing the HTTP event header '%s'", e.Header)
}

// AnomalousPayloadError is a payload the integration cannot read (a field missing or of the
// wrong type): Zulip's ANOMALOUS_WEBHOOK_PAYLOAD.
type AnomalousPayloadError struct {
	Webhook string
	// Detail says what was wrong, for logs.
	Detail string
}

func (e *AnomalousPayloadError) Error() string {
	return fmt.Sprintf("Unable to parse request: Did %s generate this event?", e.Webhook)
}

// UnquoteParameter is Zulip's unquote of the stream and topic parameters for the integrations
// that ask for it: %XX escapes decoded (invalid ones kept), any other text unchanged.
func (in *Integration) UnquoteParameter(s string) string {
	if !in.unquote || !strings.Contains(s, "%") {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// InvalidPayloadError is a payload that lacks what the integration needs, for the
// integrations that answer it with Zulip's BAD_REQUEST "Invalid payload" and tell the bot's
// owner how to configure the service (UptimeRobot).
type InvalidPayloadError struct {
	// Notice is the owner's message, given the bot's name and whom to contact.
	Notice func(botName, supportEmail string) string
}

func (e *InvalidPayloadError) Error() string { return "Invalid payload" }

// BadRequestError is a payload Zulip refuses with a JsonableError of its own words: BAD_REQUEST
// with Msg (CircleCI's pipelines of an unsupported version control provider).
type BadRequestError struct {
	Msg string
}

func (e *BadRequestError) Error() string { return e.Msg }

// registry lists every integration, sorted by name.
var registry = sortedRegistry(
	alertmanagerIntegration,
	bitbucket2Integration,
	buildbotIntegration,
	circleCIIntegration,
	giteaIntegration,
	githubIntegration,
	gitlabIntegration,
	grafanaIntegration,
	jiraIntegration,
	jsonIntegration,
	pingdomIntegration,
	sentryIntegration,
	slackIncomingIntegration,
	uptimeRobotIntegration,
)

func sortedRegistry(list ...*Integration) []*Integration {
	slices.SortFunc(list, func(a, b *Integration) int { return strings.Compare(a.Name, b.Name) })
	return list
}

// All returns the integrations the server serves, sorted by name. The caller must not modify
// them.
func All() []*Integration { return registry }

// Lookup finds the integration of a URL's name.
func Lookup(name string) (*Integration, bool) {
	i, ok := slices.BinarySearchFunc(registry, name, func(in *Integration, n string) int { return strings.Compare(in.Name, n) })
	if !ok {
		return nil, false
	}
	return registry[i], true
}

// Client is the name of the client the integration's messages come from
// ("ZulipGitHubWebhook").
func (in *Integration) Client() string { return "Zulip" + in.ClientName + "Webhook" }

// Run formats the request: the integration's messages, less those whose event type
// only_events leaves out or exclude_events names, with the topic parameter as their topic.
// An error is one of the types of this package; nothing is to be sent then.
func (in *Integration) Run(r *Request) ([]Message, error) {
	msgs, err := in.format(r)
	if err != nil {
		var anomalous *AnomalousPayloadError
		if errors.As(err, &anomalous) {
			anomalous.Webhook = in.ClientName
		}
		var unsupported *UnsupportedEventError
		if errors.As(err, &unsupported) {
			unsupported.Webhook = in.ClientName
		}
		return nil, err
	}
	out := msgs[:0]
	for _, m := range msgs {
		if !wanted(m.Event, r.OnlyEvents, r.ExcludeEvents) {
			continue
		}
		if r.Topic != nil {
			m.Topic = in.UnquoteParameter(*r.Topic)
		}
		m.Topic = truncateTopic(strings.TrimSpace(m.Topic))
		// Zulip's normalize_body: no trailing white space, no leading blank lines.
		m.Content = strings.TrimLeft(strings.TrimRightFunc(m.Content, unicode.IsSpace), "\n")
		out = append(out, m)
	}
	return out, nil
}

// wanted applies only_events and exclude_events to an event type (Zulip's
// check_send_webhook_message).
func wanted(event string, only, exclude []string) bool {
	if event == "" {
		return true
	}
	if only != nil && !slices.ContainsFunc(only, func(p string) bool { return fnmatch(event, p) }) {
		return false
	}
	return !slices.ContainsFunc(exclude, func(p string) bool { return fnmatch(event, p) })
}

// fnmatch matches name with a shell-style pattern as Python's fnmatch.fnmatch does on POSIX:
// * any run, ? any character, [seq] and [!seq] a set.
func fnmatch(name, pattern string) bool {
	re, err := regexp.Compile(fnmatchRegexp(pattern))
	return err == nil && re.MatchString(name)
}

// fnmatchRegexp translates a shell-style pattern (Python's fnmatch.translate).
func fnmatchRegexp(pat string) string {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	rs := []rune(pat)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := i + 1
			if j < len(rs) && rs[j] == '!' {
				j++
			}
			if j < len(rs) && rs[j] == ']' {
				j++
			}
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if j >= len(rs) {
				b.WriteString(`\[`)
				continue
			}
			set := string(rs[i+1 : j])
			i = j
			neg := strings.HasPrefix(set, "!")
			set = strings.TrimPrefix(set, "!")
			set = strings.ReplaceAll(set, `\`, `\\`)
			if neg {
				b.WriteString("[^" + set + "]")
			} else {
				b.WriteString("[" + set + "]")
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString(`\z`)
	return b.String()
}

// header reads the integration's event header; a missing one is a MissingHeaderError.
func (r *Request) header(name string) (string, error) {
	v := r.Header.Values(name)
	if len(v) == 0 {
		return "", &MissingHeaderError{Header: name}
	}
	return v[0], nil
}

// unsupported is the error of an event the integration does not format.
func unsupported(event string) error { return &UnsupportedEventError{Event: event} }

// BotEntry is an entry of register's realm_incoming_webhook_bots: an integration the server
// serves, its event types (null when it does not filter events) and its options.
type BotEntry struct {
	Name          string   `json:"name"`
	DisplayName   string   `json:"display_name"`
	AllEventTypes []string `json:"all_event_types"`
	// ConfigOptions are options set when the bot is created (none here); URLOptions the
	// optional parameters of the integration's URL.
	ConfigOptions []URLOption `json:"config_options"`
	URLOptions    []URLOption `json:"url_options"`
}

// BotEntries lists the integrations as register's realm_incoming_webhook_bots does.
func BotEntries() []BotEntry {
	out := make([]BotEntry, len(registry))
	for i, in := range registry {
		opts := in.URLOptions
		if opts == nil {
			opts = []URLOption{}
		}
		out[i] = BotEntry{Name: in.Name, DisplayName: in.DisplayName, AllEventTypes: in.AllEventTypes,
			ConfigOptions: []URLOption{}, URLOptions: opts}
	}
	return out
}

// maxTopicLength is Zulip's MAX_TOPIC_NAME_LENGTH, in characters.
const maxTopicLength = 60

// truncateTopic shortens a topic past maxTopicLength to its start and "..." (Zulip's
// truncate_topic, which every webhook message goes through).
func truncateTopic(topic string) string {
	rs := []rune(topic)
	if len(rs) <= maxTopicLength {
		return topic
	}
	return string(rs[:maxTopicLength-3]) + "..."
}
