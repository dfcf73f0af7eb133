package compose

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// ScheduledMessageLateCutoff is how late a scheduled message may still be sent (Zulip's
// SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES): one found later (the server was down) fails, and its
// author is told, rather than surprising its recipients. Reminders have no cutoff.
const ScheduledMessageLateCutoff = 10 * time.Minute

// Defaults of the scheduler.
const (
	defaultSchedulerInterval  = time.Second
	defaultSchedulerBatchSize = 500
)

// DeliverScheduledMessagesParams are the parameters of DeliverScheduledMessages (none).
type DeliverScheduledMessagesParams struct{}

// DeliverScheduledMessagesResult counts what one run did.
type DeliverScheduledMessagesResult struct {
	// Delivered counts the messages and reminders sent, Failed those marked failed.
	Delivered int
	Failed    int
}

// DeliverScheduledMessages sends every scheduled message and reminder due at the Service's
// clock's current time, each as its author would send it now (the permission checks run
// again; a message that can no longer be sent is marked failed and its author told by the
// notification bot, as Zulip does). Due messages are claimed in batches
// (Options.SchedulerBatchSize), each batch in one transaction that claims its rows, sends them
// and records their delivery, so a crash before the commit loses and repeats nothing; on
// PostgreSQL the claim locks the rows and skips those another process holds, so that several
// processes on one database send each message once. The background scheduler
// (StartScheduler) calls it; tests call it after moving their clock.
func (s *Service) DeliverScheduledMessages(ctx context.Context, _ DeliverScheduledMessagesParams) (DeliverScheduledMessagesResult, error) {
	size := s.cfg.SchedulerBatchSize
	if size <= 0 {
		size = defaultSchedulerBatchSize
	}
	var total DeliverScheduledMessagesResult
	for {
		res, claimed, err := s.deliverBatch(ctx, size)
		total.Delivered += res.Delivered
		total.Failed += res.Failed
		if err != nil || claimed < size {
			s.monitorScheduled(total)
			return total, err
		}
	}
}

// deliverBatch claims at most size due messages and delivers them in one transaction.
func (s *Service) deliverBatch(ctx context.Context, size int) (DeliverScheduledMessagesResult, int, error) {
	var (
		res     DeliverScheduledMessagesResult
		claimed int
	)
	claim := func(ctx context.Context, fn func(storage.Tx) error) error {
		return storage.UpdateReadCommitted(ctx, s.store, fn)
	}
	err := s.eng.MutateWith(ctx, claim, engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		tx, ev, now := o.Tx, o.Ev, o.Now
		res, claimed = DeliverScheduledMessagesResult{}, 0
		due, err := tx.ScheduledMessages().ClaimDue(now.Unix(), size)
		if err != nil || len(due) == 0 {
			return err
		}
		claimed = len(due)
		w := o.World()
		if err := preloadScheduled(w, tx, due); err != nil {
			return err
		}
		var b deliveredBatch
		for _, m := range due {
			failed, err := s.deliverScheduled(tx, ev, w, m, now, &b)
			if err != nil {
				return err
			}
			if failed {
				res.Failed++
			} else {
				res.Delivered++
			}
		}
		return b.record(tx, now)
	})
	if err != nil {
		return DeliverScheduledMessagesResult{}, 0, err
	}
	return res, claimed, nil
}

// deliveredBatch collects what a batch sent, recorded once at its end: the scheduled
// messages delivered and the messages they became, and the senders who were active.
type deliveredBatch struct {
	ids     []messages.ScheduledID
	sent    []messages.ID
	senders []users.ID
}

// record marks the batch's messages delivered and its senders active (sending counts as
// activity, as for POST /messages).
func (b *deliveredBatch) record(tx storage.Tx, now time.Time) error {
	if err := tx.ScheduledMessages().MarkDelivered(b.ids, b.sent); err != nil {
		return err
	}
	slices.Sort(b.senders)
	return tx.Users().SetLastActive(now.Unix(), slices.Compact(b.senders)...)
}

// preloadScheduled reads in a few statements what sending the due messages one by one would
// otherwise read a sender or a channel at a time: the senders and direct recipients, the
// channels' subscribers and ends, and who muted each sender. With no reads between them, the
// messages' rows are then written together (the SQL store defers them to the next statement).
func preloadScheduled(w *world.World, tx storage.Tx, due []messages.Scheduled) error {
	var people, senders []users.ID
	var chans []channels.ID
	for _, m := range due {
		senders = append(senders, m.SenderID)
		people = append(people, m.Recipients...)
		if !m.IsDirect() && m.Kind != messages.Remind {
			chans = append(chans, m.ChannelID)
		}
	}
	slices.Sort(chans)
	chans = slices.Compact(chans)
	w.PreloadChannels(chans)
	for _, c := range chans {
		people = append(people, w.SubscribersOf(c)...)
	}
	w.PreloadUsers(append(people, senders...))
	w.LoadEnds(chans)
	return w.PreloadMuters(tx.MutedUsers(), senders)
}

// deliverScheduled sends one claimed message and records the outcome: delivered (in b, with a
// remove event for its author) or failed. A refusal (an *engine.Error) fails the message; any other
// error aborts the batch.
func (s *Service) deliverScheduled(tx storage.Tx, ev *engine.Events, w *world.World, m messages.Scheduled, now time.Time, b *deliveredBatch) (failed bool, err error) {
	sender, ok := w.Lookup(m.SenderID)
	var refusal *engine.Error
	switch {
	case !ok || !sender.IsActive:
		refusal = engine.BadRequest("Account is deactivated")
	case w.Org().Deactivated:
		refusal = engine.BadRequest("This organization has been deactivated")
	case m.Kind == messages.Remind:
		m.DeliveredMessageID, err = sendReminder(w, tx, ev, sender, m, now)
	case now.After(time.Unix(m.DeliverAt, 0).Add(ScheduledMessageLateCutoff)):
		refusal = engine.BadRequest("Message could not be sent at the scheduled time.")
	default:
		msg := messages.Message{SenderID: sender.ID, Content: m.Content, Timestamp: now.Unix(), Client: m.Client}
		m.DeliveredMessageID, err = conversations.SendAs(w, tx, ev, sender, msg, scheduledSendParams(m), m.ReadBySender)
		if e := (*engine.Error)(nil); errors.As(err, &e) {
			refusal, err = e, nil
		} else if err == nil {
			b.senders = append(b.senders, sender.ID)
		}
	}
	if err != nil {
		return false, err
	}
	if refusal != nil {
		return true, s.failScheduled(tx, ev, w, m, sender, refusal)
	}
	b.ids, b.sent = append(b.ids, m.ID), append(b.sent, m.DeliveredMessageID)
	if m.Kind == messages.Remind {
		ev.Emit(RemindersEvent{Type: "reminders", Op: "remove", ReminderID: m.ID}, []int64{int64(m.SenderID)})
	} else {
		ev.Emit(ScheduledMessagesEvent{Type: "scheduled_messages", Op: "remove", ScheduledMessageID: m.ID},
			[]int64{int64(m.SenderID)})
	}
	return false, nil
}

// scheduledSendParams addresses a scheduled message as POST /messages would.
func scheduledSendParams(m messages.Scheduled) conversations.SendMessageParams {
	if m.IsDirect() {
		return conversations.SendMessageParams{Type: "private", UserIDs: m.Recipients}
	}
	c, topic := m.ChannelID, m.Topic
	return conversations.SendMessageParams{Type: "stream", ChannelID: &c, Topic: &topic}
}

// sendReminder sends a reminder: the notification bot's direct message to its owner, its
// text made again from the message when the owner can still read it, else the text stored
// when it was scheduled.
func sendReminder(w *world.World, tx storage.Tx, ev *engine.Events, owner users.User, m messages.Scheduled, now time.Time) (messages.ID, error) {
	content := m.Content
	target, _, err := narrows.ReadableMessage(w, tx.Messages(), owner, m.ReminderTargetID)
	var refused *engine.Error
	switch {
	case err == nil:
		content = messages.ReminderContent(reminderTarget(w, target), m.ReminderNote)
	case !errors.As(err, &refused):
		return 0, err
	}
	msg := messages.Message{
		SenderID: conversations.NotificationBotID, Content: content, Timestamp: now.Unix(), Client: conversations.InternalClient,
		Recipients: messages.Participants(conversations.NotificationBotID, []users.ID{owner.ID}),
	}
	if err := conversations.DeliverMessage(w, tx, ev, &msg, []users.ID{owner.ID}, conversations.ReadBy()); err != nil {
		return 0, err
	}
	return msg.ID, nil
}

// failScheduled marks m failed with the refusal's message. The author of a failed "send
// later" message gets an update event and the notification bot's direct message saying why,
// unless the account or the organization is deactivated; a failed reminder is only marked.
func (s *Service) failScheduled(tx storage.Tx, ev *engine.Events, w *world.World, m messages.Scheduled, sender users.User, refusal *engine.Error) error {
	m.Failed, m.FailureMessage = true, refusal.Msg
	if err := tx.ScheduledMessages().Update(m); err != nil {
		return err
	}
	if m.Kind == messages.Remind || !sender.IsActive || w.Org().Deactivated {
		return nil
	}
	rec := scheduledMessageRecord(m)
	ev.Emit(ScheduledMessagesEvent{Type: "scheduled_messages", Op: "update", ScheduledMessage: &rec},
		[]int64{int64(sender.ID)})
	return s.conv.NotifyUser(tx, ev, w, sender.ID, scheduledFailureNotice(m))
}

// scheduledFailureNotice is the notification bot's message about a failed scheduled message.
func scheduledFailureNotice(m messages.Scheduled) string {
	at := time.Unix(m.DeliverAt, 0).UTC().Format("2006-01-02T15:04:05+00:00")
	return fmt.Sprintf("The message you scheduled for <time:%s> was not sent because of the following error:\n\n> %s\n\n"+
		"[View scheduled messages](#scheduled)", at, m.FailureMessage)
}

// StartScheduler starts delivering scheduled messages and reminders in the background: every
// Options.SchedulerInterval (default 1s) it calls DeliverScheduledMessages, so that each
// message goes out within that interval of its time (by the Service's clock), including
// messages that fell due while no process ran. Close stops it. An embedder that does not call
// it (tests) delivers with DeliverScheduledMessages; calling it twice does nothing more.
func (s *Service) StartScheduler() {
	s.schedOnce.Do(func() {
		interval := s.cfg.SchedulerInterval
		if interval <= 0 {
			interval = defaultSchedulerInterval
		}
		ctx, cancel := context.WithCancel(context.Background())
		s.schedStop, s.schedDone = cancel, make(chan struct{})
		go s.runScheduler(ctx, interval)
	})
}

func (s *Service) runScheduler(ctx context.Context, interval time.Duration) {
	defer close(s.schedDone)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.DeliverScheduledMessages(ctx, DeliverScheduledMessagesParams{}); err != nil && ctx.Err() == nil {
			s.log.Error("delivering scheduled messages", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// StopScheduler stops the background scheduler and waits for it.
func (s *Service) StopScheduler() {
	if s.schedStop != nil {
		s.schedStop()
		<-s.schedDone
	}
}

// ScheduledState is register's scheduled_messages and reminders, each present when fetched.
type ScheduledState struct {
	ScheduledMessages *[]ScheduledMessageRecord `json:"scheduled_messages,omitempty"`
	Reminders         *[]ReminderRecord         `json:"reminders,omitempty"`
}

// ScheduledStateOf computes the sections of ScheduledState that p fetches; nil when none.
// Spectators get empty lists.
func ScheduledStateOf(r storage.ScheduledMessageReader, viewer users.User, p clients.Register) (*ScheduledState, error) {
	var st ScheduledState
	if p.Fetches("scheduled_messages") {
		list, err := scheduledMessagesState(r, viewer)
		if err != nil {
			return nil, err
		}
		st.ScheduledMessages = &list
	}
	if p.Fetches("reminders") {
		list, err := remindersState(r, viewer)
		if err != nil {
			return nil, err
		}
		st.Reminders = &list
	}
	if st.ScheduledMessages == nil && st.Reminders == nil {
		return nil, nil
	}
	return &st, nil
}
