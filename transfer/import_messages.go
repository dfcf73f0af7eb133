package transfer

import (
	"encoding/json"
	"errors"
	"fmt"
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

// importMessages reads messages-000001.json, messages-000002.json, ... one at a time (memory
// holds one file and the id map) and creates their messages in the order of the old ids,
// with their rows and reactions; then the reactions realm.json holds, where Zulip puts them.
func (im *importer) importMessages() error {
	for n := 1; ; n++ {
		name := fmt.Sprintf("messages-%06d.json", n)
		path := filepath.Join(im.dir, name)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			break
		}
		var f messageFile
		if err := readJSONFile(path, MaxMessageFileBytes, &f); err != nil {
			return err
		}
		if err := im.messageFile(name, &f); err != nil {
			return err
		}
		im.opts.Progress.Step("import: messages", im.res.Messages, 0)
	}
	return im.reactions("realm.json", im.rf.Reactions)
}

func (im *importer) messageFile(name string, f *messageFile) error {
	rows := map[int64][]messages.UserMessage{}
	for _, r := range f.UserMessages {
		u, err := im.user(name, r.UserProfile)
		if err != nil {
			return err
		}
		rows[r.Message] = append(rows[r.Message], messages.UserMessage{UserID: u, Flags: ourFlags(r.FlagsMask)})
	}
	list := f.Messages
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	for _, rec := range list {
		if _, dup := im.messages[rec.ID]; dup {
			return corrupt(name, "message %d appears twice", rec.ID)
		}
		m, err := im.message(name, rec)
		if err != nil {
			return err
		}
		rs := rows[rec.ID]
		sort.Slice(rs, func(i, j int) bool { return rs[i].UserID < rs[j].UserID })
		id, err := im.tx.Messages().Create(m, rs)
		if err != nil {
			return fmt.Errorf("transfer: %s: message %d: %w", name, rec.ID, err)
		}
		im.messages[rec.ID] = id
		im.res.Messages++
	}
	for old := range rows {
		if _, ok := im.messages[old]; !ok {
			return corrupt(name, "a zerver_usermessage row names message %d, which is not in its file", old)
		}
	}
	return im.reactions(name, f.Reactions)
}

// message turns a zerver_message row into a message of the new ids.
func (im *importer) message(name string, rec messageRecord) (messages.Message, error) {
	sender, err := im.user(name, rec.Sender)
	if err != nil {
		return messages.Message{}, err
	}
	m := messages.Message{SenderID: sender, Topic: rec.Subject, Content: rec.Content, Rendered: rec.RenderedContent,
		Timestamp: int64(rec.DateSent), Client: im.clients[rec.SendingClient]}
	if m.Client == "" {
		m.Client = "Internal"
	}
	if m.Rendered == "" && m.Content != "" {
		m.Rendered = markdown.Render(m.Content)
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
	case recipientStream:
		if m.ChannelID, ok = im.channels[r.TypeID]; !ok {
			return m, corrupt(name, "message %d: channel %d does not exist", rec.ID, r.TypeID)
		}
	case recipientPersonal:
		other, err := im.user(name, r.TypeID)
		if err != nil {
			return m, err
		}
		m.Recipients = messages.Participants(sender, []users.ID{other})
	case recipientHuddle:
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

func (im *importer) reactions(name string, list []reactionRecord) error {
	for _, r := range list {
		msg, ok := im.messages[r.Message]
		if !ok {
			return corrupt(name, "reaction %d: message %d does not exist", r.ID, r.Message)
		}
		u, err := im.user(name, r.UserProfile)
		if err != nil {
			return err
		}
		err = im.tx.Messages().AddReaction(messages.Reaction{MessageID: msg, UserID: u, EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType})
		if err != nil && !errors.Is(err, storage.ErrConflict) {
			return fmt.Errorf("transfer: %s: reaction %d: %w", name, r.ID, err)
		}
	}
	return nil
}

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
			ContentType: a.ContentType, CreateTime: int64(a.CreateTime * 1000), Width: a.Width, Height: a.Height, Thumbnailed: a.Thumbnailed})
		if err != nil {
			return corrupt("attachment.json", "attachment %d: %v", a.ID, err)
		}
		var links []uploads.Link
		for _, m := range a.Messages {
			if msg, ok := im.messages[m]; ok { // a message the export type left out: no link
				links = append(links, uploads.Link{AttachmentID: id, MessageID: msg})
			}
		}
		if len(links) > 0 {
			if err := im.tx.Attachments().Link(links); err != nil {
				return err
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

func (im *importer) importScheduled() error {
	list := slices.Clone(im.rf.Scheduled)
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	for _, s := range list {
		sender, err := im.user("realm.json", s.Sender)
		if err != nil {
			return err
		}
		sm := messages.Scheduled{Kind: messages.ScheduledKind(s.Kind), SenderID: sender, Topic: s.Subject, Content: s.Content,
			Rendered: s.RenderedContent, DeliverAt: int64(s.ScheduledTimestamp), ReadBySender: s.ReadBySender, Client: s.Client,
			Failed: s.Failed, FailureMessage: s.FailureMessage, Delivered: s.Delivered, ReminderNote: s.ReminderNote}
		if sm.Kind == 0 {
			sm.Kind = messages.ScheduledKind(s.DeliveryType)
		}
		if s.DeliveredMessage != nil {
			sm.DeliveredMessageID = im.messages[*s.DeliveredMessage]
		}
		if s.ReminderTarget != nil {
			sm.ReminderTargetID = im.messages[*s.ReminderTarget]
		}
		r := im.recipients[s.Recipient]
		switch {
		case r.Type == recipientStream:
			sm.ChannelID = im.channels[r.TypeID]
		case len(s.To) > 0:
			for _, t := range s.To {
				sm.Recipients = append(sm.Recipients, im.users[t])
			}
			sm.Recipients = sortedSet(sm.Recipients)
		case r.Type == recipientPersonal:
			sm.Recipients = messages.Participants(sender, []users.ID{im.users[r.TypeID]})
		case r.Type == recipientHuddle:
			sm.Recipients = messages.Participants(sender, im.huddles[r.ID])
		}
		if sm.ChannelID == 0 && len(sm.Recipients) == 0 {
			return corrupt("realm.json", "scheduled message %d: recipient %d does not exist", s.ID, s.Recipient)
		}
		if _, err := im.tx.ScheduledMessages().Create(sm); err != nil {
			return err
		}
	}
	return nil
}
