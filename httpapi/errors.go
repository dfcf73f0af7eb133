package httpapi

import (
	"bytes"
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
func writeSuccess(w http.ResponseWriter, result any, ignored []string) {
	var buf bytes.Buffer
	buf.WriteString(`{"result":"success","msg":""`)
	if result != nil {
		body, err := marshalResult(result)
		if err != nil || len(body) < 2 || body[0] != '{' {
			writeJSON(w, http.StatusInternalServerError, map[string]any{"result": "error", "msg": "Internal server error"})
			return
		}
		if inner := body[1 : len(body)-1]; len(inner) > 0 {
			buf.WriteByte(',')
			buf.Write(inner)
		}
	}
	if len(ignored) > 0 {
		list, _ := json.Marshal(ignored)
		buf.WriteString(`,"ignored_parameters_unsupported":`)
		buf.Write(list)
	}
	buf.WriteString("}\n")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// jsonAppender is a result that writes its own JSON object (GetEventsResult: its events are
// encoded once per form, and json.Marshal would validate every byte of them again).
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// marshalResult encodes a result as a JSON object.
func marshalResult(result any) ([]byte, error) {
	if a, ok := result.(jsonAppender); ok {
		return a.AppendJSON(make([]byte, 0, 512))
	}
	return json.Marshal(result)
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
