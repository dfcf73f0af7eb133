package bots

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// MaxServiceRetries is how many times a job is tried again after a timeout or a connection
// error (Zulip's MAX_REQUEST_RETRIES): at most 1+MaxServiceRetries attempts, after which the
// conversation gets "Failure! Bot is unavailable" and the bot's owner the reason.
const MaxServiceRetries = 3

// Destination is where a bot's message goes: a channel's topic, or, when UserIDs is not nil,
// a direct message to those users.
type Destination struct {
	ChannelID channels.ID
	Topic     string
	UserIDs   []users.ID
}

// Sender sends content as bot to the destination inside the mutation o, as the client named,
// with the checks of POST /messages; a refusal is an *engine.Error and writes nothing. It is
// package chat's send path.
type Sender func(o *engine.WriteOp, bot users.User, to Destination, content, client string) error

// Reactor adds the bot's reaction to a message, as POST /messages/{message_id}/reactions does
// (its own transaction); a refusal is an *engine.Error. It is package chat's AddReaction.
type Reactor func(ctx context.Context, bot users.ID, message messages.ID, r Reaction) error

// Clients of the bots' messages.
const (
	webhookClient  = "OutgoingWebhookResponse"
	embeddedClient = "EmbeddedBotResponse"
)

// DeliverServiceJobsResult counts what one run did.
type DeliverServiceJobsResult struct {
	// Delivered counts the jobs done (answered or not), Retried those leased again for
	// another attempt, Failed those given up with a failure notice.
	Delivered, Retried, Failed int
}

// DeliverServiceJobs hands every due job to its bot: it claims a batch (Config.BatchSize) in
// one transaction and leases it, calls the bots outside any transaction (at most
// Config.Workers at once), and finishes the batch's jobs in one more transaction (a failure
// there leaves them leased: they are tried again when the lease ends); it goes on while
// batches come full. The worker (Start) calls it; tests call it after moving their clock.
func (s *Service) DeliverServiceJobs(ctx context.Context) (DeliverServiceJobsResult, error) {
	var total DeliverServiceJobsResult
	for {
		work, n, err := s.claim(ctx)
		if err != nil || n == 0 {
			return total, err
		}
		outs := make([]outcome, len(work))
		var wg sync.WaitGroup
		sem := make(chan struct{}, s.cfg.Workers)
		for i, c := range work {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				outs[i] = s.attempt(ctx, c)
			}()
		}
		wg.Wait()
		for i, c := range work {
			outs[i] = s.react(ctx, c, outs[i])
		}
		r, err := s.finish(context.WithoutCancel(ctx), work, outs)
		if err != nil {
			return total, err
		}
		total.Delivered += r.Delivered
		total.Retried += r.Retried
		total.Failed += r.Failed
		if n < s.cfg.BatchSize || ctx.Err() != nil {
			return total, ctx.Err()
		}
	}
}

// claimed is a leased job with what its attempt needs.
type claimed struct {
	job storage.ServiceJob
	webhookCall
}

// claim takes the due jobs (n of them) and leases them for their attempt. Jobs whose bot is
// gone, inactive or no longer a service bot, or whose message cannot be read, are dropped.
func (s *Service) claim(ctx context.Context) (work []claimed, n int, err error) {
	run := func(ctx context.Context, fn func(storage.Tx) error) error {
		return storage.UpdateReadCommitted(ctx, s.cfg.Store, fn)
	}
	err = s.eng.MutateWith(ctx, run, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		work = work[:0]
		now := o.Now.UnixMilli()
		jobs := o.Tx.ServiceJobs()
		due, err := jobs.ClaimDue(now, s.cfg.BatchSize)
		if err != nil {
			return err
		}
		n = len(due)
		bots := map[users.ID]botInfo{}
		for _, j := range due {
			c, ok, err := s.prepare(o.Tx, j, bots)
			if err != nil {
				return err
			}
			if !ok {
				if err := jobs.Delete(j.ID); err != nil {
					return err
				}
				continue
			}
			c.job.Attempts++
			c.job.DueAt = now + (s.cfg.Timeout + leaseMargin).Milliseconds()
			if err := jobs.Update(c.job); err != nil {
				return err
			}
			work = append(work, c)
		}
		return nil
	})
	return work, n, err
}

// botInfo is a bot as a claim reads it, once per bot and claim.
type botInfo struct {
	user    users.User
	service users.BotService
	ok      bool // an active service bot
}

// prepare reads what an attempt of j needs (the bot read once per claim, in bots); ok is false
// for a job to drop.
func (s *Service) prepare(tx storage.Tx, j storage.ServiceJob, bots map[users.ID]botInfo) (claimed, bool, error) {
	b, known := bots[j.BotID]
	if !known {
		bot, err := tx.Users().Get(j.BotID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
		case err != nil:
			return claimed{}, false, err
		case bot.IsActive && IsServiceBot(bot):
			cfg, err := tx.BotConfigs().Get(bot.ID)
			if err != nil {
				return claimed{}, false, err
			}
			b = botInfo{user: bot, service: cfg.Service, ok: true}
		}
		bots[j.BotID] = b
	}
	if !b.ok {
		return claimed{}, false, nil
	}
	msg, err := DecodeMessage(j.Message)
	if err != nil {
		s.log.Error("dropping a service bot's job", "job", j.ID, "err", err)
		return claimed{}, false, nil
	}
	return claimed{job: j, webhookCall: webhookCall{bot: b.user, service: b.service, trigger: j.Trigger, message: j.Message, msg: msg}}, true, nil
}

// attempt makes one attempt of a job: a call of the outgoing webhook, or of the embedded bot's
// handler.
func (s *Service) attempt(ctx context.Context, c claimed) outcome {
	if c.bot.BotType == users.BotEmbedded {
		return s.callEmbedded(ctx, c.webhookCall)
	}
	return s.callWebhook(ctx, c.webhookCall)
}

// react adds the reactions an answer asks for, before the job is finished: a process that
// stops in between adds them again, and a reaction that exists already is no error. A refused
// reaction is Zulip's failure of the answer (the conversation and the owner are told).
func (s *Service) react(ctx context.Context, c claimed, out outcome) outcome {
	if len(out.reactions) == 0 || s.cfg.React == nil {
		return out
	}
	for _, r := range out.reactions {
		msg := "Emoji name is missing"
		if r.EmojiName != "" {
			err := s.cfg.React(ctx, c.bot.ID, messages.ID(c.msg.ID), r)
			var refused *engine.Error
			switch {
			case err == nil, errors.As(err, &refused) && refused.Code == engine.CodeReactionAlreadyExists:
				continue
			case errors.As(err, &refused):
				msg = refused.Msg
			default:
				s.log.Error("a service bot's reaction failed", "bot", c.bot.ID, "message", c.msg.ID, "err", err)
				continue
			}
		}
		out.failure, out.owner = msg, attemptedNotice(msg, out.response)
		return out
	}
	return out
}

// finish acts on the outcomes of a batch's attempts in one transaction: for each job it posts
// the reply or the failure notices and removes the job, or leases it again for another attempt.
// A job another process took over (this one's lease ran out) is left to it.
func (s *Service) finish(ctx context.Context, work []claimed, outs []outcome) (DeliverServiceJobsResult, error) {
	var res DeliverServiceJobsResult
	err := s.eng.Mutate(ctx, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		res = DeliverServiceJobsResult{}
		for i, c := range work {
			if err := s.finishOne(o, c, outs[i], &res); err != nil {
				return err
			}
		}
		return nil
	})
	return res, err
}

// finishOne acts on one job's outcome inside finish's transaction and counts it in res.
func (s *Service) finishOne(o *engine.WriteOp, c claimed, out outcome, res *DeliverServiceJobsResult) error {
	jobs := o.Tx.ServiceJobs()
	job := c.job
	switch {
	case out.released:
		job.DueAt, job.Attempts = o.Now.UnixMilli(), job.Attempts-1
		return ignoreGone(jobs.Update(job))
	case out.retry && job.Attempts <= MaxServiceRetries:
		job.DueAt = o.Now.Add(s.cfg.RetryDelay).UnixMilli()
		res.Retried++
		return ignoreGone(jobs.Update(job))
	case out.retry:
		s.log.Warn("maximum retries exceeded", "bot", c.bot.Email, "message", c.msg.ID)
		out = outcome{failure: "Bot is unavailable", owner: "\n" + out.retryNotice}
	}
	if err := jobs.Delete(job.ID); err != nil {
		return ignoreGone(err)
	}
	if out.failure != "" {
		res.Failed++
	} else {
		res.Delivered++
	}
	return s.post(o, c, out)
}

// ignoreGone treats a job another process finished meanwhile as done.
func ignoreGone(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}

// post sends what an outcome says: the reply or the failure where the message was sent, and
// the notice to the bot's owner. A reply the send path refuses becomes a failure, as in Zulip.
func (s *Service) post(o *engine.WriteOp, c claimed, out outcome) error {
	client := webhookClient
	if c.bot.BotType == users.BotEmbedded {
		client = embeddedClient
	}
	where := c.msg.Where()
	if out.reply != "" {
		err := s.cfg.Send(o, c.bot, where, out.reply, client)
		var refused *engine.Error
		if !errors.As(err, &refused) {
			return err
		}
		out = outcome{failure: refused.Msg, owner: "\nThe outgoing webhook server attempted to send a message in Zulip, " +
			"but that request resulted in the following error:\n> " + refused.Msg + payloadNotice(pyRepr(out.reply, false))}
	}
	if out.failure != "" {
		if err := s.sendOrLog(o, c, where, "Failure! "+out.failure, client); err != nil {
			return err
		}
	}
	if out.owner == "" || c.bot.BotOwnerID == 0 {
		return nil
	}
	owner, ok := o.World().Lookup(c.bot.BotOwnerID)
	if !ok || !owner.IsActive {
		return nil
	}
	notice := fmt.Sprintf("[A message](%s) to your bot @_**%s** triggered an outgoing webhook.",
		c.msg.URL(o.World().Org().URL), c.bot.FullName) + out.owner
	return s.sendOrLog(o, c, Destination{UserIDs: []users.ID{owner.ID}}, notice, client)
}

// sendOrLog sends a notice; a refusal (the conversation is gone, the bot may no longer post
// there) is logged, not an error of the job.
func (s *Service) sendOrLog(o *engine.WriteOp, c claimed, to Destination, content, client string) error {
	err := s.cfg.Send(o, c.bot, to, content, client)
	var refused *engine.Error
	if errors.As(err, &refused) {
		s.log.Warn("a service bot's notice was refused", "bot", c.bot.ID, "message", c.msg.ID, "err", err)
		return nil
	}
	return err
}

// worker is the background delivery loop.
type worker struct {
	once sync.Once
	stop context.CancelFunc
	done chan struct{}
}

// Start runs DeliverServiceJobs every Config.Interval in the background until Stop; calling it
// again does nothing more.
func (s *Service) Start() {
	s.worker.once.Do(func() {
		ctx, cancel := context.WithCancel(context.Background())
		s.worker.stop, s.worker.done = cancel, make(chan struct{})
		go s.run(ctx)
	})
}

func (s *Service) run(ctx context.Context) {
	defer close(s.worker.done)
	t := time.NewTicker(s.cfg.Interval)
	defer t.Stop()
	for {
		if _, err := s.DeliverServiceJobs(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("delivering service bots' jobs", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Stop stops the worker and waits for it: calls in flight are abandoned and their jobs are
// due again at once (the attempt does not count).
func (s *Service) Stop() {
	if s.worker.stop != nil {
		s.worker.stop()
		<-s.worker.done
	}
}
