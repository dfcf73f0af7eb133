package transfer

import (
	"encoding/json"
	"fmt"
	"github.com/teamchat/chat/transfer/zulipdir"
	"strings"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// messageFile is one messages-NNNNNN.json.
type messageFile struct {
	Messages     []zulipdir.Message     `json:"zerver_message"`
	UserMessages []zulipdir.UserMessage `json:"zerver_usermessage"`
	Reactions    []zulipdir.Reaction    `json:"zerver_reaction"`
}

// messages writes the messages in files of opts.Batch, each read in a transaction of its own
// by ascending id: memory holds one batch whatever the number of messages.
func (e *exporter) messages() error {
	var after messages.ID
	var umID, reactionID int64
	for file := 1; ; {
		var f messageFile
		var last messages.ID
		err := e.st.View(e.ctx, func(tx storage.ReadTx) error {
			f, last = messageFile{}, 0
			batch, err := tx.Messages().Scan(after, e.opts.Batch)
			if err != nil || len(batch) == 0 {
				return err
			}
			last = batch[len(batch)-1].ID
			return e.batch(tx, batch, &f)
		})
		if err != nil {
			return fmt.Errorf("transfer: export of the messages after %d: %w", after, err)
		}
		if last == 0 {
			return nil
		}
		after = last
		if len(f.Messages) == 0 {
			continue
		}
		for i := range f.UserMessages {
			umID++
			f.UserMessages[i].ID = umID
		}
		for i := range f.Reactions {
			reactionID++
			f.Reactions[i].ID = reactionID
		}
		if err := writeJSON(e.out, fmt.Sprintf("messages-%06d.json", file), f); err != nil {
			return err
		}
		file++
		e.res.Messages += int64(len(f.Messages))
		e.opts.Progress.Step("export: messages", e.res.Messages, 0)
	}
}

// batch fills f with the messages of batch that the export type includes, their rows (only
// the consenting users' for private messages of a consent export) and their reactions.
func (e *exporter) batch(tx storage.ReadTx, batch []messages.Message, f *messageFile) error {
	ids := make([]messages.ID, len(batch))
	for i, m := range batch {
		ids[i] = m.ID
	}
	rows, err := tx.Messages().Rows(ids)
	if err != nil {
		return err
	}
	byMessage := map[messages.ID][]messages.UserMessage{}
	for _, r := range rows {
		byMessage[r.MessageID] = append(byMessage[r.MessageID], r)
	}
	kept := map[messages.ID]bool{}
	for _, m := range batch {
		public := !m.IsDirect() && e.public[m.ChannelID]
		rs := byMessage[m.ID]
		if !public && e.opts.Type != ExportFull {
			if e.opts.Type == ExportPublic || !e.consented(m.SenderID, rs) {
				continue
			}
			rs = e.consentingRows(rs)
		}
		rec, err := e.messageRow(m)
		if err != nil {
			return err
		}
		kept[m.ID] = true
		f.Messages = append(f.Messages, rec)
		for _, r := range rs {
			f.UserMessages = append(f.UserMessages, zulipdir.UserMessage{UserProfile: int64(r.UserID), Message: int64(r.MessageID), FlagsMask: zulipFlags(r.Flags)})
		}
	}
	reactions, err := tx.Messages().Reactions(ids)
	if err != nil {
		return err
	}
	for _, r := range reactions {
		if kept[r.MessageID] {
			f.Reactions = append(f.Reactions, zulipdir.Reaction{UserProfile: int64(r.UserID), Message: int64(r.MessageID),
				EmojiName: r.EmojiName, EmojiCode: r.EmojiCode, ReactionType: r.ReactionType})
		}
	}
	return nil
}

func (e *exporter) consented(sender users.ID, rows []messages.UserMessage) bool {
	if e.consents[sender] {
		return true
	}
	for _, r := range rows {
		if e.consents[r.UserID] {
			return true
		}
	}
	return false
}

func (e *exporter) consentingRows(rows []messages.UserMessage) []messages.UserMessage {
	var out []messages.UserMessage
	for _, r := range rows {
		if e.consents[r.UserID] {
			out = append(out, r)
		}
	}
	return out
}

func (e *exporter) messageRow(m messages.Message) (zulipdir.Message, error) {
	rec := zulipdir.Message{
		ID: int64(m.ID), Sender: int64(m.SenderID), Type: zulipdir.MessageTypeNormal, Topic: m.Topic, Content: m.Content,
		RenderedContent: optString(m.Rendered), RenderedContentVersion: 1, DateSent: seconds(m.Timestamp),
		SendingClient: e.client(m.Client), Realm: realmID, IsChannelMessage: m.ChannelID != 0,
		HasAttachment: strings.Contains(m.Content, "/user_uploads/"), HasImage: strings.Contains(m.Rendered, "<img"),
		HasLink: strings.Contains(m.Rendered, "<a "),
	}
	if m.LastEditTimestamp != 0 {
		t := seconds(m.LastEditTimestamp)
		rec.LastEditTime = &t
	}
	if m.LastMovedTimestamp != 0 {
		t := seconds(m.LastMovedTimestamp)
		rec.LastMovedTime = &t
	}
	if m.EditHistory != nil {
		b, err := json.Marshal(m.EditHistory)
		if err != nil {
			return rec, fmt.Errorf("message %d's edit history: %w", m.ID, err)
		}
		s := string(b)
		rec.EditHistory = &s
	}
	if m.IsDirect() {
		rec.Recipient = e.directRecipient(m.SenderID, m.Recipients)
	} else {
		rec.Recipient = e.channelBase + int64(m.ChannelID)
	}
	return rec, nil
}

// Zulip's UserMessage flag bits, by our flags' order.
var zulipFlagBits = []struct {
	ours messages.Flags
	bit  int64
}{
	{messages.FlagRead, 1 << 0},
	{messages.FlagStarred, 1 << 1},
	{messages.FlagCollapsed, 1 << 2},
	{messages.FlagMentioned, 1 << 3},
	{messages.FlagStreamWildcardMentioned, 1 << 4},
	{messages.FlagTopicWildcardMentioned, 1 << 5},
	{messages.FlagHasAlertWord, 1 << 9},
	{messages.FlagHistorical, 1 << 10},
}

func zulipFlags(f messages.Flags) int64 {
	var out int64
	for _, b := range zulipFlagBits {
		if f&b.ours != 0 {
			out |= b.bit
		}
	}
	return out
}

func ourFlags(mask int64) messages.Flags {
	var out messages.Flags
	for _, b := range zulipFlagBits {
		if mask&b.bit != 0 {
			out |= b.ours
		}
	}
	return out
}
