package bots

import (
	"context"
	"fmt"
	"strings"

	"github.com/teamchat/chat/users"
)

// Handler is an embedded bot written in Go: a program embedding the engine registers one for
// a bot whose type is users.BotEmbedded (Service.HandleEmbeddedBot), and it gets the messages
// that trigger the bot, in process, as an outgoing webhook gets them by HTTP.
type Handler interface {
	// HandleMessage answers one message; a Reply with empty Content posts nothing. An error
	// is logged and the message dropped (Zulip's embedded bot worker does the same). ctx ends
	// after the Service's OutgoingWebhookTimeout: a handler still running then is tried again.
	HandleMessage(ctx context.Context, t Trigger) (Reply, error)
}

// HandlerFunc is a Handler written as a function.
type HandlerFunc func(ctx context.Context, t Trigger) (Reply, error)

// HandleMessage calls f.
func (f HandlerFunc) HandleMessage(ctx context.Context, t Trigger) (Reply, error) { return f(ctx, t) }

// Trigger is a message for an embedded bot.
type Trigger struct {
	// BotID, BotEmail and BotFullName are the bot's.
	BotID       users.ID
	BotEmail    string
	BotFullName string
	// Trigger is TriggerMention or TriggerDirectMessage.
	Trigger string
	// Message is the triggering message; for a mention, its content without the leading
	// mention of the bot (Zulip's extract_query_without_mention).
	Message Message
	// Config is the bot's configuration (config_data, Zulip's BotConfigData); nil when it has
	// none.
	Config map[string]string
}

// Reply is an embedded bot's answer, posted where the message was sent: the same channel and
// topic, or the same direct message conversation.
type Reply struct {
	Content string
}

// HandleEmbeddedBot registers h for the embedded bot (nil removes it). Register before
// starting the worker: a job of an embedded bot without a handler is retried, and after
// MaxServiceRetries attempts its sender is told that the bot is unavailable.
func (s *Service) HandleEmbeddedBot(bot users.ID, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h == nil {
		delete(s.handlers, bot)
		return
	}
	s.handlers[bot] = h
}

// handler is the registered handler of the bot, if any.
func (s *Service) handler(bot users.ID) (Handler, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.handlers[bot]
	return h, ok
}

// withoutMention strips the leading mention of the bot from a mention's content.
func withoutMention(content, name string) string {
	for _, m := range []string{"@**" + name + "**", "@_**" + name + "**"} {
		if rest, ok := strings.CutPrefix(content, m); ok {
			return strings.TrimLeft(rest, " \t\n\r\f\v")
		}
	}
	return content
}

// callEmbedded hands one job to the bot's handler, whose context ends after Config.Timeout (a
// handler that overruns it is tried again, as a webhook that times out); parent is the
// worker's context, whose end abandons the attempt. A panic of the handler is its failure,
// logged, and does not stop the worker.
func (s *Service) callEmbedded(parent context.Context, c webhookCall) (out outcome) {
	h, ok := s.handler(c.bot.ID)
	if !ok {
		return outcome{retry: true, retryNotice: "No handler is registered for this embedded bot."}
	}
	t := Trigger{BotID: c.bot.ID, BotEmail: c.bot.Email, BotFullName: c.bot.FullName, Trigger: c.trigger,
		Message: c.msg, Config: c.service.ConfigData}
	if c.trigger == TriggerMention {
		t.Message.Content = withoutMention(t.Message.Content, c.bot.FullName)
	}
	ctx, cancel := context.WithTimeout(parent, s.cfg.Timeout)
	defer cancel()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("embedded bot handler panicked", "bot", c.bot.ID, "message", c.msg.ID, "panic", fmt.Sprint(r))
			out = outcome{}
		}
	}()
	reply, err := h.HandleMessage(ctx, t)
	switch {
	case parent.Err() != nil:
		return outcome{released: true}
	case ctx.Err() != nil:
		return outcome{retry: true, retryNotice: s.timeoutNotice()}
	}
	if err != nil {
		s.log.Error("embedded bot handler failed", "bot", c.bot.ID, "message", c.msg.ID, "err", err)
		return outcome{}
	}
	if strings.TrimSpace(reply.Content) == "" {
		return outcome{}
	}
	return outcome{reply: reply.Content}
}
