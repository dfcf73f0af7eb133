package storagetest

import "github.com/teamchat/chat/emoji"

func (w faultyRealm) CreateEmoji(c emoji.Custom) (emoji.ID, error) {
	if err := w.f.write(); err != nil {
		return 0, err
	}
	return w.RealmWriter.CreateEmoji(c)
}

func (w faultyRealm) UpdateEmoji(c emoji.Custom) error {
	if err := w.f.write(); err != nil {
		return err
	}
	return w.RealmWriter.UpdateEmoji(c)
}
