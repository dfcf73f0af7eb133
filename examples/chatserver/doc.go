// Command chatserver serves the chat engine over Zulip's REST API.
//
//	chatserver serve --dev                      # a development organization on the memory store
//	chatserver serve --seed org.json            # an organization loaded from a seed file
//
// See the README for the seed file format and curl examples. It is an example of wiring the
// library: flags and process lifetime live here, every rule lives in package chat.
package main
