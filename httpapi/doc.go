// Package httpapi serves the chat Service over Zulip's REST API: routes under /api/v1,
// parameter decoding (form bodies and query strings, JSON inside field values), HTTP Basic
// authentication, and the success and error envelopes, including
// ignored_parameters_unsupported.
//
// Files: params.go holds the parameter accessors (plain, boolean, integer, JSON-valued),
// params_body.go the reading of query strings and bodies; JSON-valued parameters are decoded
// by internal/jsonparam, which words a value that does not fit in Zulip's terms; path.go reads
// ids from the URL path (pathID, one reader for every {…_id} segment); text.go is the text
// boundary: a NUL byte in any path segment or parameter (raw, or escaped in JSON text) is
// refused before any store is touched, with the same answer on every backend.
// sessions.go serves the same routes under /json/ for browsers, authenticated by the
// sessionid cookie (Zulip's rest_dispatch: a session first, then HTTP Basic), sets the cookies
// at a login and serves the logout form; login.go serves the login page and forms (password,
// development); csrf.go is Django's CSRF check (the csrftoken cookie
// matched by the X-CSRFToken header or a form's csrfmiddlewaretoken) and Zulip's answers to a
// refusal.
//
// webhooks.go serves Zulip's incoming webhook URLs (/api/v1/external/{integration}): it
// authenticates the bot by its api_key, hands the request to package integrations, which
// turns it into messages (or refuses it with Zulip's error), and sends them as the bot, through
// SendMessage like any message.
//
// It holds no business rules: each handler decodes its parameters, calls exactly one Service
// method and encodes the result. It imports chat and the leaf domain packages, never storage.
// A Handler is safe for concurrent use.
package httpapi
