package conversations

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// Limits of message reports (Zulip's).
const (
	// MaxReportDescriptionLength bounds a report's explanation, in characters.
	MaxReportDescriptionLength = 1000
	// maxReportSnippetLength bounds the reported message's content quoted in a report, so that
	// the explanation and the report's own text fit in one message.
	maxReportSnippetLength = messages.MaxContentLength - MaxReportDescriptionLength - 500
)

// reportReasons are the report types and how a report names them.
var reportReasons = map[string]string{
	"spam":          "Spam",
	"harassment":    "Harassment",
	"inappropriate": "Inappropriate content",
	"norms":         "Violates community norms",
	"other":         "Other reason",
}

// ReportMessageParams are the parameters of POST /messages/{message_id}/report.
type ReportMessageParams struct {
	MessageID messages.ID
	// ReportType is spam, harassment, inappropriate, norms or other.
	ReportType string
	// Description explains the report; required for the type other.
	Description string
}

// ReportMessageResult is empty.
type ReportMessageResult struct{}

// checkReport checks the form of a report.
func (p ReportMessageParams) checkReport() error {
	if _, ok := reportReasons[p.ReportType]; !ok {
		return engine.BadRequest("Invalid report_type")
	}
	if utf8.RuneCountInString(p.Description) > MaxReportDescriptionLength {
		return engine.BadRequest("description is too long (limit: %d characters)", MaxReportDescriptionLength)
	}
	if p.ReportType == "other" && p.Description == "" {
		return engine.BadRequest("An explanation is required.")
	}
	return nil
}

// ReportMessage reports a message the actor may read to the organization's moderators: the
// notification bot posts the report, with the reported message quoted, to the moderation
// request channel, in the topic of the reported message's sender ("NAME moderation"). An
// organization without a moderation request channel refuses reports.
func (s *Service) ReportMessage(ctx context.Context, actor engine.Actor, p ReportMessageParams) (ReportMessageResult, error) {
	if err := p.checkReport(); err != nil {
		return ReportMessageResult{}, err
	}
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		w := o.World()
		c, ok := w.Channel(channels.ID(w.Org().ModerationRequestChannelID))
		if w.Org().ModerationRequestChannelID == 0 || !ok || c.IsArchived {
			return engine.BadRequest("Message reporting is not enabled in this organization.")
		}
		m, _, err := narrows.ReadableMessage(w, o.Tx.Messages(), o.Me, p.MessageID)
		if err != nil {
			return err
		}
		reported := w.User(m.SenderID)
		topic := topics.Truncate(reported.FullName + " moderation")
		if effectiveTopicsPolicy(c) == channels.TopicsEmptyTopicOnly {
			topic = ""
		}
		report := messages.Message{
			SenderID: NotificationBotID, ChannelID: c.ID, Topic: topic, Client: InternalClient,
			Content: reportContent(w, o.Me, m, p), Timestamp: o.Now.Unix(),
		}
		return DeliverMessage(w, o.Tx, o.Ev, &report, ActiveSubscribers(w, c.ID), ReadBy())
	})
	if err != nil {
		return ReportMessageResult{}, err
	}
	return ReportMessageResult{}, nil
}

// reportContent is the notification bot's report of m by reporter (Zulip's
// send_message_report): who reported whose message and when, the reason and explanation
// quoted, and the reported message behind a spoiler with a link to it.
func reportContent(w *world.World, reporter users.User, m messages.Message, p ReportMessageParams) string {
	reported := w.User(m.SenderID)
	by, of := people.SilentMention(reporter), people.SilentMention(reported)
	sent := time.Unix(m.Timestamp, 0).UTC().Format("2006-01-02T15:04:05+00:00")
	var header, original string
	if m.IsDirect() {
		header = fmt.Sprintf("%s reported a direct message sent by %s%s at <time:%s>.", by, of, reportedRecipients(w, reporter, m), sent)
		ids := make([]string, len(m.Recipients))
		for i, id := range m.Recipients {
			ids[i] = fmt.Sprint(id)
		}
		slug := strings.Join(ids, ",")
		if len(ids) >= 3 {
			slug += "-group"
		}
		original = fmt.Sprintf("[Original message](%s/#narrow/dm/%s/near/%d)", strings.TrimRight(w.Org().URL, "/"), slug, m.ID)
	} else {
		header = fmt.Sprintf("%s reported a message sent by %s at <time:%s>.", by, of, sent)
		c, _ := w.Channel(m.ChannelID)
		original = "Original message at " + MessageLink(c, m.Topic, m.ID)
	}
	snippet := m.Content
	if utf8.RuneCountInString(snippet) > maxReportSnippetLength {
		snippet = string([]rune(snippet)[:maxReportSnippetLength-utf8.RuneCountInString(messageTruncated)]) + messageTruncated
	}
	fence := messages.UnusedFence(snippet)
	content := fmt.Sprintf("%s\n```quote\n**%s**. %s\n```\n\n%s spoiler %s\n%s\n%s",
		header, reportReasons[p.ReportType], p.Description, fence, original, snippet, fence)
	return strings.TrimRight(content, " \t\n")
}

// messageTruncated ends a quoted message cut to fit.
const messageTruncated = "\n[message truncated]"

// reportedRecipients names, for the header of a report of direct message m, its recipients
// other than its sender: " to A" for a one-to-one message the reporter sent, " to A, B, and
// C" for a group, nothing for a one-to-one message the reporter received.
func reportedRecipients(w *world.World, reporter users.User, m messages.Message) string {
	if len(m.Recipients) <= 2 {
		if m.SenderID != reporter.ID {
			return ""
		}
		to := reporter
		for _, id := range m.Recipients {
			if id != reporter.ID {
				to = w.User(id)
			}
		}
		return " to " + people.SilentMention(to)
	}
	var names []string
	for _, id := range m.Recipients {
		if id != m.SenderID {
			names = append(names, people.SilentMention(w.User(id)))
		}
	}
	slices.Sort(names)
	last := names[len(names)-1]
	rest := strings.Join(names[:len(names)-1], ", ")
	if len(names)-1 > 1 {
		rest += ","
	}
	return " to " + rest + " and " + last
}
