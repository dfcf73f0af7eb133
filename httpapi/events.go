package httpapi

import (
	"encoding/json"
	"time"

	chat "github.com/teamchat/chat"
)

// registerParams decodes the parameters of POST /register (also accepted by GET /events when
// it registers a queue).
func registerParams(p *params) (chat.RegisterQueueParams, error) {
	var (
		rp  chat.RegisterQueueParams
		err error
	)
	if rp.ApplyMarkdown, err = p.boolOr("apply_markdown", false); err != nil {
		return rp, err
	}
	if rp.ClientGravatar, err = p.boolean("client_gravatar"); err != nil {
		return rp, err
	}
	rp.IncludeSubscribers, _ = p.str("include_subscribers")
	if rp.SlimPresence, err = p.boolOr("slim_presence", false); err != nil {
		return rp, err
	}
	if rp.PresenceHistoryLimitDays, err = p.integer("presence_history_limit_days"); err != nil {
		return rp, err
	}
	if rp.EventTypes, err = optionalList(p, "event_types"); err != nil {
		return rp, err
	}
	if rp.FetchEventTypes, err = optionalList(p, "fetch_event_types"); err != nil {
		return rp, err
	}
	if rp.AllPublicStreams, err = p.boolean("all_public_streams"); err != nil {
		return rp, err
	}
	narrow, err := jsonParam[[][]string](p, "narrow", false)
	if err != nil {
		return rp, err
	}
	if narrow != nil {
		rp.Narrow = *narrow
	}
	caps, err := jsonParam[chat.ClientCapabilities](p, "client_capabilities", false)
	if err != nil {
		return rp, err
	}
	if caps != nil {
		rp.ClientCapabilities = *caps
	}
	if rp.IdleQueueTimeout, err = idleQueueTimeout(p); err != nil {
		return rp, err
	}
	for _, name := range []string{"queue_lifespan_secs", "lifespan_secs"} {
		if v, err := p.integer(name); err != nil {
			return rp, err
		} else if v != nil {
			rp.QueueLifespanSecs = v
		}
	}
	return rp, nil
}

// optionalList decodes a JSON list of strings; nil when absent (null also means absent).
func optionalList(p *params, name string) ([]string, error) {
	l, err := jsonParam[[]string](p, name, false)
	if err != nil || l == nil {
		return nil, err
	}
	if *l == nil {
		return nil, nil
	}
	return *l, nil
}

// idleQueueTimeout reads idle_queue_timeout: JSON integer seconds, or "mobile" (quoted or
// not).
func idleQueueTimeout(p *params) (*time.Duration, error) {
	raw, ok := p.str("idle_queue_timeout")
	if !ok {
		return nil, nil
	}
	if raw == "mobile" || raw == `"mobile"` {
		d := chat.MobileIdleQueueTimeout
		return &d, nil
	}
	var secs int64
	if err := json.Unmarshal([]byte(raw), &secs); err != nil {
		return nil, chat.InvalidArgument("idle_queue_timeout", "")
	}
	if secs <= 0 {
		return nil, chat.Errorf(chat.CodeBadRequest, "idle_queue_timeout is too small")
	}
	d := time.Duration(min(secs, int64(chat.MaxIdleQueueTimeout/time.Second))) * time.Second
	return &d, nil
}

// registerQueue serves POST /register.
func (h *Handler) registerQueue(r *request) (any, error) {
	rp, err := registerParams(r.params)
	if err != nil {
		return nil, err
	}
	res, err := h.svc.RegisterQueue(r.ctx, r.actor, rp)
	if err != nil {
		return nil, err
	}
	return registerJSON{svc: h.svc, res: res}, nil
}

// registerJSON is a register response, encoded by the Service (which reuses the JSON of
// the user records it keeps).
type registerJSON struct {
	svc *chat.Service
	res chat.RegisterQueueResult
}

// AppendJSON makes registerJSON a jsonAppender.
func (j registerJSON) AppendJSON(b []byte) ([]byte, error) { return j.svc.AppendRegisterJSON(b, j.res) }

// getEvents serves GET /events.
func (h *Handler) getEvents(r *request) (any, error) {
	gp, err := eventsParams(r.params)
	if err != nil {
		return nil, err
	}
	return h.svc.GetEvents(r.ctx, r.actor, gp)
}

// eventsParams decodes the parameters of GET /events.
func eventsParams(p *params) (chat.GetEventsParams, error) {
	var (
		gp  chat.GetEventsParams
		err error
	)
	gp.QueueID, _ = p.str("queue_id")
	if gp.LastEventID, err = p.integer("last_event_id"); err != nil {
		return gp, err
	}
	if gp.DontBlock, err = p.boolOr("dont_block", false); err != nil {
		return gp, err
	}
	if gp.QueueID == "" {
		if gp.Register, err = registerParams(p); err != nil {
			return gp, err
		}
	}
	return gp, nil
}

// deleteQueue serves DELETE /events.
func (h *Handler) deleteQueue(r *request) (any, error) {
	id, err := r.params.requiredStr("queue_id")
	if err != nil {
		return nil, err
	}
	return h.svc.DeleteQueue(r.ctx, r.actor, chat.DeleteQueueParams{QueueID: id})
}
