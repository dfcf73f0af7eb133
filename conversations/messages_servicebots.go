package conversations

import (
	"encoding/json"

	"github.com/teamchat/chat/bots"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// serviceMessage is a message as service bots are sent it: the record of GET /messages with
// apply_markdown off and the rendered content kept (Zulip's finalize_payload for outgoing
// webhooks).
type serviceMessage struct {
	MessageRecord
	RenderedContent string `json:"rendered_content"`
}

// queueServiceBots writes, in the send's transaction, a job for each outgoing webhook or
// embedded bot that m triggers (bots.Triggers): recipients are m's, mentions its rendering's.
func queueServiceBots(w *world.World, tx storage.Tx, m messages.Message, mentions markdown.Mentions, recipients []users.ID) error {
	var mentioned []users.ID
	if !m.IsDirect() {
		mentioned = make([]users.ID, len(mentions.UserIDs))
		for i, id := range mentions.UserIDs {
			mentioned[i] = users.ID(id)
		}
	}
	triggered := bots.Triggers(w.User(m.SenderID), m.IsDirect(), recipients, mentioned, w.Lookup)
	if len(triggered) == 0 {
		return nil
	}
	body, err := json.Marshal(serviceMessage{messageRecord(w, m, messageView{emptyTopicName: true}), m.Rendered})
	if err != nil {
		return err
	}
	return bots.Queue(tx, m.ID, string(body), m.Timestamp*1000, triggered)
}

// SendAsBot is the send path the bots area posts with (bots.Sender): content sent as bot, as
// the client named, inside the bots area's mutation.
func SendAsBot(o *engine.WriteOp, bot users.User, to bots.Destination, content, client string) error {
	content, err := messages.NormalizeContent(content)
	if err != nil {
		return engine.RuleError(err)
	}
	p := SendMessageParams{Type: "private", UserIDs: to.UserIDs, Client: client}
	if to.UserIDs == nil {
		c, topic := to.ChannelID, to.Topic
		p = SendMessageParams{Type: "stream", ChannelID: &c, Topic: &topic, Client: client}
	}
	m := messages.Message{SenderID: bot.ID, Content: content, Timestamp: o.Now.Unix(), Client: client}
	if _, err := SendAs(o.World(), o.Tx, o.Ev, bot, m, p, false); err != nil {
		return err
	}
	return o.Tx.Users().SetLastActive(m.Timestamp, bot.ID)
}
