package conversations

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/files"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// UpdateMessageEvent is an update_message event. Flags are the recipient's flags on MessageID
// after the edit; the topic fields are shown per the queue's empty_topic_name capability.
type UpdateMessageEvent struct {
	Type                string        `json:"type"`
	UserID              *users.ID     `json:"user_id"`
	EditTimestamp       int64         `json:"edit_timestamp"`
	MessageID           messages.ID   `json:"message_id"`
	MessageIDs          []messages.ID `json:"message_ids"`
	Flags               []string      `json:"flags"`
	RenderingOnly       bool          `json:"rendering_only"`
	StreamName          string        `json:"stream_name,omitempty"`
	StreamID            *channels.ID  `json:"stream_id,omitempty"`
	NewStreamID         *channels.ID  `json:"new_stream_id,omitempty"`
	PropagateMode       string        `json:"propagate_mode,omitempty"`
	OrigSubject         *string       `json:"orig_subject,omitempty"`
	Subject             *string       `json:"subject,omitempty"`
	TopicLinks          *[]TopicLink  `json:"topic_links,omitempty"`
	OrigContent         *string       `json:"orig_content,omitempty"`
	OrigRenderedContent *string       `json:"orig_rendered_content,omitempty"`
	Content             *string       `json:"content,omitempty"`
	RenderedContent     *string       `json:"rendered_content,omitempty"`
	IsMeMessage         *bool         `json:"is_me_message,omitempty"`
	origTopic, topic    *string       // the raw topics behind OrigSubject and Subject
	emptyTopicLabel     string
}

// TopicLink is one linkifier match in a topic.
type TopicLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

// ForClient shows the empty topic as the organization's label to clients without the
// empty_topic_name capability.
func (e UpdateMessageEvent) ForClient(o clients.Options) (any, bool) {
	knows := o.Capabilities.EmptyTopicName
	if e.origTopic != nil {
		t := topics.Display(*e.origTopic, e.emptyTopicLabel, knows)
		e.OrigSubject = &t
	}
	if e.topic != nil {
		t := topics.Display(*e.topic, e.emptyTopicLabel, knows)
		e.Subject = &t
	}
	return e, true
}

// topicLinks are the organization's linkifier matches in a topic.
func topicLinks(w *world.World, topic string) []TopicLink {
	out := []TopicLink{}
	linkify := w.Linkifiers()
	if linkify == nil {
		return out
	}
	for _, l := range linkify(topic) {
		out = append(out, TopicLink{Text: topic[l.Start:l.End], URL: l.URL})
	}
	return out
}

// mentionMask are the flags a content edit recomputes.
const mentionMask = messages.FlagMentioned | messages.FlagStreamWildcardMentioned | messages.FlagTopicWildcardMentioned

// applyEdit writes a planned edit and records its events.
func (s *Service) applyEdit(tx storage.Tx, ev *engine.Events, w *world.World, p editPlan) error {
	mr := tx.Messages()
	me, m := p.me, p.m
	uid := me.ID
	e := UpdateMessageEvent{Type: "update_message", UserID: &uid, EditTimestamp: p.now, MessageID: m.ID,
		emptyTopicLabel: w.Org().EmptyTopicDisplayName}
	entry := messages.EditHistoryEntry{UserID: me.ID, Timestamp: p.now}
	edited := m.Clone()
	rows, err := mr.Rows([]messages.ID{m.ID})
	if err != nil {
		return err
	}
	if p.content != nil {
		if err := editContent(w, tx, ev, p, &edited, &e, &entry, rows); err != nil {
			return err
		}
	}
	if m.IsDirect() {
		edited.EditHistory = append([]messages.EditHistoryEntry{entry}, edited.EditHistory...)
		if err := mr.Update(edited); err != nil {
			return err
		}
		e.MessageIDs = []messages.ID{m.ID}
		addByFlags(ev, e, rows, nil)
		return nil
	}
	origID := p.orig.ID
	e.StreamName, e.StreamID = p.orig.Name, &origID
	moveEntry := messages.EditHistoryEntry{UserID: me.ID, Timestamp: p.now}
	if p.moved() {
		e.PropagateMode = string(p.mode)
	}
	recordMove(w, p, &e, &entry, &moveEntry)
	ids, err := editedIDs(w, mr, p)
	if err != nil {
		return err
	}
	e.MessageIDs = ids
	chanIDs := []channels.ID{p.orig.ID}
	if p.streamEdited {
		chanIDs = append(chanIDs, p.target.ID)
		slices.Sort(chanIDs)
	}
	before, err := mr.Activity(chanIDs, 0, 0)
	if err != nil {
		return err
	}
	wasActive := activeStates(w, chanIDs)
	targetHadMessages, targetVisible, err := targetState(w, mr, p)
	if err != nil {
		return err
	}
	var movedAt int64
	if p.streamEdited || p.topicEdited && !p.resolveToggle() {
		movedAt = p.now
	}
	if err := writeChannelEdit(mr, p, edited, entry, moveEntry, ids, movedAt); err != nil {
		return err
	}
	var losingAccess []users.ID
	if p.streamEdited {
		if rows, losingAccess, err = moveRows(w, mr, p, ids, rows); err != nil {
			return err
		}
	}
	after, err := mr.Activity(chanIDs, 0, 0)
	if err != nil {
		return err
	}
	if len(losingAccess) > 0 {
		addDeleteEvents(w, ev, messages.Message{ChannelID: p.orig.ID, Topic: m.Topic}, ids, toInt64s(losingAccess))
	}
	movedAll := false
	if p.moved() {
		if movedAll, err = movedWholeTopic(w, mr, p); err != nil {
			return err
		}
		if movedAll {
			if err := s.moveUserTopics(tx, ev, w, p, losingAccess, targetHadMessages); err != nil {
				return err
			}
		}
	}
	addByFlags(ev, e, rows, editSubscriberRecipients(w, p, rows, losingAccess))
	addFirstMessageEvents(w, ev, chanIDs, before, after)
	refreshActivity(w, ev, chanIDs, wasActive)
	if err := s.resolveNotice(tx, ev, w, p); err != nil {
		return err
	}
	if p.moved() {
		return s.postNotices(tx, ev, w, moveNotices(w, p, len(ids), movedAll, !targetVisible))
	}
	return nil
}

// movedWholeTopic reports whether a move took the whole topic: change_all, or no message the
// actor can read left behind.
func movedWholeTopic(w *world.World, mr storage.MessageReader, p editPlan) (bool, error) {
	if p.mode == messages.ChangeAll {
		return true, nil
	}
	left, err := movableTopicMessages(w, mr, p.me, p.orig, p.m.Topic)
	return len(left) == 0, err
}

// addByFlags records e for the users with rows of the target message (rows, each with its
// own flags) and for extra users without rows (flags ["read"]).
func addByFlags(ev *engine.Events, e UpdateMessageEvent, rows []messages.UserMessage, extra []users.ID) {
	byFlags := map[messages.Flags][]int64{}
	var order []messages.Flags
	add := func(f messages.Flags, u users.ID) {
		if _, ok := byFlags[f]; !ok {
			order = append(order, f)
		}
		byFlags[f] = append(byFlags[f], int64(u))
	}
	for _, r := range rows {
		add(r.Flags, r.UserID)
	}
	for _, u := range extra {
		add(messages.FlagRead, u)
	}
	for _, f := range order {
		one := e
		one.Flags = f.Names()
		ev.Emit(one, dedupe(byFlags[f]))
	}
}

// moveRows adjusts the users' rows of messages moved to another channel: users not subscribed
// to the target lose their rows, and in a target with protected history its subscribers gain
// read rows. It returns the target message's remaining rows and the users who can no longer
// read the messages (guests, or everyone not subscribed when the target is private).
func moveRows(w *world.World, mr storage.MessageWriter, p editPlan, ids []messages.ID, targetRows []messages.UserMessage) ([]messages.UserMessage, []users.ID, error) {
	all, err := mr.Rows(ids)
	if err != nil {
		return nil, nil, err
	}
	// candidates maps the users who could read the messages to whether they have rows of them.
	candidates := map[users.ID]bool{}
	for _, r := range all {
		candidates[r.UserID] = true
	}
	for _, u := range w.SubscribersOf(p.orig.ID) {
		candidates[u] = candidates[u] || false
	}
	var losingRows, losingAccess []users.ID
	for u, rowed := range candidates {
		if w.IsSubscribed(p.target.ID, u) {
			continue
		}
		if rowed {
			losingRows = append(losingRows, u)
		}
		if p.target.InviteOnly || w.User(u).Role == users.RoleGuest {
			losingAccess = append(losingAccess, u)
		}
	}
	slices.Sort(losingRows)
	slices.Sort(losingAccess)
	if err := mr.DeleteRows(losingRows, ids); err != nil {
		return nil, nil, err
	}
	if p.target.InviteOnly && !p.target.HistoryPublicToSubscribers {
		have := map[[2]int64]bool{}
		for _, r := range all {
			have[[2]int64{int64(r.UserID), int64(r.MessageID)}] = true
		}
		var gained []messages.UserMessage
		for _, u := range w.SubscribersOf(p.target.ID) {
			for _, id := range ids {
				if !have[[2]int64{int64(u), int64(id)}] {
					gained = append(gained, messages.UserMessage{UserID: u, MessageID: id, Flags: messages.FlagRead})
				}
			}
		}
		if err := mr.PutRows(gained); err != nil {
			return nil, nil, err
		}
	}
	kept := slices.DeleteFunc(slices.Clone(targetRows), func(r messages.UserMessage) bool {
		return slices.Contains(losingRows, r.UserID)
	})
	return kept, losingAccess, nil
}

func hasRow(rows []messages.UserMessage, u users.ID) bool {
	return slices.ContainsFunc(rows, func(r messages.UserMessage) bool { return r.UserID == u })
}

func toInt64s(ids []users.ID) []int64 {
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = int64(id)
	}
	return out
}

// editSubscriberRecipients are the users without a row of the edited message who still get
// the update_message event: where the original channel's history is public, the active
// subscribers of the target channel and, for a channel change, those of the original one,
// except users who lose access and guests who only follow the target.
func editSubscriberRecipients(w *world.World, p editPlan, rows []messages.UserMessage, losingAccess []users.ID) []users.ID {
	if p.orig.InviteOnly && !p.orig.HistoryPublicToSubscribers {
		return nil
	}
	skip := func(u users.ID) bool {
		return hasRow(rows, u) || slices.Contains(losingAccess, u) || !w.User(u).IsActive
	}
	var out []users.ID
	for _, u := range w.SubscribersOf(p.target.ID) {
		guestNew := p.streamEdited && w.User(u).Role == users.RoleGuest && !w.IsSubscribed(p.orig.ID, u)
		if !skip(u) && !guestNew {
			out = append(out, u)
		}
	}
	if p.streamEdited {
		for _, u := range w.SubscribersOf(p.orig.ID) {
			if !skip(u) && !w.IsSubscribed(p.target.ID, u) {
				out = append(out, u)
			}
		}
	}
	return out
}

// editContent applies a content edit to edited: rendering (with upload previews), the event's and
// history entry's content fields, the recipients' recomputed mention and alert-word flags, and the
// message's links to uploads.
func editContent(w *world.World, tx storage.Tx, ev *engine.Events, p editPlan, edited *messages.Message, e *UpdateMessageEvent, entry *messages.EditHistoryEntry, rows []messages.UserMessage) error {
	mr, m := tx.Messages(), p.m
	oldContent, oldRendered := m.Content, m.Rendered
	entry.PrevContent, entry.PrevRenderedContent = &oldContent, &oldRendered
	edited.Content = *p.content
	var mentions markdown.Mentions
	edited.Rendered, mentions = RenderMessage(w, edited.Content, w.User(m.SenderID))
	if uploads.MayLink(edited.Content) {
		previews, err := files.UploadPreviews(tx.Attachments(), edited.Content)
		if err != nil {
			return err
		}
		edited.Rendered += previews
	}
	edited.LastEditTimestamp = p.now
	isMe := messages.IsMeMessage(edited.Content)
	e.OrigContent, e.OrigRenderedContent = &oldContent, &oldRendered
	e.Content, e.RenderedContent, e.IsMeMessage = &edited.Content, &edited.Rendered, &isMe
	ids := make([]users.ID, len(rows))
	for i, r := range rows {
		ids[i] = r.UserID
	}
	alerted, err := people.AlertedUsers(tx.AlertWords(), edited.Content, ids)
	if err != nil {
		return err
	}
	var changed []messages.UserMessage
	for i, r := range rows {
		nf := r.Flags &^ messages.FlagHasAlertWord
		if alerted[r.UserID] {
			nf |= messages.FlagHasAlertWord
		}
		if r.UserID != m.SenderID {
			nf = nf&^mentionMask | mentionFlags(w, mentions, r.UserID)
		}
		if nf != r.Flags {
			rows[i].Flags = nf
			changed = append(changed, rows[i])
		}
	}
	if err := mr.PutRows(changed); err != nil {
		return err
	}
	if uploads.MayLink(oldContent) || uploads.MayLink(edited.Content) {
		return files.LinkAttachments(w, tx, ev, *edited)
	}
	return nil
}

// recordMove fills the event and the history entries (of the target message, and of the
// other moved messages) with a move's channel and topic change.
func recordMove(w *world.World, p editPlan, e *UpdateMessageEvent, entry, moveEntry *messages.EditHistoryEntry) {
	m := p.m
	if p.streamEdited {
		prev, next := p.orig.ID, p.target.ID
		entry.PrevStream, entry.Stream = &prev, &next
		moveEntry.PrevStream, moveEntry.Stream = &prev, &next
		e.NewStreamID = &next
		e.origTopic = &m.Topic
	}
	if p.topicEdited {
		prev, next := m.Topic, p.topic
		entry.PrevTopic, entry.Topic = &prev, &next
		moveEntry.PrevTopic, moveEntry.Topic = &prev, &next
		e.origTopic, e.topic = &prev, &next
		links := topicLinks(w, p.topic)
		e.TopicLinks = &links
	}
}

// editedIDs are the messages an edit changes, ascending: the target message, and with
// change_later or change_all the topic's messages the actor may move from it on (or all).
func editedIDs(w *world.World, mr storage.MessageReader, p editPlan) ([]messages.ID, error) {
	m := p.m
	if p.mode == messages.ChangeOne {
		return []messages.ID{m.ID}, nil
	}
	all, err := movableTopicMessages(w, mr, p.me, p.orig, m.Topic)
	if err != nil {
		return nil, err
	}
	var ids []messages.ID
	for _, id := range all {
		if p.mode == messages.ChangeAll || id >= m.ID {
			ids = append(ids, id)
		}
	}
	if !slices.Contains(ids, m.ID) {
		ids = append(ids, m.ID)
		slices.Sort(ids)
	}
	return ids, nil
}

// targetState reports, before a move, whether the target topic had messages and whether the
// actor could see any of them (both false when nothing moves).
func targetState(w *world.World, mr storage.MessageReader, p editPlan) (hadMessages, visibleToActor bool, err error) {
	if !p.moved() {
		return false, false, nil
	}
	existing, err := mr.TopicMessageIDs(p.target.ID, p.topic, 1)
	if err != nil {
		return false, false, err
	}
	visible, err := movableTopicMessages(w, mr, p.me, p.target, p.topic)
	return len(existing) > 0, len(visible) > 0, err
}

// writeChannelEdit writes the edited channel message (with its history entry) and moves the
// other messages of ids, each with moveEntry in its history.
func writeChannelEdit(mr storage.MessageWriter, p editPlan, edited messages.Message, entry, moveEntry messages.EditHistoryEntry, ids []messages.ID, movedAt int64) error {
	others := ids
	if p.content != nil {
		edited.ChannelID, edited.Topic = p.target.ID, p.topic
		if movedAt != 0 {
			edited.LastMovedTimestamp = movedAt
		}
		edited.EditHistory = append([]messages.EditHistoryEntry{entry}, edited.EditHistory...)
		if err := mr.Update(edited); err != nil {
			return err
		}
		others = slices.DeleteFunc(slices.Clone(ids), func(id messages.ID) bool { return id == p.m.ID })
	}
	if p.moved() {
		return mr.Move(others, p.target.ID, p.topic, moveEntry, movedAt)
	}
	return nil
}
