// Package markdown renders the Markdown that users write (organization and channel
// descriptions, messages, custom profile fields) to sanitized HTML. It uses two well-kept
// libraries rather than a hand-written renderer: github.com/yuin/goldmark (CommonMark, with
// strikethrough, autolinked bare URLs and hard line breaks) and github.com/microcosm-cc/bluemonday
// (an allow-list HTML sanitizer). Raw HTML from the writer never passes through: no script, no
// event handlers, no javascript: URLs.
//
// Messages also get Zulip's mention and channel-link syntax (@**user**, @_**user|id**,
// @*group*, #**channel**, #**channel>topic**), resolved through a Resolver the caller supplies;
// the sanitizer lets through exactly the markup those produce. The global time syntax
// <time:...> renders ISO 8601 timestamps as <time datetime> elements and anything else as
// Zulip's timestamp error (timestamp.go; feature level 503).
//
// It imports no package of this project and is safe for concurrent use.
package markdown
