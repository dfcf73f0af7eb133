package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	chat "github.com/teamchat/chat"
)

// StatusClientClosedRequest is the status recorded for a request whose client closed the
// connection before the answer (nginx's 499).
const StatusClientClosedRequest = 499

// writeError is the single place that turns an error into the error envelope: an *chat.Error
// found with errors.As gives its code, status, message and extra keys; anything else is a
// logged internal error with a generic message.
//
// A request whose client went away (an abandoned long-poll, say) is no failure of the server:
// it is answered with nginx's 499 "client closed request", which nobody reads but the request
// log and the metrics.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		w.WriteHeader(StatusClientClosedRequest)
		return
	}
	var e *chat.Error
	if !errors.As(err, &e) || e.Code == chat.CodeInternal {
		h.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]any{"result": "error", "msg": "Internal server error"})
		return
	}
	body := make(map[string]any, len(e.Extra)+3)
	for k, v := range e.Extra {
		body[k] = v
	}
	body["result"] = "error"
	body["msg"] = e.Msg
	body["code"] = string(e.Code)
	status := e.HTTPStatus()
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", wwwAuthenticate(r, e))
	}
	if retry, ok := e.Extra["retry-after"].(float64); ok {
		w.Header().Set("Retry-After", strconv.FormatFloat(retry, 'f', -1, 64))
	}
	writeJSON(w, status, body)
}

func writeNotFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]any{"result": "error", "msg": "Not Found", "code": string(chat.CodeNotFound)})
}

func writeMethodNotAllowed(w http.ResponseWriter, allowed []string) {
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	writeJSON(w, http.StatusMethodNotAllowed, map[string]any{"result": "error", "msg": "Method Not Allowed", "allowed_methods": allowed})
}

// writeSuccess writes {"result":"success","msg":"", ...result's keys,
// "ignored_parameters_unsupported": [...]}. result must marshal to a JSON object (or be nil).
// The envelope is built in one buffer, the result appended in place (a jsonAppender writes
// itself into it), and written at once with its Content-Length.
func writeSuccess(w http.ResponseWriter, result any, ignored []string) {
	b, err := appendSuccess(make([]byte, 0, 512), result, ignored)
	writeSuccessBody(w, b, err)
}

// writeSuccess writes as the function writeSuccess does, in a buffer of the handler's pool.
func (h *Handler) writeSuccess(w http.ResponseWriter, result any, ignored []string) {
	bp := h.buffers.Get().(*[]byte)
	b, err := appendSuccess((*bp)[:0], result, ignored)
	if r, ok := result.(releaser); ok { // encoded: its arrays may serve the next request
		r.Release()
	}
	writeSuccessBody(w, b, err)
	if cap(b) <= maxPooledBuffer { // a large register's buffer is left to the collector
		*bp = b
		h.buffers.Put(bp)
	}
}

// releaser is a result whose memory may be reused once it is encoded
// (chat.GetSubscriptionsResult).
type releaser interface{ Release() }

// maxPooledBuffer is the largest buffer Handler.buffers keeps.
const maxPooledBuffer = 256 << 10

// writeSuccessBody writes the envelope appendSuccess built (a 500 when it failed).
func writeSuccessBody(w http.ResponseWriter, b []byte, err error) {
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]any{"result": "error", "msg": "Internal server error"})
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// appendSuccess appends the success envelope of result to b (see writeSuccess).
func appendSuccess(b []byte, result any, ignored []string) ([]byte, error) {
	b = append(b, `{"result":"success","msg":""`...)
	if result != nil {
		mark := len(b)
		var err error
		if a, ok := result.(jsonAppender); ok {
			b, err = a.AppendJSON(b)
		} else {
			var body []byte
			if body, err = json.Marshal(result); err == nil {
				b = append(b, body...)
			}
		}
		if b, err = mergeResult(b, mark, err); err != nil {
			return b, err
		}
	}
	return appendIgnored(b, ignored), nil
}

// appendEventsSuccess is appendSuccess for a GET /events result (without boxing it).
func appendEventsSuccess(b []byte, res chat.GetEventsResult, ignored []string) ([]byte, error) {
	b = append(b, `{"result":"success","msg":""`...)
	mark := len(b)
	b, err := res.AppendJSON(b)
	if b, err = mergeResult(b, mark, err); err != nil {
		return b, err
	}
	return appendIgnored(b, ignored), nil
}

// mergeResult turns the result's JSON object, appended to b from mark, into members of the
// envelope; err is the encoding's error.
func mergeResult(b []byte, mark int, err error) ([]byte, error) {
	if err != nil || len(b)-mark < 2 || b[mark] != '{' || b[len(b)-1] != '}' {
		return b, errNotAnObject
	}
	if len(b)-mark == 2 { // {}
		return b[:mark], nil
	}
	// the result's members follow the envelope's
	b[mark] = ','
	return b[:len(b)-1], nil
}

// appendIgnored ends the envelope, with the ignored parameters if any.
func appendIgnored(b []byte, ignored []string) []byte {
	if len(ignored) > 0 {
		list, _ := json.Marshal(ignored)
		b = append(b, `,"ignored_parameters_unsupported":`...)
		b = append(b, list...)
	}
	return append(b, "}\n"...)
}

// errNotAnObject is a result that did not encode to a JSON object.
var errNotAnObject = errors.New("httpapi: result is not a JSON object")

// jsonAppender is a result that writes its own JSON object (GetEventsResult: its events are
// encoded once per form, and json.Marshal would validate every byte of them again;
// GetSubscriptionsResult: its records are written by hand).
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"result":"error","msg":"Internal server error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
