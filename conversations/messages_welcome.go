package conversations

import (
	"context"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// WelcomeBotID is the id of the Welcome Bot (world.WelcomeBotID), the system bot that sends
// new users the organization's welcome message.
const WelcomeBotID = world.WelcomeBotID

// TestWelcomeBotCustomMessageParams are the parameters of POST
// /realm/test_welcome_bot_custom_message.
type TestWelcomeBotCustomMessageParams struct {
	WelcomeMessageCustomText string
}

// TestWelcomeBotCustomMessageResult holds the id of the message sent.
type TestWelcomeBotCustomMessageResult struct {
	MessageID messages.ID `json:"message_id"`
}

// TestWelcomeBotCustomMessage sends the acting administrator the Welcome Bot's direct message
// with the given custom text, the message a new user receives when the organization's (or the
// invitation's) welcome_message_custom_text is set, so that the administrator sees it as
// new users will. Zulip refuses an empty text ("Message must not be empty") and one past
// 8000 characters.
func (s *Service) TestWelcomeBotCustomMessage(ctx context.Context, actor engine.Actor, p TestWelcomeBotCustomMessageParams) (TestWelcomeBotCustomMessageResult, error) {
	if p.WelcomeMessageCustomText == "" {
		return TestWelcomeBotCustomMessageResult{}, engine.BadRequest("Message must not be empty")
	}
	if err := users.CheckWelcomeMessage(p.WelcomeMessageCustomText); err != nil {
		return TestWelcomeBotCustomMessageResult{}, engine.RuleError(err)
	}
	content, err := messages.NormalizeContent(p.WelcomeMessageCustomText)
	if err != nil {
		return TestWelcomeBotCustomMessageResult{}, engine.RuleError(err)
	}
	var res TestWelcomeBotCustomMessageResult
	err = s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		id, err := sendSystemDirect(o.Tx, o.Ev, o.World(), WelcomeBotID, o.Me.ID, content)
		res.MessageID = id
		return err
	})
	if err != nil {
		return TestWelcomeBotCustomMessageResult{}, err
	}
	return res, nil
}

// SendWelcomeMessage sends a new user the Welcome Bot's custom message (people's
// Hooks.WelcomeNewUser): text is the invitation's welcome_message_custom_text, or else the
// organization's; nothing is sent when it is empty.
func (s *Service) SendWelcomeMessage(tx storage.Tx, ev *engine.Events, w *world.World, to users.ID, text string) error {
	if text == "" {
		return nil
	}
	content, err := messages.NormalizeContent(text)
	if err != nil {
		return nil // a text the rules refuse sends nothing, as Zulip's internal sends drop it
	}
	_, err = sendSystemDirect(tx, ev, w, WelcomeBotID, to, content)
	return err
}

// sendSystemDirect sends a system bot's direct message to one user through the path every
// message takes, and returns its id.
func sendSystemDirect(tx storage.Tx, ev *engine.Events, w *world.World, from, to users.ID, content string) (messages.ID, error) {
	m := messages.Message{
		SenderID: from, Content: content, Timestamp: w.UnixNow(), Client: InternalClient,
		Recipients: messages.Participants(from, []users.ID{to}),
	}
	err := DeliverMessage(w, tx, ev, &m, []users.ID{to}, func(users.ID) bool { return false })
	return m.ID, err
}
