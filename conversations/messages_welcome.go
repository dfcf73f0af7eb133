package conversations

import (
	"context"
	"fmt"

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

// SendWelcomeMessages sends a new user the Welcome Bot's messages (people's
// Hooks.WelcomeNewUser): the greeting, starred for the user as Zulip's process_new_human_user
// stars it, then the custom message, text being the invitation's welcome_message_custom_text
// or else the organization's (nothing is sent when it is empty).
func (s *Service) SendWelcomeMessages(tx storage.Tx, ev *engine.Events, w *world.World, to users.ID, greeting, text string) error {
	for i, body := range []string{greeting, text} {
		if body == "" {
			continue
		}
		content, err := messages.NormalizeContent(body)
		if err != nil {
			continue // a text the rules refuse sends nothing, as Zulip's internal sends drop it
		}
		id, err := sendSystemDirect(tx, ev, w, WelcomeBotID, to, content)
		if err != nil {
			return err
		}
		if i == 0 {
			if _, err := tx.Messages().SetFlags(to, []messages.ID{id}, messages.FlagStarred, 0); err != nil {
				return fmt.Errorf("starring the Welcome Bot's greeting: %w", err)
			}
		}
	}
	return nil
}

// sendSystemDirect sends a system bot's direct message to one user through the path every
// message takes, and returns its id.
func sendSystemDirect(tx storage.Tx, ev *engine.Events, w *world.World, from, to users.ID, content string) (messages.ID, error) {
	m := messages.Message{
		SenderID: from, Content: content, Timestamp: w.UnixNow(), Client: InternalClient,
		Recipients: messages.Participants(from, []users.ID{to}),
	}
	err := DeliverMessage(w, tx, ev, &m, []users.ID{to}, ReadBy())
	return m.ID, err
}
