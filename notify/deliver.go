package notify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// DeliverEmailsParams are the parameters of DeliverEmails (none).
type DeliverEmailsParams struct{}

// DeliverEmailsResult counts what one run did.
type DeliverEmailsResult struct {
	// Sent counts the emails sent, Failed those given up after MaxAttempts failures, Deferred
	// those that failed and will be tried again when their lease ends; Dropped counts the
	// notifications that needed no email (read since, deleted, or the user is online).
	// Digests counts the digest emails among those sent.
	Sent, Failed, Deferred, Dropped int
	Digests                         int
}

// outgoing is one email of a claimed batch and the notifications it answers.
type outgoing struct {
	Email
	ids      []int64
	triggers []string // of the notifications, for the email's reason
	attempts int
	digest   bool
}

// DeliverEmails sends the email of every due notification (Zulip's MissedMessageWorker
// maybe_send_batched_emails): it claims a batch in one transaction (row locks that other
// processes skip, on PostgreSQL), keeps the messages still unread, groups them by user and
// conversation into one email each, and leases their rows; sends the emails outside any
// transaction; then removes the rows of the emails sent in one more transaction. A process
// that dies between leaves its rows leased: they are claimed again when the lease ends. The
// worker (Start) calls it; tests call it after moving their clock.
func (s *Service) DeliverEmails(ctx context.Context, _ DeliverEmailsParams) (DeliverEmailsResult, error) {
	var total DeliverEmailsResult
	for {
		work, n, dropped, err := s.claim(ctx)
		total.Dropped += dropped
		if err != nil {
			return total, err
		}
		sent := make([]error, len(work))
		for i, o := range work {
			sent[i] = s.send(ctx, o.Email)
		}
		r, err := s.finish(context.WithoutCancel(ctx), work, sent)
		total.Sent += r.Sent
		total.Failed += r.Failed
		total.Deferred += r.Deferred
		total.Digests += r.Digests
		if err != nil {
			return total, err
		}
		if n < s.cfg.BatchSize || ctx.Err() != nil {
			if s.cfg.Observe != nil && total != (DeliverEmailsResult{}) {
				s.cfg.Observe(total)
			}
			return total, ctx.Err()
		}
	}
}

// send hands one email to the Mailer, with its HTML alternative when the Mailer takes one (or
// logs it when there is none).
func (s *Service) send(ctx context.Context, e Email) error {
	if s.cfg.Mailer == nil {
		s.cfg.Log.Info("notify: no mailer, email dropped", "to", e.To, "subject", e.Subject)
		return nil
	}
	var err error
	if h, ok := s.cfg.Mailer.(HTMLMailer); ok && e.HTML != "" {
		err = h.SendHTML(ctx, e.To, e.Subject, e.Body, e.HTML)
	} else {
		err = s.cfg.Mailer.Send(ctx, e.To, e.Subject, e.Body)
	}
	if err != nil {
		return fmt.Errorf("notify: sending to user %d: %w", e.UserID, err)
	}
	return nil
}

func (s *Service) run(ctx context.Context, fn func(o *engine.WriteOp) error) error {
	claim := func(ctx context.Context, f func(storage.Tx) error) error {
		return storage.UpdateReadCommitted(ctx, s.cfg.Store, f)
	}
	return s.eng.MutateWith(ctx, claim, engine.Actor{}, engine.NoActor, fn)
}

// claim takes the due notifications (n of them), drops those that need no email, and leases
// the others, returning their emails.
func (s *Service) claim(ctx context.Context) (work []outgoing, n, dropped int, err error) {
	err = s.run(ctx, func(o *engine.WriteOp) error {
		work, n, dropped = nil, 0, 0
		now := o.Now.UnixMilli()
		due, err := o.Tx.PendingEmails().ClaimDue(now, s.cfg.BatchSize)
		if err != nil || len(due) == 0 {
			return err
		}
		n = len(due)
		org, err := o.Tx.Realm().Get()
		if err != nil {
			return err
		}
		byUser := map[users.ID][]storage.PendingEmail{}
		var order []users.ID
		for _, p := range due {
			if _, ok := byUser[p.UserID]; !ok {
				order = append(order, p.UserID)
			}
			byUser[p.UserID] = append(byUser[p.UserID], p)
		}
		var drop []int64
		for _, u := range order {
			mails, gone, err := s.userEmails(o.Tx, org, u, byUser[u], o.Now)
			if err != nil {
				return err
			}
			drop = append(drop, gone...)
			for _, m := range mails {
				for _, p := range byUser[u] {
					if slices.Contains(m.ids, p.ID) {
						p.Attempts++
						p.DueAt = now + lease.Milliseconds()
						m.attempts = max(m.attempts, p.Attempts)
						if err := o.Tx.PendingEmails().Update(p); err != nil {
							return err
						}
					}
				}
				work = append(work, m)
			}
		}
		dropped = len(drop)
		return o.Tx.PendingEmails().Delete(drop)
	})
	return work, n, dropped, err
}

// userEmails turns one user's claimed notifications into emails, one per conversation, of the
// messages still unread; gone lists the notifications that need none.
func (s *Service) userEmails(tx storage.Tx, org realms.Realm, u users.ID, list []storage.PendingEmail, now time.Time) (mails []outgoing, gone []int64, err error) {
	all := make([]int64, len(list))
	for i, p := range list {
		all[i] = p.ID
	}
	user, err := tx.Users().Get(u)
	if errors.Is(err, storage.ErrNotFound) || err == nil && !user.IsActive {
		return nil, all, nil
	}
	if err != nil {
		return nil, nil, err
	}
	settings, err := tx.UserSettings().Get(u)
	if err != nil {
		return nil, nil, err
	}
	r := renderer{tx: tx, org: org, user: user, settings: settings, names: map[users.ID]string{}}
	var digests []int64
	list = slices.DeleteFunc(slices.Clone(list), func(p storage.PendingEmail) bool {
		if p.Trigger == TriggerDigest {
			digests = append(digests, p.ID)
		}
		return p.Trigger == TriggerDigest
	})
	if len(digests) > 0 {
		d, err := r.digestEmail(now)
		if err != nil {
			return nil, nil, err
		}
		if d == nil {
			gone = append(gone, digests...)
		} else {
			mails = append(mails, outgoing{Email: *d, ids: digests, digest: true})
		}
	}
	if len(list) == 0 {
		return mails, gone, nil
	}
	online, err := s.online(tx, u, now)
	if err != nil {
		return nil, nil, err
	}
	if online {
		for _, p := range list {
			gone = append(gone, p.ID)
		}
		return mails, gone, nil
	}
	more, dropped, err := messageEmails(tx, r, list)
	return append(mails, more...), append(gone, dropped...), err
}

// online reports whether u has a client connected: an event queue in this process, or one
// another process sharing the store reported within the live window.
func (s *Service) online(tx storage.Tx, u users.ID, now time.Time) (bool, error) {
	if s.cfg.Online(u) {
		return true, nil
	}
	if s.cfg.Node == "" {
		return false, nil
	}
	nodes, err := tx.Queues().LiveNodes(u, now.Add(-s.cfg.LiveWindow).UnixMilli())
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(nodes, func(n string) bool { return n != s.cfg.Node }), nil
}

// messageEmails are the emails of a user's message notifications: one per conversation, of
// the messages still unread; gone lists the notifications that need none.
func messageEmails(tx storage.Tx, r renderer, list []storage.PendingEmail) (mails []outgoing, gone []int64, err error) {
	u := r.user.ID
	ids := make([]messages.ID, 0, len(list))
	for _, p := range list {
		ids = append(ids, p.MessageID)
	}
	rows, err := tx.Messages().UserRows(u, ids)
	if err != nil {
		return nil, nil, err
	}
	unread := map[messages.ID]bool{}
	for _, r := range rows {
		unread[r.MessageID] = r.Flags&messages.FlagRead == 0
	}
	msgs, err := tx.Messages().GetMany(ids)
	if err != nil {
		return nil, nil, err
	}
	convs := map[string]*outgoing{}
	var keys []string
	for _, m := range msgs {
		if !unread[m.ID] {
			continue
		}
		key := conversationKey(m)
		c, ok := convs[key]
		if !ok {
			c = &outgoing{}
			convs[key] = c
			keys = append(keys, key)
		}
		for _, p := range list {
			if p.MessageID == m.ID {
				c.ids = append(c.ids, p.ID)
				c.triggers = append(c.triggers, p.Trigger)
			}
		}
		c.Messages = append(c.Messages, m)
	}
	for _, k := range keys {
		c := convs[k]
		if c.Email, err = r.email(c.Messages, c.triggers); err != nil {
			return nil, nil, err
		}
		mails = append(mails, *c)
	}
	for _, p := range list {
		if !slices.ContainsFunc(mails, func(m outgoing) bool { return slices.Contains(m.ids, p.ID) }) {
			gone = append(gone, p.ID)
		}
	}
	return mails, gone, nil
}

// finish removes the rows of the emails sent, and of those that failed their last attempt; the
// others stay leased and are tried again when their lease ends.
func (s *Service) finish(ctx context.Context, work []outgoing, sent []error) (DeliverEmailsResult, error) {
	var r DeliverEmailsResult
	var done []int64
	for i, o := range work {
		switch {
		case sent[i] == nil:
			r.Sent++
			if o.digest {
				r.Digests++
			}
			done = append(done, o.ids...)
		case o.attempts >= MaxAttempts:
			r.Failed++
			done = append(done, o.ids...)
			s.cfg.Log.Error("notify: giving up a missed-message email", "user", o.UserID, "err", sent[i])
		default:
			r.Deferred++
			s.cfg.Log.Warn("notify: missed-message email deferred", "user", o.UserID, "err", sent[i],
				"retry_in", lease.String())
		}
	}
	if len(done) == 0 {
		return r, nil
	}
	err := s.run(ctx, func(o *engine.WriteOp) error { return o.Tx.PendingEmails().Delete(done) })
	return r, err
}
