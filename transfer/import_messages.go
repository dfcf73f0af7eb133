package transfer

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/teamchat/chat/transfer/zulipdir"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// messageFileName is the name of the n-th message file, from 1.
func messageFileName(n int) string { return fmt.Sprintf("messages-%06d.json", n) }

// readMessageFile reads the n-th message file; false when there is none.
func (im *importer) readMessageFile(n int) (messageFile, bool, error) {
	var f messageFile
	path := filepath.Join(im.dir, messageFileName(n))
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return f, false, nil
	}
	if err := readJSONFile(path, MaxMessageFileBytes, &f); err != nil {
		return f, false, err
	}
	return f, true, nil
}

// writeMessages writes the messages checked by checkMessages, one file per transaction, by
// ascending old ids in each (memory holds one file, its rows, and the id map's runs); then,
// in a last transaction, the scheduled messages and the reactions realm.json holds (where
// Zulip puts them), which name messages.
func (im *importer) writeMessages(st storage.Storage) error {
	for n := 1; n <= im.messageFiles; n++ {
		f, ok, err := im.readMessageFile(n)
		if err == nil && !ok {
			err = corrupt(messageFileName(n), "the file is gone")
		}
		if err != nil {
			return err
		}
		var added map[int64]messages.ID
		err = st.Update(im.ctx, func(tx storage.Tx) error {
			im.tx, added = tx, map[int64]messages.ID{}
			return im.writeMessageFile(messageFileName(n), &f, added)
		})
		if err != nil {
			return err
		}
		olds := slices.Sorted(maps.Keys(added))
		for _, old := range olds {
			im.messages.add(old, int64(added[old]))
			delete(im.links, old)
		}
		im.res.Messages += int64(len(olds))
		im.opts.Progress.Step("import: messages", im.res.Messages, im.seen.len())
	}
	return st.Update(im.ctx, func(tx storage.Tx) error {
		im.tx = tx
		if err := im.reactions("realm.json", im.rf.Reactions, nil); err != nil {
			return err
		}
		return im.writeScheduled()
	})
}

// writeMessageFile creates the messages of one checked file in the order of their old ids,
// with their rows, links to attachments and reactions; added receives their ids.
func (im *importer) writeMessageFile(name string, f *messageFile, added map[int64]messages.ID) error {
	rows := map[int64][]messages.UserMessage{}
	for _, r := range f.UserMessages {
		rows[r.Message] = append(rows[r.Message], messages.UserMessage{UserID: im.users[r.UserProfile], Flags: ourFlags(r.FlagsMask)})
	}
	list := f.Messages
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	var links []uploads.Link
	for _, rec := range list {
		m, err := im.message(name, rec)
		if err != nil {
			return err
		}
		if m.Rendered == "" && m.Content != "" {
			m.Rendered = markdown.Render(m.Content)
		}
		rs := rows[rec.ID]
		sort.Slice(rs, func(i, j int) bool { return rs[i].UserID < rs[j].UserID })
		id, err := im.tx.Messages().Create(m, rs)
		if err != nil {
			return fmt.Errorf("transfer: %s: message %d: %w", name, rec.ID, err)
		}
		added[rec.ID] = id
		for _, a := range im.links[rec.ID] {
			links = append(links, uploads.Link{AttachmentID: a, MessageID: id})
		}
	}
	if len(links) > 0 {
		if err := im.tx.Attachments().Link(links); err != nil {
			return err
		}
	}
	return im.reactions(name, f.Reactions, added)
}

// message turns a zerver_message row into a message of the new ids (unrendered when the
// row was).
func (im *importer) message(name string, rec zulipdir.Message) (messages.Message, error) {
	sender, err := im.user(name, rec.Sender)
	if err != nil {
		return messages.Message{}, err
	}
	m := messages.Message{SenderID: sender, Topic: rec.Topic, Content: rec.Content, Rendered: deref(rec.RenderedContent),
		Timestamp: int64(rec.DateSent), Client: im.clients[rec.SendingClient]}
	if m.Client == "" {
		m.Client = "Internal"
	}
	if rec.LastEditTime != nil {
		m.LastEditTimestamp = int64(*rec.LastEditTime)
	}
	if rec.LastMovedTime != nil {
		m.LastMovedTimestamp = int64(*rec.LastMovedTime)
	}
	r, ok := im.recipients[rec.Recipient]
	if !ok {
		return m, corrupt(name, "message %d: recipient %d does not exist", rec.ID, rec.Recipient)
	}
	switch r.Type {
	case zulipdir.RecipientStream:
		if m.ChannelID, ok = im.channels[r.TypeID]; !ok {
			return m, corrupt(name, "message %d: channel %d does not exist", rec.ID, r.TypeID)
		}
	case zulipdir.RecipientPersonal:
		other, err := im.user(name, r.TypeID)
		if err != nil {
			return m, err
		}
		m.Recipients = messages.Participants(sender, []users.ID{other})
	case zulipdir.RecipientHuddle:
		members := im.huddles[r.ID]
		if len(members) == 0 {
			return m, corrupt(name, "message %d: direct message group %d has no members", rec.ID, r.TypeID)
		}
		m.Recipients = messages.Participants(sender, members)
	default:
		return m, corrupt(name, "message %d: recipient %d has type %d", rec.ID, r.ID, r.Type)
	}
	if rec.EditHistory != nil && *rec.EditHistory != "" {
		if m.EditHistory, err = im.editHistory(*rec.EditHistory); err != nil {
			return m, corrupt(name, "message %d's edit history: %v", rec.ID, err)
		}
	}
	return m, nil
}

// editHistory reads an edit_history column with its user and channel ids remapped.
func (im *importer) editHistory(text string) ([]messages.EditHistoryEntry, error) {
	var list []messages.EditHistoryEntry
	if err := json.Unmarshal([]byte(text), &list); err != nil {
		return nil, err
	}
	for i := range list {
		e := &list[i]
		e.UserID = im.users[int64(e.UserID)] // a user the export lacks: 0
		for _, c := range []*channels.ID{e.PrevStream, e.Stream} {
			if c != nil {
				*c = im.channels[int64(*c)]
			}
		}
	}
	return list, nil
}

// reactions writes checked reactions: of the messages written before, or of added.
func (im *importer) reactions(name string, list []zulipdir.Reaction, added map[int64]messages.ID) error {
	for _, r := range list {
		msg, ok := added[r.Message]
		if !ok {
			old, found := im.messages.get(r.Message)
			if !found {
				return corrupt(name, "reaction %d: message %d does not exist", r.ID, r.Message)
			}
			msg = messages.ID(old)
		}
		err := im.tx.Messages().AddReaction(messages.Reaction{MessageID: msg, UserID: im.users[r.UserProfile], EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType})
		if err != nil && !errors.Is(err, storage.ErrConflict) {
			return fmt.Errorf("transfer: %s: reaction %d: %w", name, r.ID, err)
		}
	}
	return nil
}

// importAttachments creates the attachments; their links to messages are written with the
// messages (writeMessageFile).
func (im *importer) importAttachments() error {
	var af attachmentFile
	path := filepath.Join(im.dir, "attachment.json")
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := readJSONFile(path, MaxRecordsBytes, &af); err != nil {
		return err
	}
	list := af.Attachments
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	for _, a := range list {
		owner, err := im.user("attachment.json", a.Owner)
		if err != nil {
			return err
		}
		if !uploads.ValidPathID(a.PathID) {
			return corrupt("attachment.json", "attachment %d: path %q", a.ID, a.PathID)
		}
		id, err := im.tx.Attachments().Create(uploads.Attachment{OwnerID: owner, PathID: a.PathID, Name: a.FileName, Size: a.Size,
			ContentType: deref(a.ContentType), CreateTime: int64(a.CreateTime * 1000), Width: a.Width, Height: a.Height, Thumbnailed: a.Thumbnailed})
		if err != nil {
			return corrupt("attachment.json", "attachment %d: %v", a.ID, err)
		}
		for _, m := range a.Messages {
			if im.seen.has(m) { // a message the export type left out: no link
				im.links[m] = append(im.links[m], id)
			}
		}
	}
	return nil
}

func (im *importer) importDrafts() error {
	var list []drafts.Draft
	for _, d := range im.rf.Drafts {
		u, err := im.user("realm.json", d.UserProfile)
		if err != nil {
			return err
		}
		dr := drafts.Draft{UserID: u, Type: drafts.Type(d.Type), Topic: d.Topic, Content: d.Content, Timestamp: int64(d.LastEdit)}
		for _, t := range d.To {
			switch dr.Type {
			case drafts.TypeStream:
				dr.To = append(dr.To, int64(im.channels[t]))
			case drafts.TypePrivate:
				dr.To = append(dr.To, int64(im.users[t]))
			}
		}
		list = append(list, dr)
	}
	if len(list) == 0 {
		return nil
	}
	_, err := im.tx.Drafts().Create(list)
	return err
}

// checkScheduled checks the scheduled messages, written last (writeScheduled): they may
// name messages.
func (im *importer) checkScheduled() error {
	for _, s := range im.rf.Scheduled {
		if _, err := im.scheduled(s); err != nil {
			return err
		}
	}
	return nil
}

// writeScheduled creates the scheduled messages in the order of their old ids.
func (im *importer) writeScheduled() error {
	list := slices.Clone(im.rf.Scheduled)
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	for _, s := range list {
		sm, err := im.scheduled(s)
		if err != nil {
			return err
		}
		if s.DeliveredMessage != nil {
			id, _ := im.messages.get(*s.DeliveredMessage)
			sm.DeliveredMessageID = messages.ID(id)
		}
		if s.ReminderTarget != nil {
			id, _ := im.messages.get(*s.ReminderTarget)
			sm.ReminderTargetID = messages.ID(id)
		}
		if _, err := im.tx.ScheduledMessages().Create(sm); err != nil {
			return err
		}
	}
	return nil
}

// scheduled turns a zerver_scheduledmessage row into a scheduled message of the new ids but
// its messages'.
func (im *importer) scheduled(s scheduledRecord) (messages.Scheduled, error) {
	sender, err := im.user("realm.json", s.Sender)
	if err != nil {
		return messages.Scheduled{}, err
	}
	sm := messages.Scheduled{Kind: messages.ScheduledKind(s.Kind), SenderID: sender, Topic: s.Subject, Content: s.Content,
		Rendered: s.RenderedContent, DeliverAt: int64(s.ScheduledTimestamp), ReadBySender: s.ReadBySender, Client: s.Client,
		Failed: s.Failed, FailureMessage: s.FailureMessage, Delivered: s.Delivered, ReminderNote: s.ReminderNote}
	if sm.Kind == 0 {
		sm.Kind = messages.ScheduledKind(s.DeliveryType)
	}
	r := im.recipients[s.Recipient]
	switch {
	case r.Type == zulipdir.RecipientStream:
		sm.ChannelID = im.channels[r.TypeID]
	case len(s.To) > 0:
		for _, t := range s.To {
			sm.Recipients = append(sm.Recipients, im.users[t])
		}
		sm.Recipients = sortedSet(sm.Recipients)
	case r.Type == zulipdir.RecipientPersonal:
		sm.Recipients = messages.Participants(sender, []users.ID{im.users[r.TypeID]})
	case r.Type == zulipdir.RecipientHuddle:
		sm.Recipients = messages.Participants(sender, im.huddles[r.ID])
	}
	if sm.ChannelID == 0 && len(sm.Recipients) == 0 {
		return sm, corrupt("realm.json", "scheduled message %d: recipient %d does not exist", s.ID, s.Recipient)
	}
	return sm, nil
}
