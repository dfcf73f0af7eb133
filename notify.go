package chat

import (
	"context"
	"fmt"
	"strings"

	"github.com/teamchat/chat/notify"
	"github.com/teamchat/chat/users"
)

// Aliases of the notifications area's types.
type (
	DeliverMissedMessageEmailsParams = notify.DeliverEmailsParams
	DeliverMissedMessageEmailsResult = notify.DeliverEmailsResult
	QueueDigestEmailsParams          = notify.QueueDigestsParams
	QueueDigestEmailsResult          = notify.QueueDigestsResult
)

// EmailMonitor is an optional capability of Options.Monitor: told after each
// pass that handled emails of a kind ("missed_message", "digest", "login", "test"), how many it
// sent, gave up (failed) and deferred to a later attempt (ops.Metrics implements it).
type EmailMonitor interface {
	EmailsDelivered(kind string, sent, failed, deferred int)
}

// notifyConfig configures the notifications area: the Mailer, the worker's interval, and
// "online" as a client connected to this process (an event queue) or, with a Bus, to another
// process sharing the store (its report of live queues, bus_live.go).
func (s *Service) notifyConfig() notify.Config {
	cfg := notify.Config{
		Store: s.opts.Store, Log: s.log, Interval: s.opts.SchedulerInterval,
		Online: func(u users.ID) bool { return s.queues.HasOwner(int64(u)) },
		Node:   s.liveNode(), LiveWindow: liveWindow, // bus_live.go
	}
	if s.opts.Mailer != nil {
		cfg.Mailer = s.opts.Mailer
	}
	if m, ok := s.opts.Monitor.(EmailMonitor); ok {
		cfg.Observe = func(r notify.DeliverEmailsResult) {
			m.EmailsDelivered("missed_message", r.Sent-r.Digests, r.Failed, r.Deferred)
			m.EmailsDelivered("digest", r.Digests, 0, 0)
		}
	}
	return cfg
}

// DeliverMissedMessageEmails sends now the missed-message emails whose batching period has
// ended (the operator's "send what is due"; the background worker StartScheduler starts does
// the same every Options.SchedulerInterval): a direct message, a mention or a message of a
// followed topic, still unread, to a user with no client connected, one email per
// conversation. Several processes on one database send each email once.
func (s *Service) DeliverMissedMessageEmails(ctx context.Context, p DeliverMissedMessageEmailsParams) (DeliverMissedMessageEmailsResult, error) {
	return s.notify.DeliverEmails(ctx, p)
}

// QueueDigestEmails queues the digest emails of the organization (Zulip's enqueue_emails):
// on its digest_weekday (UTC) when digest_emails_enabled is on, one for each user with
// enable_digest_emails who has been away (no activity) for notify.DigestCutoff; each day is
// queued once, by one process. With Now set (the operator's "run a digest pass now") the day
// does not matter. DeliverMissedMessageEmails (and the background worker) then sends them; a
// digest that would tell of no conversation and no new channel is not sent, as in Zulip.
func (s *Service) QueueDigestEmails(ctx context.Context, p QueueDigestEmailsParams) (QueueDigestEmailsResult, error) {
	return s.notify.QueueDigests(ctx, p)
}

// SendTestEmailParams are the parameters of SendTestEmail.
type SendTestEmailParams struct {
	// To is the address to send to.
	To string
}

// SendTestEmailResult is SendTestEmail's answer: nothing beyond success.
type SendTestEmailResult struct{}

// SendTestEmail sends a test email through Options.Mailer (the operator's check of the mail
// configuration, Zulip's send_test_email); an error says why it could not be sent.
func (s *Service) SendTestEmail(ctx context.Context, p SendTestEmailParams) (SendTestEmailResult, error) {
	to := strings.TrimSpace(p.To)
	if to == "" || len(to) > users.MaxEmailLength || !strings.Contains(to, "@") {
		return SendTestEmailResult{}, Errorf(CodeBadRequest, "Invalid email address")
	}
	if s.opts.Mailer == nil {
		return SendTestEmailResult{}, Errorf(CodeBadRequest, "No mailer is configured")
	}
	body := "This is a test email from your chat server: its outgoing email works.\n"
	if err := s.opts.Mailer.Send(ctx, to, "Test email", body); err != nil {
		s.observeEmails("test", 0, 1, 0)
		return SendTestEmailResult{}, fmt.Errorf("chat: sending a test email: %w", err)
	}
	s.observeEmails("test", 1, 0, 0)
	return SendTestEmailResult{}, nil
}

// observeEmails tells Options.Monitor, when it is an EmailMonitor, of emails handled.
func (s *Service) observeEmails(kind string, sent, failed, deferred int) {
	if m, ok := s.opts.Monitor.(EmailMonitor); ok {
		m.EmailsDelivered(kind, sent, failed, deferred)
	}
}

// emailSent counts one email of an area's (people.Config.EmailSent).
func (s *Service) emailSent(kind string, err error) {
	if err != nil {
		s.observeEmails(kind, 0, 1, 0)
	} else {
		s.observeEmails(kind, 1, 0, 0)
	}
}
