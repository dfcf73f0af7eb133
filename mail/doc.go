// Package mail delivers the server's emails (invitations): by SMTP through
// github.com/wneessen/go-mail (SMTP), or into a log file a developer reads (Log, the --dev
// default). Both implement the Send method the chat Service's Options.Mailer takes, and
// SendHTML, a message with an HTML alternative (multipart/alternative).
//
// It imports no package of the project. Senders are safe for concurrent use.
package mail
