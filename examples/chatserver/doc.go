// Command chatserver serves the chat engine over Zulip's REST API.
//
//	chatserver serve --dev                      # a development organization on the memory store
//	chatserver serve --seed org.json            # an organization loaded from a seed file
//	chatserver zuliprc --dev --user iago@zulip.com --out ~/.zuliprc
//	                                            # credentials for Zulip clients (same flags as serve)
//
// See the README for the seed file format, curl examples and how zuliprc finds a user's key. It
// is an example of wiring the library: flags and process lifetime live here, every rule lives in
// package chat.
package main
