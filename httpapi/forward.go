package httpapi

import (
	"context"
	"math"
	"net/http"
	"net/http/httputil"
	"net/url"
	"time"

	chat "github.com/teamchat/chat"
)

// QueueRouter locates event queues when several processes share events (see chat.Bus): a queue
// lives on the process that registered it, and its id says which.
type QueueRouter interface {
	// RouteQueue reports whether this process holds the queue; if not, target is the base URL
	// of the process that does. Without a target, retry > 0 says that the process stopped
	// gracefully and is expected back with its queues (retry after that long); retry 0 that
	// it is gone.
	RouteQueue(ctx context.Context, queueID string) (local bool, target *url.URL, retry time.Duration, err error)
}

// forwardedHeader marks a request forwarded by another process: it is never forwarded again,
// so a disagreement between processes cannot loop.
const forwardedHeader = "X-Teamchat-Forwarded"

// routeQueue forwards a GET or DELETE /events naming another process's queue to that process,
// or answers BAD_EVENT_QUEUE_ID when the process is gone (its client registers again). While
// the process restarts (a graceful stop, expected back with its saved queues) it answers 503
// with Retry-After: Zulip's clients treat an error other than BAD_EVENT_QUEUE_ID as
// transient and poll the same queue again, as they do through the 502 of a restarting Zulip
// server, so they continue their queue once the process is back. It reports whether it
// answered.
func (h *Handler) routeQueue(w http.ResponseWriter, r *http.Request, p *params) bool {
	if h.opts.Queues == nil || r.Header.Get(forwardedHeader) != "" {
		return false
	}
	id, ok := p.values["queue_id"]
	if !ok || id == "" {
		return false
	}
	local, target, retry, err := h.opts.Queues.RouteQueue(r.Context(), id)
	switch {
	case err != nil:
		h.writeError(w, r, err)
		return true
	case local:
		return false
	case target == nil && retry > 0:
		h.writeError(w, r, (&chat.Error{Code: chat.CodeBadRequest, Status: http.StatusServiceUnavailable,
			Msg: "The server holding this event queue is restarting; try again"}).
			With("retry-after", math.Ceil(retry.Seconds())))
		return true
	case target == nil:
		h.writeError(w, r, chat.Errorf(chat.CodeBadEventQueueID, "Bad event queue ID: %s", id).With("queue_id", id))
		return true
	}
	// The body was read into p: the owner gets every parameter in the query string.
	query := url.Values{}
	for k, v := range p.values {
		query.Set(k, v)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.URL.RawQuery = query.Encode()
			pr.Out.Body = http.NoBody
			pr.Out.ContentLength = 0
			pr.Out.Header.Del("Content-Type")
			pr.Out.Header.Set(forwardedHeader, "1")
			pr.SetXForwarded()
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if r.Context().Err() != nil {
				return // the client left
			}
			h.log.Warn("forwarding an event queue request failed", "queue_id", id, "target", target.String(), "err", err)
			h.writeError(w, r, &chat.Error{Code: chat.CodeBadRequest, Status: http.StatusBadGateway,
				Msg: "The server holding this event queue is unreachable; try again"})
		},
	}
	proxy.ServeHTTP(w, r)
	return true
}
