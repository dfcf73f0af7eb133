package chat

import (
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/org"
)

// Code is the machine-readable error code of the API ("BAD_REQUEST", "UNAUTHORIZED", ...). It
// is defined in the engine; this alias keeps embedders' code compiling.
type Code = engine.Code

// The error codes the API sends. The HTTP status of each is in [Code.Status].
const (
	CodeBadRequest                    = engine.CodeBadRequest
	CodeRequestVariableMissing        = engine.CodeRequestVariableMissing
	CodeRequestVariableInvalid        = engine.CodeRequestVariableInvalid
	CodeRequestConfusingVar           = engine.CodeRequestConfusingVar
	CodeInvalidJSON                   = engine.CodeInvalidJSON
	CodeStreamDoesNotExist            = engine.CodeStreamDoesNotExist
	CodeUnauthorizedPrincipal         = engine.CodeUnauthorizedPrincipal
	CodeCannotDeactivateLastUser      = engine.CodeCannotDeactivateLastUser
	CodeBadEventQueueID               = engine.CodeBadEventQueueID
	CodeChannelAlreadyExists          = engine.CodeChannelAlreadyExists
	CodeUnauthorized                  = engine.CodeUnauthorized
	CodeAuthenticationFailed          = engine.CodeAuthenticationFailed
	CodeUserDeactivated               = engine.CodeUserDeactivated
	CodeRealmDeactivated              = engine.CodeRealmDeactivated
	CodePasswordAuthDisabled          = engine.CodePasswordAuthDisabled
	CodePasswordResetRequired         = engine.CodePasswordResetRequired
	CodeInvalidAPIKey                 = engine.CodeInvalidAPIKey
	CodeNonexistentSubdomain          = engine.CodeNonexistentSubdomain
	CodeRateLimitHit                  = engine.CodeRateLimitHit
	CodeNotFound                      = engine.CodeNotFound
	CodeBadNarrow                     = engine.CodeBadNarrow
	CodeExpectationMismatch           = engine.CodeExpectationMismatch
	CodeRealmUploadQuota              = engine.CodeRealmUploadQuota
	CodeBadImage                      = engine.CodeBadImage
	CodeMoveMessagesTimeLimitExceeded = engine.CodeMoveMessagesTimeLimitExceeded
	CodeReactionAlreadyExists         = engine.CodeReactionAlreadyExists
	CodeReactionDoesNotExist          = engine.CodeReactionDoesNotExist
	CodePushServiceNotConfigured      = engine.CodePushServiceNotConfigured
	CodeCSRFFailed                    = engine.CodeCSRFFailed
	CodeServerShuttingDown            = engine.CodeServerShuttingDown
	CodeWriteConflict                 = engine.CodeWriteConflict
	CodeInternal                      = engine.CodeInternal
)

// Error is the error type of every Service method: the API's code, the HTTP status, a
// human-readable message and the extra keys Zulip puts in the error body. Match it with
// errors.As. It is defined in the engine; this alias keeps embedders' code compiling.
type Error = engine.Error

// ErrOrganizationExists is returned by CreateOrganization when the store already holds one.
// (an alias of org.ErrOrganizationExists).
var ErrOrganizationExists = org.ErrOrganizationExists

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return engine.Errorf(code, format, args...)
}

// MissingArgument is the error for a required parameter that is absent.
func MissingArgument(name string) *Error { return engine.MissingArgument(name) }

// InvalidArgument is the error for a parameter whose value fails validation: "Invalid name: detail"
// (or "Invalid name" without detail).
func InvalidArgument(name, detail string) *Error { return engine.InvalidArgument(name, detail) }

// AsError converts any error to an *Error: an *Error found with errors.As is returned as is;
// anything else is an internal error.
func AsError(err error) *Error { return engine.AsError(err) }
