// Command loadgen drives a running chat server over HTTP the way real clients do, and reports
// what it measured as text or JSON.
//
// It logs in N users (POST /dev_fetch_api_key: the server runs with --dev, usually with
// --load-users and --no-rate-limits), gives each a registered event queue and a long-poll loop
// (GET /events), runs M senders posting messages to a channel every user is subscribed to,
// and R readers issuing a mix of reads (subscriptions, own user, the user list, a full
// register). It reports requests per second, event delivery latency (send → event received
// by a long-poll) p50/p95/p99/max, errors, and the server's memory from its GET /debug/vars
// (--debug-vars).
//
// A second phase compares reads against a baseline: R clients fetch GET
// /users/me/subscriptions as fast as they can from the server, then the same bytes from a bare
// net/http handler inside loadgen, and the server's throughput is reported as a ratio of the
// baseline's.
//
// The long-polls go over plain keep-alive connections of loadgen's own (--raw-polls, the
// default; responses read by net/http's parser), since http.Client's transport made
// loadgen's side of 10,000 long-polls as costly as the server's, on the same cores.
//
// It imports no package of this project: it is a client.
package main
