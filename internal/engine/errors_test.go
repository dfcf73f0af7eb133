package engine_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
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

// codeStatuses is every error code of the engine with its HTTP status: Zulip's
// http_status_code of the exception that carries the code (zerver/lib/exceptions.py: 400 unless
// the class overrides it), and 503 for the two codes of our own that ask the client to try
// again.
var codeStatuses = map[engine.Code]int{
	engine.CodeBadRequest:                    http.StatusBadRequest,
	engine.CodeRequestVariableMissing:        http.StatusBadRequest,
	engine.CodeRequestVariableInvalid:        http.StatusBadRequest,
	engine.CodeRequestConfusingVar:           http.StatusBadRequest,
	engine.CodeInvalidJSON:                   http.StatusBadRequest,
	engine.CodeStreamDoesNotExist:            http.StatusBadRequest,
	engine.CodeUnauthorizedPrincipal:         http.StatusBadRequest,
	engine.CodeCannotDeactivateLastUser:      http.StatusBadRequest,
	engine.CodeBadEventQueueID:               http.StatusBadRequest,
	engine.CodeChannelAlreadyExists:          http.StatusConflict,
	engine.CodeUnauthorized:                  http.StatusUnauthorized,
	engine.CodeAuthenticationFailed:          http.StatusUnauthorized,
	engine.CodeUserDeactivated:               http.StatusUnauthorized,
	engine.CodeRealmDeactivated:              http.StatusUnauthorized,
	engine.CodePasswordAuthDisabled:          http.StatusUnauthorized,
	engine.CodePasswordResetRequired:         http.StatusUnauthorized,
	engine.CodeInvalidAPIKey:                 http.StatusUnauthorized,
	engine.CodeNonexistentSubdomain:          http.StatusNotFound,
	engine.CodeRateLimitHit:                  http.StatusTooManyRequests,
	engine.CodeNotFound:                      http.StatusNotFound,
	engine.CodeBadNarrow:                     http.StatusBadRequest,
	engine.CodeExpectationMismatch:           http.StatusBadRequest,
	engine.CodeRealmUploadQuota:              http.StatusBadRequest,
	engine.CodeBadImage:                      http.StatusBadRequest,
	engine.CodeMoveMessagesTimeLimitExceeded: http.StatusBadRequest,
	engine.CodeReactionAlreadyExists:         http.StatusBadRequest,
	engine.CodeReactionDoesNotExist:          http.StatusBadRequest,
	engine.CodePushServiceNotConfigured:      http.StatusBadRequest,
	engine.CodeCSRFFailed:                    http.StatusForbidden,
	engine.CodeServerShuttingDown:            http.StatusServiceUnavailable,
	engine.CodeWriteConflict:                 http.StatusServiceUnavailable,
	engine.CodeInternal:                      http.StatusInternalServerError,
}

// declaredCodes reads errors.go and returns the value of every constant of type Code.
func declaredCodes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	ast.Inspect(f, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok || spec.Type == nil || fmt.Sprint(spec.Type) != "Code" {
			return true
		}
		for _, v := range spec.Values {
			lit, ok := v.(*ast.BasicLit)
			if !ok {
				t.Fatalf("a Code constant with a value that is not a literal: %#v", v)
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			codes = append(codes, s)
		}
		return true
	})
	sort.Strings(codes)
	return codes
}

// TestEveryCodeHasItsStatus: the table above lists every code errors.go declares, and
// Code.Status gives each the status of the table.
func TestEveryCodeHasItsStatus(t *testing.T) {
	t.Parallel()
	var listed []string
	for c := range codeStatuses {
		listed = append(listed, string(c))
	}
	sort.Strings(listed)
	if diff := cmp.Diff(declaredCodes(t), listed); diff != "" {
		t.Errorf("codes declared in errors.go (-) vs listed in this test (+):\n%s", diff)
	}
	for c, want := range codeStatuses {
		if got := c.Status(); got != want {
			t.Errorf("Code(%q).Status() = %d, want %d", c, got, want)
		}
		if got := (&engine.Error{Code: c}).HTTPStatus(); got != want {
			t.Errorf("Error{Code: %q}.HTTPStatus() = %d, want %d", c, got, want)
		}
	}
}

// TestTryAgainErrors: a closing Service and a transaction given up on conflicts are 503
// answers with their own code and a retry-after, never internal errors.
func TestTryAgainErrors(t *testing.T) {
	t.Parallel()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	contended := fmt.Errorf("sqlstore: still conflicting: %w", storage.ErrContention)
	tests := []struct {
		name string
		err  error
		code engine.Code
	}{
		{"shutting down", engine.ErrShuttingDown(), engine.CodeServerShuttingDown},
		{"storage contention", engine.StorageError(quiet, contended), engine.CodeWriteConflict},
		{"wrapped contention", engine.StorageError(quiet, fmt.Errorf("tx: %w", contended)), engine.CodeWriteConflict},
	}
	for _, tt := range tests {
		var e *engine.Error
		if !errors.As(tt.err, &e) {
			t.Fatalf("%s: %v is not an *Error", tt.name, tt.err)
		}
		if e.Code != tt.code || e.HTTPStatus() != http.StatusServiceUnavailable {
			t.Errorf("%s: code %q status %d, want %q 503", tt.name, e.Code, e.HTTPStatus(), tt.code)
		}
		if got := e.Extra["retry-after"]; got != float64(engine.RetryAfterSeconds) {
			t.Errorf("%s: retry-after = %v, want %d", tt.name, got, engine.RetryAfterSeconds)
		}
	}
	// A contention error keeps its cause for the logs.
	if err := engine.StorageError(quiet, contended); !errors.Is(err, storage.ErrContention) {
		t.Errorf("StorageError(contention) = %v, does not wrap storage.ErrContention", err)
	}
}
