package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/teamchat/chat/storage"
)

// Code is the machine-readable error code of the API ("BAD_REQUEST", "UNAUTHORIZED", ...).
type Code string

// The error codes the API sends. The HTTP status of each is in [Code.Status].
const (
	CodeBadRequest               Code = "BAD_REQUEST"
	CodeRequestVariableMissing   Code = "REQUEST_VARIABLE_MISSING"
	CodeRequestVariableInvalid   Code = "REQUEST_VARIABLE_INVALID"
	CodeRequestConfusingVar      Code = "REQUEST_CONFUSING_VAR"
	CodeInvalidJSON              Code = "INVALID_JSON"
	CodeStreamDoesNotExist       Code = "STREAM_DOES_NOT_EXIST"
	CodeUnauthorizedPrincipal    Code = "UNAUTHORIZED_PRINCIPAL"
	CodeCannotDeactivateLastUser Code = "CANNOT_DEACTIVATE_LAST_USER"
	CodeBadEventQueueID          Code = "BAD_EVENT_QUEUE_ID"
	CodeChannelAlreadyExists     Code = "CHANNEL_ALREADY_EXISTS"
	CodeUnauthorized             Code = "UNAUTHORIZED"
	CodeAuthenticationFailed     Code = "AUTHENTICATION_FAILED"
	CodeUserDeactivated          Code = "USER_DEACTIVATED"
	CodeRealmDeactivated         Code = "REALM_DEACTIVATED"
	CodePasswordAuthDisabled     Code = "PASSWORD_AUTH_DISABLED"
	CodePasswordResetRequired    Code = "PASSWORD_RESET_REQUIRED"
	CodeInvalidAPIKey            Code = "INVALID_API_KEY"
	CodeNonexistentSubdomain     Code = "NONEXISTENT_SUBDOMAIN"
	CodeRateLimitHit             Code = "RATE_LIMIT_HIT"
	CodeNotFound                 Code = "NOT_FOUND"
	CodeBadNarrow                Code = "BAD_NARROW"
	CodeExpectationMismatch      Code = "EXPECTATION_MISMATCH"
	CodeRealmUploadQuota         Code = "REALM_UPLOAD_QUOTA"
	CodeBadImage                 Code = "BAD_IMAGE"
	// CodeMoveMessagesTimeLimitExceeded carries first_message_id_allowed_to_move,
	// total_messages_in_topic and total_messages_allowed_to_move.
	CodeMoveMessagesTimeLimitExceeded Code = "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED"
	CodeReactionAlreadyExists         Code = "REACTION_ALREADY_EXISTS"
	CodeReactionDoesNotExist          Code = "REACTION_DOES_NOT_EXIST"
	CodePushServiceNotConfigured      Code = "PUSH_SERVICE_NOT_CONFIGURED"
	// CodeCSRFFailed (HTTP 403) is a web request refused by the CSRF check; it carries the
	// reason.
	CodeCSRFFailed Code = "CSRF_FAILED"
	// CodeServerShuttingDown (HTTP 503, with Retry-After) is a mutation refused because the
	// Service is closing (ErrShuttingDown): nothing was written, and the client may send it
	// again, to this server once it is back or to another process. Not one of Zulip's codes.
	CodeServerShuttingDown Code = "SERVER_SHUTTING_DOWN"
	// CodeWriteConflict (HTTP 503, with Retry-After) is a mutation whose transaction kept
	// losing races with concurrent ones (storage.ErrContention) until its retries ran out:
	// nothing was written, and the client may send it again. Not one of Zulip's codes.
	CodeWriteConflict Code = "WRITE_CONFLICT"
	// CodeInternal is never sent as a code: internal errors carry no code on the wire.
	CodeInternal Code = ""
)

// Status is the HTTP status Zulip uses for the code.
func (c Code) Status() int {
	switch c {
	case CodeUnauthorized, CodeAuthenticationFailed, CodeUserDeactivated, CodeRealmDeactivated,
		CodePasswordAuthDisabled, CodePasswordResetRequired, CodeInvalidAPIKey:
		return http.StatusUnauthorized
	case CodeNonexistentSubdomain, CodeNotFound:
		return http.StatusNotFound
	case CodeChannelAlreadyExists:
		return http.StatusConflict
	case CodeRateLimitHit:
		return http.StatusTooManyRequests
	case CodeCSRFFailed:
		return http.StatusForbidden
	case CodeServerShuttingDown, CodeWriteConflict:
		return http.StatusServiceUnavailable
	case CodeInternal:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// Error is the error type of every operation: the API's code, the HTTP status, a
// human-readable message and the extra keys Zulip puts in the error body (var_name, queue_id,
// retry-after, ...). Match it with errors.As.
type Error struct {
	Code   Code
	Status int // HTTP status; 0 means Code.Status()
	Msg    string
	Extra  map[string]any
	Err    error // the cause, if any; never shown to clients
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Msg, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Is matches another *Error with the same code and message, so that errors.Is works with
// sentinel errors.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Msg == e.Msg
}

// HTTPStatus is the status of the response that carries the error.
func (e *Error) HTTPStatus() int {
	if e.Status != 0 {
		return e.Status
	}
	return e.Code.Status()
}

// With returns a copy of e carrying one more extra key.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Extra = make(map[string]any, len(e.Extra)+1)
	for k, v := range e.Extra {
		c.Extra[k] = v
	}
	c.Extra[key] = value
	return &c
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// BadRequest is the common BAD_REQUEST error.
func BadRequest(format string, args ...any) *Error {
	return Errorf(CodeBadRequest, format, args...)
}

// MissingArgument is the error for a required parameter that is absent.
func MissingArgument(name string) *Error {
	return Errorf(CodeRequestVariableMissing, "Missing '%s' argument", name).With("var_name", name)
}

// InvalidArgument is the error for a parameter whose value fails validation: "Invalid name: detail"
// (or "Invalid name" without detail).
func InvalidArgument(name, detail string) *Error {
	if detail == "" {
		return BadRequest("Invalid %s", name)
	}
	return BadRequest("Invalid %s: %s", name, detail)
}

// InternalError wraps an unexpected error (storage failure, bug). Its message is generic.
// A store's refusal of text (storage.ErrInvalidString) is no server fault: it is
// ErrInvalidText, whichever path the error took to get here.
func InternalError(err error) *Error {
	if errors.Is(err, storage.ErrInvalidString) {
		return ErrInvalidText(err)
	}
	return &Error{Code: CodeInternal, Msg: "Internal server error", Err: err}
}

// ErrInvalidText is the answer to text a store refused (storage.ErrInvalidString, err): a
// NUL byte or bytes that are not UTF-8 that reached the store, BAD_REQUEST on every backend.
// httpapi refuses such text in every parameter and path segment before any store sees it,
// naming the parameter; this is the answer for whatever reaches a store another way.
func ErrInvalidText(err error) *Error {
	return &Error{Code: CodeBadRequest, Msg: "Invalid text: must not contain null bytes or invalid UTF-8", Err: err}
}

// AsError converts any error to an *Error: an *Error found with errors.As is returned as is;
// anything else is an internal error.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return InternalError(err)
}

// RetryAfterSeconds is the retry-after (seconds) of the 503 answers: a mutation refused by a
// closing Service or given up after losing races may be sent again after it.
const RetryAfterSeconds = 1

// ErrShuttingDown refuses mutations once Close has begun (503 SERVER_SHUTTING_DOWN, with
// retry-after): nothing was written.
func ErrShuttingDown() *Error {
	return &Error{Code: CodeServerShuttingDown, Msg: "The server is shutting down; try again",
		Extra: map[string]any{"retry-after": float64(RetryAfterSeconds)}}
}

// ErrWriteConflict is the answer to a mutation whose transaction kept conflicting with
// concurrent ones (storage.ErrContention) until its retries ran out (503 WRITE_CONFLICT, with
// retry-after): nothing was written. cause is the store's error, logged, never shown.
func ErrWriteConflict(cause error) *Error {
	return &Error{Code: CodeWriteConflict, Msg: "The server is busy with conflicting changes; try again",
		Extra: map[string]any{"retry-after": float64(RetryAfterSeconds)}, Err: cause}
}

// StorageError passes *Error values through, keeps context errors recognisable and turns
// anything else into an internal error, logged on log.
func StorageError(log *slog.Logger, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeInternal, Msg: "Request cancelled", Err: err}
	}
	if errors.Is(err, storage.ErrInvalidString) {
		return ErrInvalidText(err)
	}
	if errors.Is(err, storage.ErrContention) {
		log.Warn("transaction gave up on conflicts", "err", err)
		return ErrWriteConflict(err)
	}
	log.Error("storage failure", "err", err)
	return InternalError(err)
}

// RuleError is the BAD_REQUEST answer to a refusal by a leaf package's rule (users, channels,
// drafts, ...), whose message is already Zulip's wording.
func RuleError(err error) *Error { return BadRequest("%s", err.Error()) }
