package engine_test

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
)

// TestInvalidStringIsABadRequest pins the answer to text a store refused: BAD_REQUEST (400),
// never an internal error, whichever of the engine's error paths carries it, with the store's
// error kept for errors.Is.
func TestInvalidStringIsABadRequest(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	refused := fmt.Errorf("create user: %w", fmt.Errorf("sqlstore: argument 2: %w", storage.ErrInvalidString))
	type answer struct {
		Code   engine.Code
		Status int
		Msg    string
		Is     bool
	}
	for _, tt := range []struct {
		name string
		err  error
		want answer
	}{
		{"StorageError", engine.StorageError(log, refused), answer{engine.CodeBadRequest, http.StatusBadRequest, "Invalid text: must not contain null bytes or invalid UTF-8", true}},
		{"InternalError", engine.InternalError(refused), answer{engine.CodeBadRequest, http.StatusBadRequest, "Invalid text: must not contain null bytes or invalid UTF-8", true}},
		{"AsError", engine.AsError(refused), answer{engine.CodeBadRequest, http.StatusBadRequest, "Invalid text: must not contain null bytes or invalid UTF-8", true}},
		{"another storage failure", engine.StorageError(log, errors.New("disk on fire")), answer{engine.CodeInternal, http.StatusInternalServerError, "Internal server error", false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var e *engine.Error
			if !errors.As(tt.err, &e) {
				t.Fatalf("%v is no *engine.Error", tt.err)
			}
			got := answer{e.Code, e.HTTPStatus(), e.Msg, errors.Is(tt.err, storage.ErrInvalidString)}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%v (-want +got):\n%s", refused, diff)
			}
		})
	}
}
