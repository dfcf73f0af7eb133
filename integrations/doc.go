// Package integrations turns the payloads of third-party services into chat messages, as
// Zulip's incoming webhook integrations do (zerver/webhooks/*): one Integration per service,
// each a table of event formatters producing exactly Zulip's topics and message texts, with
// Zulip's shared helpers (the git message templates of zerver/lib/webhooks/git.py) written
// once in git.go.
//
// It is pure: a Request (the body, the headers and the URL's parameters) goes in, a list of
// Messages or a typed error comes out (UnsupportedEventError, MissingHeaderError,
// ErrInvalidJSON, AnomalousPayloadError, InvalidPayloadError, BadRequestError). It stores nothing, sends nothing and knows no HTTP
// status; httpapi authenticates the bot, calls Run and sends each Message through the
// Service as the bot. The common parameters of Zulip's integration URLs are applied by Run:
// only_events and exclude_events (shell-style patterns matched against each message's event
// type), topic (replaces the integration's topic); branches is read by the git integrations.
//
// Files: integrations.go holds the types, the registry and Run; payload.go reads JSON payloads
// the way Zulip's WildValue does; pyjson.go writes JSON as Python's json.dumps does; one file
// per integration (its name) holds its table. testdata/<name>/ holds Zulip's fixtures for
// the integration (testdata/README.md says where each comes from) and fixtures_test.go the
// expected topics and messages of Zulip's tests.py.
//
// Imports: the standard library only. Everything here is safe for concurrent use: the
// registry is built once and never changes.
package integrations
