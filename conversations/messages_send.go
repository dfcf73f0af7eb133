package conversations

import (
	"context"
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/files"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/notify"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// MaxDirectRecipients bounds the recipients of one direct message.
const MaxDirectRecipients = narrows.MaxDirectRecipients

// SendMessageParams are the parameters of POST /messages. A channel message names its channel
// by ChannelID or ChannelName; a direct message its recipients by UserIDs or Emails.
type SendMessageParams struct {
	// Type is "stream" or "channel" for a channel message, "direct" or "private" for a direct
	// message.
	Type        string
	ChannelID   *channels.ID
	ChannelName string
	UserIDs     []users.ID
	Emails      []string
	// Topic is nil when absent (the empty topic where allowed).
	Topic   *string
	Content string
	// ReadBySender marks the message read for the sender; nil guesses from Client.
	ReadBySender *bool
	// Client names the sending client (the client parameter or the User-Agent's first word).
	Client string
	// QueueID and LocalID are the sender's event queue and its local echo id: that queue's
	// message event carries LocalID back as local_message_id.
	QueueID, LocalID string
}

// MaxLocalIDLength bounds SendMessageParams.LocalID.
const MaxLocalIDLength = 100

// SendMessageResult is the id of the new message and the links to it (messages_send_link.go).
type SendMessageResult struct {
	ID messages.ID `json:"id"`
	// MessageURL links directly to the message in its conversation (feature level 508).
	MessageURL string `json:"message_url"`
	// MessageLink is the Markdown link to it the web app's "Copy link to message" makes:
	// [#channel > topic @ 💬](message_url), or the plain URL for a direct message or a
	// channel whose name the sender may not see (feature level 508).
	MessageLink string `json:"message_link"`
}

// Errors of sending and reading messages.
var (
	errInvalidMessage   = narrows.ErrInvalidMessage
	errTopicsRequired   = &engine.Error{Code: engine.CodeBadRequest, Msg: "Topics are required in this organization."}
	errGeneralChatOnly  = &engine.Error{Code: engine.CodeBadRequest, Msg: "Only the general chat topic is allowed in this channel."}
	errCannotPost       = &engine.Error{Code: engine.CodeBadRequest, Msg: "You do not have permission to post in this channel."}
	errCannotStartTopic = &engine.Error{Code: engine.CodeBadRequest, Msg: "You do not have permission to create new topics in this channel."}
)

func errChannelIDNotFound(id channels.ID) *engine.Error {
	return engine.Errorf(engine.CodeStreamDoesNotExist, "Channel with ID '%d' does not exist", id).With("stream_id", id)
}

func errChannelNameNotFound(name string) *engine.Error {
	return engine.Errorf(engine.CodeStreamDoesNotExist, "Channel '%s' does not exist", name).With("stream", name)
}

// uiClients are the clients whose messages count as read by their sender (Zulip's heuristic
// for read_by_sender).
var uiClients = []string{"website", "zulipmobile", "zulipelectron", "zulipterminal", "zulipandroid", "zulipios", "zulipdesktop", "snipe", "ios", "android"}

func ReadBySenderDefault(client string) bool {
	c := strings.ToLower(client)
	return slices.Contains(uiClients, c) || strings.Contains(c, "desktop app")
}

// SendMessage sends a message to a channel topic or to users, and delivers message events to
// its recipients.
func (s *Service) SendMessage(ctx context.Context, actor engine.Actor, p SendMessageParams) (SendMessageResult, error) {
	switch p.Type {
	case "stream", "channel", "direct", "private":
	default:
		return SendMessageResult{}, engine.BadRequest("Invalid message type")
	}
	content, err := messages.NormalizeContent(p.Content)
	if err != nil {
		return SendMessageResult{}, engine.RuleError(err)
	}
	if len(p.LocalID) > MaxLocalIDLength {
		return SendMessageResult{}, engine.BadRequest("local_id is too long (limit: %d characters)", MaxLocalIDLength)
	}
	if len(p.UserIDs)+len(p.Emails) > MaxDirectRecipients {
		return SendMessageResult{}, engine.BadRequest("Too many recipients (limit: %d)", MaxDirectRecipients)
	}
	client := p.Client
	if client == "" {
		client = "API"
	}
	readBySender := ReadBySenderDefault(client)
	if p.ReadBySender != nil {
		readBySender = *p.ReadBySender
	}
	var res SendMessageResult
	pre := s.newPrerender(content)
	err = s.eng.MutateOverlapping(ctx, actor, engine.SignedIn, sendAhead(p), pre.run, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.SharedWorld()
		w.Pre = pre
		s.noteLinkifiers(w)
		m := messages.Message{SenderID: me.ID, Content: content, Timestamp: o.Now.Unix(), Client: client}
		first := len(ev.List)
		sent, err := SendAsMessage(w, tx, ev, me, m, p, readBySender)
		if err != nil {
			return err
		}
		res = sendResult(w, me, sent)
		// Sending counts as activity (partial_subscribers).
		if err := tx.Users().SetLastActive(m.Timestamp, me.ID); err != nil {
			return err
		}
		if p.QueueID != "" && p.LocalID != "" {
			markLocalEcho(ev.List[first:], me.ID, p.QueueID, p.LocalID)
		}
		return nil
	})
	if err != nil {
		return SendMessageResult{}, err
	}
	return res, nil
}

// sendAhead announces the reads of a send that p determines before anything is read: the
// subscribers of a channel named by id (channelForSend reads them first).
func sendAhead(p SendMessageParams) func(storage.Tx) {
	if p.ChannelID == nil || p.Type == "direct" || p.Type == "private" {
		return nil
	}
	c := *p.ChannelID
	return func(tx storage.Tx) { storage.PrefetchSend(tx, c) }
}

// SendAs sends m (content, time and client set) as me to where p says, with the checks of
// POST /messages; the scheduler sends a scheduled message through it as its author would
// have sent it then. It returns the new message's id. The caller records the sender's
// activity (SetLastActive), once per sender when it sends many.
func SendAs(w *world.World, tx storage.Tx, ev *engine.Events, me users.User, m messages.Message, p SendMessageParams, readBySender bool) (messages.ID, error) {
	sent, err := SendAsMessage(w, tx, ev, me, m, p, readBySender)
	return sent.ID, err
}

// SendAsMessage is SendAs returning the message as stored (its id, channel and topic, or
// direct recipients).
func SendAsMessage(w *world.World, tx storage.Tx, ev *engine.Events, me users.User, m messages.Message, p SendMessageParams, readBySender bool) (messages.Message, error) {
	w.KnowUser(me) // read by the engine.Gate in this transaction: no second read
	recipients, err := Address(w, tx.Messages(), me, p, &m)
	if err != nil {
		return messages.Message{}, err
	}
	read := ReadBy()
	if readBySender {
		read = ReadBy(me.ID)
	}
	if err := DeliverMessage(w, tx, ev, &m, recipients, read); err != nil {
		return messages.Message{}, err
	}
	return m, nil
}

// Address checks that me may send to where p says and sets m's channel and topic, or its
// direct recipients; it returns the users who receive the message, me included.
func Address(w *world.World, mr storage.MessageReader, me users.User, p SendMessageParams, m *messages.Message) ([]users.ID, error) {
	var recipients []users.ID
	if p.Type == "direct" || p.Type == "private" {
		var err error
		if m.Recipients, err = directParticipants(w, me, p); err != nil {
			return nil, err
		}
		if err := checkDirectMessagePolicy(w, mr, me, m.Recipients); err != nil {
			return nil, err
		}
		recipients = m.Recipients
	} else {
		c, err := ChannelForSend(w, mr, me, p)
		if err != nil {
			return nil, err
		}
		m.ChannelID = c.ID
		if m.Topic, err = topicForSend(mr, w, me, c, p.Topic); err != nil {
			return nil, err
		}
		recipients = ActiveSubscribers(w, c.ID) // ascending
		if _, found := slices.BinarySearch(recipients, me.ID); !found {
			recipients = append(slices.Clip(recipients), me.ID) // a copy: the world's list is shared
		}
		return recipients, nil
	}
	if !slices.Contains(recipients, me.ID) {
		recipients = append(recipients, me.ID)
	}
	return recipients, nil
}

// markLocalEcho tags the sender's message event with the queue and local id of its local echo.
func markLocalEcho(list []engine.Pending, sender users.ID, queueID, localID string) {
	for i, p := range list {
		e, ok := p.Payload.(MessageEvent)
		if !ok || !slices.Contains(p.Recipients, int64(sender)) {
			continue
		}
		e.senderQueue, e.localID = queueID, localID
		list[i].Payload = e
	}
}

// DeliverMessage renders m's content and stores m with one row per recipient, flagged read where
// read says so and for those who muted the sender, and with the mentions of its content for
// everyone but the sender and the alert words it contains, and queues the message events (and, for
// a channel's first message, the stream update of first_message_id). It is the one path every
// message takes, whoever sends it. m.ID is set on return.
func DeliverMessage(w *world.World, tx storage.Tx, ev *engine.Events, m *messages.Message, recipients []users.ID, read Readers) error {
	var mentions markdown.Mentions
	m.Rendered, mentions = renderSent(w, m.Content, w.User(m.SenderID))
	d, err := newDelivery(w, tx, *m, mentions, recipients, read)
	if err != nil {
		return err
	}
	if uploads.MayLink(m.Content) {
		previews, err := files.UploadPreviews(tx.Attachments(), m.Content)
		if err != nil {
			return err
		}
		m.Rendered += previews
	}
	if m.ID, err = createMessage(w, tx.Messages(), *m, d); err != nil {
		return err
	}
	// The channel's activity from before the message (createMessage).
	firstOfChannel := !m.IsDirect() && firstMessageID(w, m.ChannelID) == nil
	if decidesAlone(w, ev, *m, firstOfChannel) {
		return engine.ErrDecideAlone // the transaction, message included, is rolled back
	}
	if err := queueServiceBots(w, tx, *m, mentions, recipients); err != nil { // bots.go
		return err
	}
	if err := notify.Queue(w, tx, *m, d.recipients.ids, d.recipients.sortedHead, d.flagged); err != nil { // missed-message emails
		return err
	}
	if uploads.MayLink(m.Content) {
		if err := files.LinkAttachments(w, tx, ev, *m); err != nil {
			return err
		}
	}
	if !m.IsDirect() {
		c, _ := w.Channel(m.ChannelID)
		noteChannelMessage(w, ev, c, m.ID, m.Timestamp)
		if firstOfChannel {
			id := m.ID
			ev.Emit(streamFirstMessageEvent(c, &id), w.Watchers(c, nil))
		}
	}
	emitMessageEvents(w, ev, *m, d)
	return nil
}

// emitMessageEvents records the message events of m: one per set of flags among its rows, and
// for a public channel the same event without flags for the all_public_streams and narrowed
// queues of everyone else.
func emitMessageEvents(w *world.World, ev *engine.Events, m messages.Message, d delivery) {
	order, byFlags := d.groups()
	var public MessageEvent
	for i, f := range order {
		e := newMessageEvent(w, m, f)
		ev.Emit(e, byFlags[i])
		if i == 0 {
			public = e
		}
	}
	if c, _ := w.Channel(m.ChannelID); !m.IsDirect() && !c.InviteOnly {
		// The all_public_streams and narrowed queues of everyone else (events_public.go): the
		// same event without flags, also when the channel has no recipient at all.
		if len(order) == 0 {
			public = newMessageEvent(w, m, 0)
		}
		public.flagBits, public.Flags = 0, messages.Flags(0).Names()
		ev.Emit(PublicChannelMessage{Event: public, Except: publicMessageExcept(w, d.recipients)}, []int64{PublicWatchers})
	}
}

// createMessage stores m with its rows. A channel message is stored for its channel's
// subscribers (storage.CreateForSubscribers): only the rows that differ from an unread row
// without flags, and the sender's, are given to the store, which writes no row per recipient.
// The store reads the channel's bounds from before m with the insert, and the world keeps them
// when it has not read them, so that the decisions about the channel's activity see it as it
// was before m.
func createMessage(w *world.World, mw storage.MessageWriter, m messages.Message, d delivery) (messages.ID, error) {
	if m.IsDirect() {
		return mw.Create(m, d.rows())
	}
	var id messages.ID
	var before storage.ChannelActivity
	var err error
	if c, ok := mw.(storage.SubscriberMessageCreator); ok {
		id, before, err = c.CreateForSubscribers(m, d.storedRows(m.SenderID))
	} else {
		id, before, err = storage.CreateInChannel(mw, m, d.rows())
	}
	if err != nil {
		return 0, err
	}
	if !w.KnowsEnds(m.ChannelID) && w.ReadsActivity() {
		w.RememberActivity([]storage.ChannelActivity{before}, true)
	}
	return id, nil
}

// decidesAlone reports whether m, a send overlapping others (internal/engine/overlap.go), changes
// its channel for everyone (first says it is the channel's first message; or its first in a long
// while), which is decided with no other send beside it.
func decidesAlone(w *world.World, ev *engine.Events, m messages.Message, first bool) bool {
	if !ev.Overlapping || m.IsDirect() {
		return false
	}
	c, _ := w.Channel(m.ChannelID)
	return first || !recentlyActive(w, c)
}

// ActiveSubscribers lists the active users subscribed to c, ascending. For a big channel it
// asks the store how many of them are active first: when all are, as is usual, it looks up
// no user.
func ActiveSubscribers(w *world.World, c channels.ID) []users.ID {
	subs := w.SubscribersOf(c)
	if len(subs) > world.LazyUserReads && w.StoredActiveCount(c) == len(subs) {
		return slices.Clip(subs) // shared: the world replaces its lists, never writes them
	}
	out := make([]users.ID, 0, len(subs))
	w.PreloadUsers(subs)
	for _, id := range subs {
		if w.User(id).IsActive {
			out = append(out, id)
		}
	}
	return out
}
