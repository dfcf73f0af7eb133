// Package notify is the notifications area: the missed-message emails Zulip sends a user who is
// away from every client (zerver/lib/email_notifications.py), written as pending rows in the
// send's transaction (Queue, which the conversations area's send path calls) and sent, batched
// per conversation, by a worker when the recipient's batching period ends; and the weekly
// digest emails (zerver/lib/digest.py), queued as rows of the same kind on the organization's
// digest weekday and sent by the same worker.
//
// It sits between files and conversations in the order of the areas: it imports the kernel
// (internal/engine, internal/world), storage and the leaves, and no area; conversations
// imports it for Queue, as it imports bots for bots.Queue.
//
// Files:
//
//	queue.go    which recipients of a message get a pending notification (mentions, followed
//	            topics, the channel's email notifications), and when it is due
//	deliver.go  the worker: claim due notifications (row locks on PostgreSQL), drop those of
//	            users online in any process (Config.Online, Config.Node), lease the others,
//	            send their emails outside any transaction, and remove them
//	email.go    an email's subject, text, reason and link, as Zulip words them
//	email_html.go  the HTML parts (html/template) and the optional HTMLMailer
//	digest.go   who gets a digest on which day, and what it tells
//	service.go  the Service, its Config and the worker's start and stop
//
// A new kind of email goes into email.go (and email_html.go), with its pending rows written by
// the operation that causes it and delivered by the worker (deliver.go).
package notify
