package httpapi

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
)

// TestErrorStatusPerCode: the error writer answers each code of the engine with its status
// (Zulip's http_status_code for the exception carrying it, zerver/lib/exceptions.py; 503 for the
// engine's two try-again codes, with the Retry-After header), and the code in the body; an
// internal error is a 500 without a code.
func TestErrorStatusPerCode(t *testing.T) {
	t.Parallel()
	h := New(nil, Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	tests := []struct {
		code   chat.Code
		status int
	}{
		{"BAD_REQUEST", 400}, {"REQUEST_VARIABLE_MISSING", 400}, {"REQUEST_VARIABLE_INVALID", 400},
		{"REQUEST_CONFUSING_VAR", 400}, {"INVALID_JSON", 400}, {"STREAM_DOES_NOT_EXIST", 400},
		{"UNAUTHORIZED_PRINCIPAL", 400}, {"CANNOT_DEACTIVATE_LAST_USER", 400}, {"BAD_EVENT_QUEUE_ID", 400},
		{"CHANNEL_ALREADY_EXISTS", 409}, {"UNAUTHORIZED", 401}, {"AUTHENTICATION_FAILED", 401},
		{"USER_DEACTIVATED", 401}, {"REALM_DEACTIVATED", 401}, {"PASSWORD_AUTH_DISABLED", 401},
		{"PASSWORD_RESET_REQUIRED", 401}, {"INVALID_API_KEY", 401}, {"NONEXISTENT_SUBDOMAIN", 404},
		{"RATE_LIMIT_HIT", 429}, {"NOT_FOUND", 404}, {"BAD_NARROW", 400}, {"EXPECTATION_MISMATCH", 400},
		{"REALM_UPLOAD_QUOTA", 400}, {"BAD_IMAGE", 400}, {"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", 400},
		{"REACTION_ALREADY_EXISTS", 400}, {"REACTION_DOES_NOT_EXIST", 400},
		{"PUSH_SERVICE_NOT_CONFIGURED", 400}, {"CSRF_FAILED", 403},
		{"SERVER_SHUTTING_DOWN", 503}, {"WRITE_CONFLICT", 503}, {chat.CodeInternal, 500},
	}
	for _, tt := range tests {
		e := &chat.Error{Code: tt.code, Msg: "the message"}
		if tt.status == http.StatusServiceUnavailable {
			e.Extra = map[string]any{"retry-after": float64(1)}
		}
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/api/v1/messages", nil)
		h.writeError(w, r, e)
		if w.Code != tt.status {
			t.Errorf("%q: status %d, want %d", tt.code, w.Code, tt.status)
		}
		var body map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("%q: body %q: %v", tt.code, w.Body, err)
		}
		want := map[string]any{"result": "error", "msg": "the message", "code": string(tt.code)}
		switch tt.status {
		case http.StatusInternalServerError:
			want = map[string]any{"result": "error", "msg": "Internal server error"}
		case http.StatusServiceUnavailable:
			want["retry-after"] = float64(1)
			if got := w.Header().Get("Retry-After"); got != "1" {
				t.Errorf("%q: Retry-After %q, want 1", tt.code, got)
			}
		}
		if diff := cmp.Diff(want, body); diff != "" {
			t.Errorf("%q: body (-want +got):\n%s", tt.code, diff)
		}
	}
}
