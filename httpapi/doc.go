// Package httpapi serves the chat Service over Zulip's REST API: routes under /api/v1,
// parameter decoding (form bodies and query strings, JSON inside field values), HTTP Basic
// authentication, and the success and error envelopes, including
// ignored_parameters_unsupported.
//
// It holds no business rules: each handler decodes its parameters, calls exactly one Service
// method and encodes the result. It imports chat and the leaf domain packages, never storage.
// A Handler is safe for concurrent use.
package httpapi
