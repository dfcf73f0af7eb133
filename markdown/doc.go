// Package markdown renders the Markdown that users write (organization and channel
// descriptions, messages) to sanitized HTML. It supports a deliberately small, safe subset:
// paragraphs and line breaks, **bold**, *italic*, `code`, [links](https://...) and bare
// http(s) URLs. Everything else is escaped text, so the output never carries markup the
// writer did not ask for: no script, no event handlers, no javascript: URLs.
//
// It imports only the standard library and is safe for concurrent use.
package markdown
