package httpapi

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/integrations"
	"github.com/teamchat/chat/users"
)

// The error codes of Zulip's incoming webhooks.
const (
	codeUnsupportedWebhookEvent chat.Code = "UNSUPPORTED_WEBHOOK_EVENT_TYPE"
	codeMissingEventHeader      chat.Code = "MISSING_HTTP_EVENT_HEADER"
	codeAnomalousWebhookPayload chat.Code = "ANOMALOUS_WEBHOOK_PAYLOAD"
)

// incomingWebhook serves POST /external/{integration}: Zulip's incoming webhook URLs. The
// bot is authenticated by its api_key parameter (or HTTP Basic credentials), the integration
// formats the request, and each of its messages is sent as the bot: to the stream parameter's
// channel (a name, or an id in digits) and the message's topic, or to the bot's owner when
// the URL names no channel. A request the integration refuses sends nothing.
func (h *Handler) incomingWebhook(r *request) (any, error) {
	in, ok := integrations.Lookup(r.path["integration"])
	if !ok || strings.HasPrefix(cleanPath(r.http.URL.Path), webPrefix) { // Zulip has no /json/external/
		return nil, chat.Errorf(chat.CodeNotFound, "Not Found")
	}
	req, err := h.webhookRequest(r) // first: a form body may hold the api_key
	if err != nil {
		return nil, err
	}
	actor, err := h.webhookActor(r)
	if err != nil {
		return nil, err
	}
	req.People = h.people(r, actor)
	msgs, err := in.Run(req)
	if err != nil {
		h.noticeOwner(r, actor, in, err)
		return nil, webhookError(err)
	}
	if len(msgs) == 0 {
		return struct{}{}, nil
	}
	sp := chat.SendMessageParams{Type: "direct", Client: in.Client()}
	if stream, ok := r.params.str("stream"); ok {
		stream = in.UnquoteParameter(stream)
		sp.Type = "stream"
		if id, err := strconv.ParseInt(stream, 10, 64); err == nil && isDecimal(stream) {
			cid := channels.ID(id)
			sp.ChannelID = &cid
		} else {
			sp.ChannelName = stream
		}
	} else {
		owner, err := h.botOwner(r, actor)
		if err != nil {
			return nil, err
		}
		sp.UserIDs = []users.ID{owner}
	}
	for _, m := range msgs {
		p := sp
		if p.Type == "stream" {
			topic := m.Topic
			p.Topic = &topic
		}
		p.Content = m.Content
		if _, err := h.svc.SendMessage(r.ctx, actor, p); err != nil {
			// Zulip answers success when the channel does not exist (check_send_webhook_message).
			if e := (*chat.Error)(nil); errors.As(err, &e) && e.Code == chat.CodeStreamDoesNotExist {
				return struct{}{}, nil
			}
			return nil, err
		}
	}
	return struct{}{}, nil
}

// isDecimal reports whether s is all ASCII digits (Python's str.isdecimal, for ids).
func isDecimal(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// webhookActor authenticates an integration's request: the api_key parameter (the key alone,
// as Zulip's webhook_view reads it), else HTTP Basic credentials. Incoming webhook bots are
// accepted.
func (h *Handler) webhookActor(r *request) (chat.Actor, error) {
	if key, ok := r.params.str("api_key"); ok {
		return h.svc.AuthenticateWebhookAPIKeyFrom(r.ctx, "", key, clientAddress(r.http))
	}
	if header := r.http.Header.Get("Authorization"); header != "" {
		email, key, err := basicCredentials(header)
		if err != nil {
			return chat.Actor{}, err
		}
		return h.svc.AuthenticateWebhookAPIKeyFrom(r.ctx, email, key, clientAddress(r.http))
	}
	return chat.Actor{}, chat.MissingArgument("api_key")
}

// webhookRequest gathers what the integration reads: the raw body (bounded like every body,
// whatever its Content-Type; a form's fields also become parameters), the headers, the
// parameters, and the common parameters topic, only_events and exclude_events.
func (h *Handler) webhookRequest(r *request) (*integrations.Request, error) {
	req := &integrations.Request{Header: r.http.Header, Params: r.params.lookup, Topic: r.params.optStr("topic")}
	if r.http.Body != nil && r.http.Body != http.NoBody {
		if r.http.ContentLength > h.opts.MaxBodyBytes {
			return nil, errBodyTooLarge()
		}
		body := &boundedReader{r: r.http.Body, left: h.opts.MaxBodyBytes}
		b, err := io.ReadAll(body)
		if err != nil {
			return nil, body.failure(err)
		}
		req.Body = b
		// Zulip reads the raw body whatever its type (Grafana sends JSON as a form); a form's
		// fields are parameters too (Slack's payload).
		if media, _, _ := mime.ParseMediaType(r.http.Header.Get("Content-Type")); media == mediaForm {
			_ = parseURLEncoded(string(b), r.params.values)
		}
	}
	for _, f := range []struct {
		name string
		dst  *[]string
	}{{"only_events", &req.OnlyEvents}, {"exclude_events", &req.ExcludeEvents}} {
		list, err := jsonParam[[]string](r.params, f.name, false)
		if err != nil {
			return nil, err
		}
		if list != nil {
			*f.dst = *list
		}
	}
	// The URL's other parameters are the integration's options, and a form's fields its
	// payload: none is reported as ignored.
	for k := range r.params.values {
		r.params.read[k] = struct{}{}
	}
	return req, nil
}

// noticeOwner tells a bot's owner, at most once a minute, that its integration URL got a
// request without the event header, with a body that is not JSON, or (for the integrations
// that say so) without the data the integration needs (Zulip's
// send_rate_limited_pm_notification_to_bot_owner). The notification bot sends it, as Zulip's
// does (Service.NotifyBotOwner).
func (h *Handler) noticeOwner(r *request, actor chat.Actor, in *integrations.Integration, cause error) {
	var (
		header  *integrations.MissingHeaderError
		invalid *integrations.InvalidPayloadError
	)
	missingHeader, invalidPayload := errors.As(cause, &header), errors.As(cause, &invalid)
	if !missingHeader && !invalidPayload && !errors.Is(cause, integrations.ErrInvalidJSON) {
		return
	}
	res, err := h.svc.GetUser(r.ctx, actor, chat.GetUserParams{UserID: actor.UserID})
	if err != nil || res.User.BotOwnerID == nil || res.User.BotOwnerID.ID == 0 {
		return
	}
	if !h.notices.Allow(int64(actor.UserID), time.Now()) {
		return
	}
	const support = "your server's administrators"
	content := integrations.InvalidJSONNotice(in.ClientName)
	switch {
	case missingHeader:
		content = integrations.MissingHeaderNotice(res.User.FullName, r.http.URL.Path, header.Header, in.DisplayName, support)
	case invalidPayload:
		content = invalid.Notice(res.User.FullName, support)
	}
	if _, err := h.svc.NotifyBotOwner(r.ctx, chat.NotifyBotOwnerParams{BotID: actor.UserID, Content: content}); err != nil {
		h.log.Warn("notice to a bot's owner not sent", "bot", actor.UserID, "err", err)
	}
}

// people lists the organization's users as the bot sees them, read once, when first needed
// (a failed read lists nobody).
func (h *Handler) people(r *request, actor chat.Actor) func() []integrations.Person {
	var list []integrations.Person
	done := false
	return func() []integrations.Person {
		if done {
			return list
		}
		done = true
		res, err := h.svc.GetUsers(r.ctx, actor, chat.GetUsersParams{})
		if err != nil {
			return nil
		}
		for _, u := range res.Members {
			email := u.Email
			if u.DeliveryEmail != nil {
				email = *u.DeliveryEmail
			}
			list = append(list, integrations.Person{FullName: u.FullName, Email: email, Active: u.IsActive == nil || *u.IsActive})
		}
		return list
	}
}

// botOwner is whom a webhook's direct messages go to: the bot's owner (a user who is not a
// bot, or a bot without an owner, gets them itself).
func (h *Handler) botOwner(r *request, actor chat.Actor) (users.ID, error) {
	res, err := h.svc.GetUser(r.ctx, actor, chat.GetUserParams{UserID: actor.UserID})
	if err != nil {
		return 0, err
	}
	if o := res.User.BotOwnerID; o != nil && o.ID != 0 {
		return o.ID, nil
	}
	return actor.UserID, nil
}

// webhookError words an integration's refusal as Zulip does.
func webhookError(err error) error {
	var (
		unsupported *integrations.UnsupportedEventError
		header      *integrations.MissingHeaderError
		anomalous   *integrations.AnomalousPayloadError
		missing     *integrations.MissingParamError
		bad         *integrations.BadRequestError
	)
	switch {
	case errors.Is(err, integrations.ErrInvalidJSON):
		return chat.Errorf(chat.CodeInvalidJSON, "Malformed JSON")
	case errors.As(err, &unsupported):
		return &chat.Error{Code: codeUnsupportedWebhookEvent, Status: http.StatusOK, Msg: err.Error(),
			Extra: map[string]any{"webhook_name": unsupported.Webhook, "event_type": unsupported.Event}}
	case errors.As(err, &header):
		return &chat.Error{Code: codeMissingEventHeader, Msg: err.Error(), Extra: map[string]any{"header": header.Header}}
	case errors.As(err, &anomalous):
		return &chat.Error{Code: codeAnomalousWebhookPayload, Msg: err.Error(), Extra: map[string]any{"webhook_name": anomalous.Webhook}}
	case errors.As(err, &missing):
		return chat.MissingArgument(missing.Param)
	case errors.As(err, new(*integrations.InvalidPayloadError)):
		return chat.Errorf(chat.CodeBadRequest, "Invalid payload")
	case errors.As(err, &bad):
		return chat.Errorf(chat.CodeBadRequest, "%s", bad.Msg)
	}
	return err
}
