package storagetest

import (
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

func (t faultyTx) Messages() storage.MessageWriter { return faultyMessages{t.Tx.Messages(), t.f} }
func (t faultyTx) UserTopics() storage.UserTopicWriter {
	return faultyUserTopics{t.Tx.UserTopics(), t.f}
}

type faultyMessages struct {
	storage.MessageWriter
	f *Faulty
}

func (w faultyMessages) Create(m messages.Message, rows []messages.UserMessage) (messages.ID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.MessageWriter.Create(m, rows)
}

func (w faultyMessages) Update(m messages.Message) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MessageWriter.Update(m)
}

func (w faultyMessages) Delete(ids []messages.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MessageWriter.Delete(ids)
}

func (w faultyMessages) SetFlags(u users.ID, ids []messages.ID, add, remove messages.Flags) ([]messages.ID, error) {
	if err := w.f.write(); err != nil {
		return nil, err
	}
	return w.MessageWriter.SetFlags(u, ids, add, remove)
}

func (w faultyMessages) PutRows(rows []messages.UserMessage) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MessageWriter.PutRows(rows)
}

func (w faultyMessages) DeleteRows(us []users.ID, ids []messages.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MessageWriter.DeleteRows(us, ids)
}

func (w faultyMessages) Move(ids []messages.ID, c channels.ID, topic string, entry messages.EditHistoryEntry, movedAt int64) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MessageWriter.Move(ids, c, topic, entry, movedAt)
}

func (w faultyMessages) MarkRead(q storage.MarkReadQuery) ([]messages.ID, error) {
	if err := w.f.write(); err != nil {
		return nil, err
	}
	return w.MessageWriter.MarkRead(q)
}

func (w faultyMessages) AddReaction(r messages.Reaction) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MessageWriter.AddReaction(r)
}

func (w faultyMessages) RemoveReaction(r messages.Reaction) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MessageWriter.RemoveReaction(r)
}

type faultyUserTopics struct {
	storage.UserTopicWriter
	f *Faulty
}

func (w faultyUserTopics) Put(ut topics.UserTopic) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserTopicWriter.Put(ut)
}

func (w faultyUserTopics) Delete(u users.ID, c channels.ID, topic string) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserTopicWriter.Delete(u, c, topic)
}

func (t faultyTx) ChannelFolders() storage.ChannelFolderWriter {
	return faultyFolders{t.Tx.ChannelFolders(), t.f}
}

type faultyFolders struct {
	storage.ChannelFolderWriter
	f *Faulty
}

func (w faultyFolders) Create(c channels.Folder) (channels.FolderID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.ChannelFolderWriter.Create(c)
}

func (w faultyFolders) Update(c channels.Folder) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ChannelFolderWriter.Update(c)
}

func (t faultyTx) UserSettings() storage.UserSettingsWriter {
	return faultySettings{t.Tx.UserSettings(), t.f}
}

type faultySettings struct {
	storage.UserSettingsWriter
	f *Faulty
}

func (w faultySettings) PutMany(all map[users.ID]users.Settings) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserSettingsWriter.PutMany(all)
}

func (w faultySettings) PutEmailChange(c users.EmailChange) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserSettingsWriter.PutEmailChange(c)
}

func (w faultySettings) DeleteEmailChange(key string) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserSettingsWriter.DeleteEmailChange(key)
}

func (t faultyTx) ProfileFields() storage.ProfileFieldWriter {
	return faultyProfiles{t.Tx.ProfileFields(), t.f}
}

type faultyProfiles struct {
	storage.ProfileFieldWriter
	f *Faulty
}

func (w faultyProfiles) Update(f users.ProfileField) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ProfileFieldWriter.Update(f)
}

func (w faultyProfiles) Delete(id users.ProfileFieldID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ProfileFieldWriter.Delete(id)
}

func (w faultyProfiles) Create(f users.ProfileField) (users.ProfileFieldID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.ProfileFieldWriter.Create(f)
}

func (w faultyProfiles) PutValues(v []users.ProfileValue) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ProfileFieldWriter.PutValues(v)
}

func (w faultyProfiles) DeleteValues(u users.ID, f []users.ProfileFieldID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ProfileFieldWriter.DeleteValues(u, f)
}

func (t faultyTx) AlertWords() storage.AlertWordWriter {
	return faultyAlertWords{t.Tx.AlertWords(), t.f}
}

type faultyAlertWords struct {
	storage.AlertWordWriter
	f *Faulty
}

func (w faultyAlertWords) Set(u users.ID, words []string) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.AlertWordWriter.Set(u, words)
}

func (t faultyTx) Presence() storage.PresenceWriter {
	return faultyPresence{t.Tx.Presence(), t.f}
}

type faultyPresence struct {
	storage.PresenceWriter
	f *Faulty
}

func (w faultyPresence) Put(p users.Presence) (int64, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.PresenceWriter.Put(p)
}

func (t faultyTx) UserStatuses() storage.UserStatusWriter {
	return faultyStatuses{t.Tx.UserStatuses(), t.f}
}

type faultyStatuses struct {
	storage.UserStatusWriter
	f *Faulty
}

func (w faultyStatuses) Put(s users.Status) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.UserStatusWriter.Put(s)
}

func (t faultyTx) MutedUsers() storage.MutedUserWriter {
	return faultyMutes{t.Tx.MutedUsers(), t.f}
}

type faultyMutes struct {
	storage.MutedUserWriter
	f *Faulty
}

func (w faultyMutes) Add(m users.MutedUser) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MutedUserWriter.Add(m)
}

func (w faultyMutes) Remove(user, muted users.ID) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.MutedUserWriter.Remove(user, muted)
}

func (t faultyTx) BotConfigs() storage.BotConfigWriter {
	return faultyBots{t.Tx.BotConfigs(), t.f}
}

type faultyBots struct {
	storage.BotConfigWriter
	f *Faulty
}

func (w faultyBots) Put(c users.BotConfig) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.BotConfigWriter.Put(c)
}

func (t faultyTx) Sessions() storage.SessionWriter {
	return faultySessions{t.Tx.Sessions(), t.f}
}

type faultySessions struct {
	storage.SessionWriter
	f *Faulty
}

func (w faultySessions) Create(s storage.Session) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.SessionWriter.Create(s)
}

func (w faultySessions) Delete(key string) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.SessionWriter.Delete(key)
}

func (w faultySessions) DeleteUser(user users.ID, keep string) (int, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.SessionWriter.DeleteUser(user, keep)
}

func (w faultySessions) DeleteExpired(now int64) (int, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.SessionWriter.DeleteExpired(now)
}

func (t faultyTx) Exports() storage.ExportWriter {
	return faultyExports{t.Tx.Exports(), t.f}
}

type faultyExports struct {
	storage.ExportWriter
	f *Faulty
}

func (w faultyExports) Create(e storage.Export) (int64, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.ExportWriter.Create(e)
}

func (w faultyExports) Update(e storage.Export) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.ExportWriter.Update(e)
}
