package chat_test

import (
	"strconv"

	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// mustChannel creates a channel (as the owner) with the named fixture users subscribed.
func mustChannel(t *testing.T, f *fixture, name string, settings chat.NewChannelSettings, subscribers ...string) channels.ID {
	t.Helper()
	ids := make([]users.ID, len(subscribers))
	for i, s := range subscribers {
		ids[i] = f.ids[s]
	}
	res, err := f.svc.CreateChannel(t.Context(), f.actor("owner"), chat.CreateChannelParams{
		Name: name, Subscribers: ids, NewChannelSettings: settings,
	})
	if err != nil {
		t.Fatalf("CreateChannel(%s): %v", name, err)
	}
	dropNotices(t, f)
	return res.ID
}

// mustSendToChannel sends content to a channel topic as sender (from the web client, so the
// sender's copy is read).
func mustSendToChannel(t *testing.T, f *fixture, sender string, c channels.ID, topic, content string) messages.ID {
	t.Helper()
	res, err := f.svc.SendMessage(t.Context(), f.actor(sender), chat.SendMessageParams{
		Type: "stream", ChannelID: &c, Topic: &topic, Content: content, Client: "website",
	})
	if err != nil {
		t.Fatalf("SendMessage(%s to %d/%s): %v", sender, c, topic, err)
	}
	return res.ID
}

// mustSendDirect sends a direct message from sender to the named users.
func mustSendDirect(t *testing.T, f *fixture, sender, content string, to ...string) messages.ID {
	t.Helper()
	ids := make([]users.ID, len(to))
	for i, s := range to {
		ids[i] = f.ids[s]
	}
	res, err := f.svc.SendMessage(t.Context(), f.actor(sender), chat.SendMessageParams{
		Type: "direct", UserIDs: ids, Content: content, Client: "website",
	})
	if err != nil {
		t.Fatalf("SendMessage(%s to %v): %v", sender, to, err)
	}
	return res.ID
}

// fetch runs GET /messages for viewer and returns the result.
func fetch(t *testing.T, f *fixture, viewer string, p chat.GetMessagesParams) chat.GetMessagesResult {
	t.Helper()
	res, err := f.svc.GetMessages(t.Context(), f.actor(viewer), p)
	if err != nil {
		t.Fatalf("GetMessages(%s): %v", viewer, err)
	}
	return res
}

// fetchIDs returns the ids of the messages viewer gets for a narrow (anchor newest, up to
// 1000).
func fetchIDs(t *testing.T, f *fixture, viewer string, narrow ...chat.NarrowTerm) []messages.ID {
	t.Helper()
	res := fetch(t, f, viewer, chat.GetMessagesParams{Anchor: "newest", NumBefore: 1000, Narrow: narrow})
	return recordIDs(res.Messages)
}

func recordIDs(l []chat.MessageRecord) []messages.ID {
	out := []messages.ID{}
	for _, m := range l {
		out = append(out, m.ID)
	}
	return out
}

// messageCount counts every stored message, whoever may read it.
func (f *fixture) messageCount(t *testing.T) int {
	t.Helper()
	var n int
	err := f.store.View(t.Context(), func(tx storage.ReadTx) error {
		got, err := tx.Messages().Query(storage.MessageQuery{HistoryChannels: f.allChannels(t, tx), Limit: 1 << 30})
		n = len(got)
		if err != nil {
			return err
		}
		// Direct messages are found through their rows.
		for _, name := range []string{"owner", "admin", "member", "guest", "bot", "webhook"} {
			dms, err := tx.Messages().DirectWith(f.ids[name])
			if err != nil {
				return err
			}
			for _, m := range dms {
				if m.Recipients[0] == f.ids[name] {
					n++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *fixture) allChannels(t *testing.T, tx storage.ReadTx) []channels.ID {
	t.Helper()
	all, err := tx.Channels().List()
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]channels.ID, len(all))
	for i, c := range all {
		ids[i] = c.ID
	}
	return ids
}

// messageEvents returns the message events among evs as JSON objects.
func messageEvents(t *testing.T, evs []chat.Event, typ string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range eventJSON(t, evs) {
		if e["type"] == typ {
			out = append(out, e)
		}
	}
	return out
}

// cmpEmpty treats nil and empty slices alike.
var cmpEmpty = cmpopts.EquateEmpty()

type (
	usersUser = users.User
	usersID   = users.ID
	// usersMessageID is a message id, for tests outside the messages files.
	usersMessageID = messages.ID
)

func fmtInt(n int64) string { return strconv.FormatInt(n, 10) }

// dropNotices removes the notification bot's messages (the notices of channel creation) from
// the store, for tests that count the users' own messages. Call it before registering queues.
func dropNotices(t *testing.T, f *fixture) {
	t.Helper()
	err := f.store.Update(t.Context(), func(tx storage.Tx) error {
		chs, err := tx.Channels().List()
		if err != nil {
			return err
		}
		ids := make([]channels.ID, len(chs))
		for i, c := range chs {
			ids[i] = c.ID
		}
		matches, err := tx.Messages().Query(storage.MessageQuery{HistoryChannels: ids, Limit: 1 << 20})
		if err != nil {
			return err
		}
		var drop []messages.ID
		for _, m := range matches {
			if m.Message.SenderID == chat.NotificationBotID {
				drop = append(drop, m.Message.ID)
			}
		}
		return tx.Messages().Delete(drop)
	})
	if err != nil {
		t.Fatal(err)
	}
}
