package transfer

import (
	"sort"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// checkMessages reads messages-000001.json, messages-000002.json, ... one at a time and
// checks what writing them could refuse: the files' syntax and bounds, a message twice, a
// sender, recipient, user or message that does not exist, an edit history that does not
// parse. It writes nothing (writeMessages does, after the organization's transaction has
// committed), so that a damaged export is refused before anything is written. Memory holds
// one file and the runs of the ids seen.
func (im *importer) checkMessages() error {
	for n := 1; ; n++ {
		if err := im.ctx.Err(); err != nil {
			return err
		}
		f, ok, err := im.readMessageFile(n)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if err := im.checkMessageFile(messageFileName(n), &f); err != nil {
			return err
		}
		im.messageFiles = n
		im.opts.Progress.Step("import: checking messages", im.seen.len(), 0)
	}
	return im.checkReactions("realm.json", im.rf.Reactions)
}

func (im *importer) checkMessageFile(name string, f *messageFile) error {
	inFile := make(map[int64]bool, len(f.Messages))
	for _, rec := range f.Messages {
		inFile[rec.ID] = true
	}
	for _, r := range f.UserMessages {
		if _, err := im.user(name, r.UserProfile); err != nil {
			return err
		}
		if !inFile[r.Message] {
			return corrupt(name, "a zerver_usermessage row names message %d, which is not in its file", r.Message)
		}
	}
	list := f.Messages
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	for _, rec := range list {
		if !im.seen.add(rec.ID, rec.ID) {
			return corrupt(name, "message %d appears twice", rec.ID)
		}
		if _, err := im.message(name, rec); err != nil {
			return err
		}
	}
	return im.checkReactions(name, f.Reactions)
}

// checkReactions checks that the reactions name users and messages seen so far.
func (im *importer) checkReactions(name string, list []zulipdir.Reaction) error {
	for _, r := range list {
		if !im.seen.has(r.Message) {
			return corrupt(name, "reaction %d: message %d does not exist", r.ID, r.Message)
		}
		if _, err := im.user(name, r.UserProfile); err != nil {
			return err
		}
	}
	return nil
}
