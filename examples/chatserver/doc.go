// Command chatserver serves the chat engine over Zulip's REST API, and the web client
// (package webclient) at the organization's URL: open it in a browser to chat.
//
//	chatserver serve --dev                      # a development organization in ./chat.db (SQLite)
//	chatserver serve --seed org.json            # an organization loaded from a seed file
//	chatserver serve --store memory --dev       # nothing persisted
//	chatserver serve --store 'postgres://postgres@127.0.0.1:5432/chat?sslmode=disable'
//	chatserver serve --store postgres://... --node-id n1 --advertise-url http://10.0.0.1:9991
//	                                            # one of several processes sharing one PostgreSQL
//	chatserver zuliprc --dev --user iago@zulip.com --out ~/.zuliprc
//	                                            # credentials for Zulip clients (same flags as serve)
//
// --dev and --seed only fill an empty store: a restart on a persisted store keeps its data.
//
// See the README for the seed file format, curl examples and how zuliprc finds a user's key. It
// is an example of wiring the library: flags and process lifetime live here, every rule lives in
// package chat.
package main
