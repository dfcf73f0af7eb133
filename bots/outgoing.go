package bots

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/teamchat/chat/users"
)

// Payload is the body of a call of an outgoing webhook in Zulip's format, its fields in
// Zulip's order (GenericOutgoingWebhookService.make_request).
type Payload struct {
	// Data is the message's content, in Markdown.
	Data string `json:"data"`
	// Message is the triggering message, as recorded when it was sent.
	Message json.RawMessage `json:"message"`
	// BotEmail and BotFullName name the bot.
	BotEmail    string `json:"bot_email"`
	BotFullName string `json:"bot_full_name"`
	// Token is the bot's service token, with which the webhook authenticates the call.
	Token string `json:"token"`
	// Trigger is TriggerMention or TriggerDirectMessage.
	Trigger string `json:"trigger"`
}

// outcome is what one attempt of a job came to; the finishing transaction acts on it.
type outcome struct {
	// reply is the bot's answer, posted where the message was sent ("": none); reactions are
	// the emoji the bot reacts with to the message.
	reply     string
	reactions []Reaction
	// response is the webhook's answer, quoted to the owner when it cannot be acted on.
	response string
	// failure, when not "", is posted there as "Failure! " + failure.
	failure string
	// owner, when not "", is told to the bot's owner after the first line of Zulip's notice.
	owner string
	// retry asks for another attempt; retryNotice is what the owner is told when the attempts
	// are exhausted.
	retry       bool
	retryNotice string
	// released: the worker stopped during the attempt, which does not count.
	released bool
}

// webhookCall is one call of an outgoing webhook.
type webhookCall struct {
	bot     users.User
	service users.BotService
	trigger string
	message string // JSON
	msg     Message
}

// callWebhook makes one attempt of a job of an outgoing webhook bot, within Config.Timeout,
// and judges the response as Zulip's do_rest_call does. parent is the worker's context: its
// end abandons the attempt.
func (s *Service) callWebhook(parent context.Context, c webhookCall) outcome {
	ctx, cancel := context.WithTimeout(parent, s.cfg.Timeout)
	defer cancel()
	req, ok, err := s.webhookRequest(ctx, c)
	if !ok {
		return outcome{failure: "Slack outgoing webhooks don't support private messages."}
	}
	if err != nil {
		return exceptionOutcome(c, "InvalidURL", err)
	}
	start := time.Now()
	resp, err := s.client.Do(req)
	s.log.Info("outgoing webhook request", "bot", c.bot.ID, "message", c.msg.ID, "took", time.Since(start))
	if err != nil {
		return s.transportOutcome(parent, c, err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, s.cfg.MaxResponseBytes+1))
	if err != nil {
		return s.transportOutcome(parent, c, err)
	}
	if int64(len(body)) > s.cfg.MaxResponseBytes {
		return exceptionOutcome(c, "ContentTooLarge",
			fmt.Errorf("the response is longer than %d bytes", s.cfg.MaxResponseBytes))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		s.log.Warn("outgoing webhook answered with an error status", "bot", c.bot.ID, "message", c.msg.ID,
			"status", resp.StatusCode)
		return outcome{failure: fmt.Sprintf("Third party responded with %d", resp.StatusCode),
			owner: statusNotice(resp.StatusCode) + payloadNotice(pyRepr(string(body), true))}
	}
	content, reactions, err := responseContent(c.service.Interface, body)
	if err != nil {
		return outcome{failure: err.Error(), owner: attemptedNotice(err.Error(), string(body))}
	}
	return outcome{reply: content, reactions: reactions, response: string(body)}
}

// attemptedNotice is the owner's lines about an answer of the webhook Zulip could not act on.
func attemptedNotice(msg, response string) string {
	return "\nThe outgoing webhook server attempted to send a message in Zulip, but that request resulted in the " +
		"following error:\n> " + msg + payloadNotice(pyRepr(response, false))
}

// webhookRequest builds the call: Zulip's JSON payload, or Slack's form (channel messages
// only: ok is false for a direct message).
func (s *Service) webhookRequest(ctx context.Context, c webhookCall) (*http.Request, bool, error) {
	var (
		body  []byte
		ctype string
	)
	if c.service.Interface == users.ServiceInterfaceSlack {
		if c.msg.IsDirect() {
			return nil, false, nil
		}
		body, ctype = slackForm(c), "application/x-www-form-urlencoded"
	} else {
		var err error
		body, err = json.Marshal(Payload{Data: c.msg.Content, Message: json.RawMessage(c.message),
			BotEmail: c.bot.Email, BotFullName: c.bot.FullName, Token: c.service.Token, Trigger: c.trigger})
		if err != nil {
			return nil, true, err
		}
		ctype = "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.service.BaseURL, bytes.NewReader(body))
	if err != nil {
		return nil, true, err
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("User-Agent", s.cfg.UserAgent)
	return req, true, nil
}

// slackForm is Slack's outgoing webhook form, its fields in Zulip's order
// (SlackOutgoingWebhookService.make_request).
func slackForm(c webhookCall) []byte {
	m := c.msg
	_, domain, _ := strings.Cut(m.SenderEmail, "@")
	fields := [][2]string{
		{"token", c.service.Token},
		{"team_id", m.SenderRealmStr},
		{"team_domain", strings.ToLower(domain)},
		{"channel_id", strconv.FormatInt(m.StreamID, 10)},
		{"channel_name", m.ChannelName},
		{"timestamp", strconv.FormatInt(m.Timestamp, 10)},
		{"user_id", strconv.FormatInt(m.SenderID, 10)},
		{"user_name", m.SenderFullName},
		{"text", m.Content},
		{"trigger_word", c.trigger},
		{"service_id", strconv.FormatInt(int64(c.bot.ID), 10)},
	}
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(formEscape(f[0]))
		b.WriteByte('=')
		b.WriteString(formEscape(f[1]))
	}
	return []byte(b.String())
}

// formEscape encodes a form field as Python's urlencode does (spaces as '+').
func formEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '-', c == '~':
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// Reaction is an emoji reaction a webhook's answer asks the bot to add to the message
// (Zulip's add_response_reaction): EmojiCode and ReactionType are optional.
type Reaction struct {
	EmojiName               string
	EmojiCode, ReactionType *string
}

// maxReactions bounds the reactions one answer adds.
const maxReactions = 20

// responseContent reads a webhook's successful response (Zulip's process_success_response):
// the content to post ("" when nothing is to be posted) and the reactions to add.
func responseContent(iface int, body []byte) (string, []Reaction, error) {
	v, err := decodeJSONValue(body)
	if err != nil {
		return "", nil, errors.New("Invalid JSON in response")
	}
	if v == "" {
		return "", nil, nil // zulip_botserver's old "no response required"
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return "", nil, errors.New("Invalid response format")
	}
	var content any
	if iface == users.ServiceInterfaceSlack {
		content = obj["text"]
	} else {
		if truthy(obj["response_not_required"]) {
			return "", nil, nil
		}
		content, ok = obj["response_string"] // deprecated, still read first
		if !ok {
			content = obj["content"]
		}
	}
	text := pyStr(content)
	if strings.TrimSpace(text) == "" {
		text = ""
	}
	if iface == users.ServiceInterfaceSlack || obj["response_string"] != nil {
		return text, nil, nil
	}
	list, _ := obj["reactions"].([]any)
	var reactions []Reaction
	for _, item := range list[:min(len(list), maxReactions)] {
		r, _ := item.(map[string]any)
		reactions = append(reactions, Reaction{EmojiName: optStr(r["emoji_name"]), EmojiCode: optStrPtr(r["emoji_code"]),
			ReactionType: optStrPtr(r["reaction_type"])})
	}
	return text, reactions, nil
}

// optStr is a JSON string's value ("" for anything else); optStrPtr a pointer to it, nil for
// anything else.
func optStr(v any) string { s, _ := v.(string); return s }

func optStrPtr(v any) *string {
	if s, ok := v.(string); ok {
		return &s
	}
	return nil
}

// decodeJSONValue reads one JSON value, numbers kept as written: Python reads 1E1000 as inf
// where encoding/json's float64 refuses it, and valid JSON is never "Invalid JSON".
func decodeJSONValue(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// truthy is Python's truth of a JSON value.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return err != nil || f != 0 // out of range is Python's inf: true
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// pyStr is the text of a response's content: a string as it is, nothing as "", anything else
// as its JSON.
func pyStr(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// transportOutcome judges a call that got no response: a timeout or a connection error is
// retried, a refused private address is Zulip's 407, anything else is an exception. An ended
// parent context releases the job.
func (s *Service) transportOutcome(parent context.Context, c webhookCall, err error) outcome {
	var private *PrivateTargetError
	var nerr net.Error
	switch {
	case parent.Err() != nil:
		return outcome{released: true}
	case errors.As(err, &private):
		return outcome{failure: "Third party responded with 407", owner: statusNotice(http.StatusProxyAuthRequired)}
	case errors.As(err, &nerr) && nerr.Timeout(), errors.Is(err, context.DeadlineExceeded):
		s.log.Info("outgoing webhook timed out; retrying", "bot", c.bot.ID, "message", c.msg.ID)
		return outcome{retry: true, retryNotice: s.timeoutNotice()}
	case errors.Is(err, errTooManyRedirects):
		return exceptionOutcome(c, "TooManyRedirects", errTooManyRedirects)
	default:
		s.log.Info("outgoing webhook connection error; retrying", "bot", c.bot.ID, "message", c.msg.ID, "err", err)
		return outcome{retry: true, retryNotice: "A connection error occurred. Is my bot server down?"}
	}
}

// timeoutNotice is the owner's line about a call that timed out every time.
func (s *Service) timeoutNotice() string {
	return "Request timed out after " + strconv.FormatFloat(s.cfg.Timeout.Seconds(), 'f', -1, 64) + " seconds."
}

// exceptionOutcome is Zulip's answer to an exception of the call other than a timeout or a
// connection error.
func exceptionOutcome(c webhookCall, kind string, err error) outcome {
	return outcome{
		failure: fmt.Sprintf("An exception of type *%s* occurred for message `%s`! See the Zulip server logs for more information.",
			kind, c.msg.Content),
		owner: fmt.Sprintf("\nWhen trying to send a request to the webhook service, an exception of type %s occurred:\n```\n%s\n```",
			kind, err),
	}
}

// statusNotice is the owner's line about an error status.
func statusNotice(code int) string {
	if code == http.StatusProxyAuthRequired {
		return "\nThe URL configured for the webhook is for a private or disallowed network."
	}
	return fmt.Sprintf("\nThe webhook got a response with status code *%d*.", code)
}

// payloadNotice is the owner's lines quoting a response ("" for an empty one).
func payloadNotice(repr string) string {
	if repr == "b''" || repr == "''" {
		return ""
	}
	return "\nThe response contains the following payload:\n```\n" + repr + "\n```"
}
