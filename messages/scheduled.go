package messages

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// ScheduledID identifies a scheduled message or a reminder (one sequence for both, as in
// Zulip). It is not the id the message gets when it is sent.
type ScheduledID int64

// ScheduledKind tells a message scheduled with "send later" from a reminder.
type ScheduledKind int

// Kinds of scheduled messages (Zulip's delivery_type values).
const (
	SendLater ScheduledKind = 1
	Remind    ScheduledKind = 2
)

// MaxReminderNoteLength is the longest reminder note in code points (register's
// max_reminder_note_length).
const MaxReminderNoteLength = 1000

// Scheduled is a message waiting for its delivery time: a "send later" message of its sender
// or a reminder (sent by the notification bot to the sender). It keeps its row once delivered
// (Delivered, DeliveredMessageID), so that a delivery is recorded in the transaction that
// sends it.
type Scheduled struct {
	ID       ScheduledID
	Kind     ScheduledKind
	SenderID users.ID
	// ChannelID and Topic address a channel message; Recipients (every participant, the
	// sender included, ascending) a direct message.
	ChannelID  channels.ID
	Topic      string
	Recipients []users.ID
	Content    string
	Rendered   string
	// DeliverAt is the delivery time in UNIX seconds.
	DeliverAt    int64
	ReadBySender bool
	// Client names the client that scheduled it; the sent message carries it.
	Client string
	// Failed is set when a delivery was tried and refused; FailureMessage says why.
	Failed         bool
	FailureMessage string
	// Delivered is set, with the sent message's id, once the message was sent.
	Delivered          bool
	DeliveredMessageID ID
	// ReminderTargetID is the message a reminder is about; ReminderNote the user's note.
	ReminderTargetID ID
	ReminderNote     string
}

// IsDirect reports whether s is a direct message.
func (s Scheduled) IsDirect() bool { return s.ChannelID == 0 }

// Clone returns a copy of s that shares no memory with it.
func (s Scheduled) Clone() Scheduled {
	s.Recipients = slices.Clone(s.Recipients)
	return s
}

// To is the scheduled message's "to" in the API's form for a direct message: its
// participants but the sender, or the sender alone for a message to themself.
func (s Scheduled) To() []int64 {
	out := []int64{}
	for _, id := range s.Recipients {
		if id != s.SenderID {
			out = append(out, int64(id))
		}
	}
	if len(out) == 0 {
		out = append(out, int64(s.SenderID))
	}
	return out
}

// ErrReminderNoteTooLong refuses a note above MaxReminderNoteLength; its text is Zulip's.
var ErrReminderNoteTooLong = fmt.Errorf("Maximum reminder note length: %d characters", MaxReminderNoteLength)

// NormalizeReminderNote trims trailing whitespace and leading newlines of a reminder note
// and refuses one longer than MaxReminderNoteLength.
func NormalizeReminderNote(note string) (string, error) {
	note = strings.TrimLeft(strings.TrimRightFunc(note, isSpace), "\n")
	if utf8.RuneCountInString(note) > MaxReminderNoteLength {
		return "", ErrReminderNoteTooLong
	}
	return note, nil
}

// ReminderTarget is what a reminder's text says about its message: where it is, who sent
// it, its link and its content.
type ReminderTarget struct {
	// ChannelLink is the Markdown link to the message in its channel (#**channel>topic@id**);
	// empty for a direct message.
	ChannelLink string
	// SenderMention is the silent mention of the message's sender.
	SenderMention string
	// URL is the message's permanent link.
	URL     string
	Content string
}

// reminderTruncated ends a quoted message cut to fit a reminder.
const reminderTruncated = "\n[message truncated]"

// ReminderContent is the text of a reminder about t with the (normalized) note: Zulip's
// wording, the message quoted (polls and todo lists named instead), the whole within
// MaxContentLength code points.
func ReminderContent(t ReminderTarget, note string) string {
	var b strings.Builder
	if t.ChannelLink != "" {
		fmt.Fprintf(&b, "You requested a reminder for %s.", t.ChannelLink)
	} else {
		b.WriteString("You requested a reminder for the following direct message.")
	}
	if note != "" {
		fmt.Fprintf(&b, " Note:\n > %s", note)
	}
	b.WriteString("\n\n")
	switch {
	case strings.HasPrefix(t.Content, "/poll"):
		fmt.Fprintf(&b, "%s [sent](%s) a poll.", t.SenderMention, t.URL)
		return b.String()
	case strings.HasPrefix(t.Content, "/todo"):
		fmt.Fprintf(&b, "%s [sent](%s) a todo list.", t.SenderMention, t.URL)
		return b.String()
	}
	fmt.Fprintf(&b, "%s [said](%s):\n", t.SenderMention, t.URL)
	fence := UnusedFence(t.Content)
	head := b.String()
	room := MaxContentLength - utf8.RuneCountInString(head) - 2*utf8.RuneCountInString(fence) - len("quote\n\n")
	quoted := t.Content
	if utf8.RuneCountInString(quoted) > room {
		keep := max(room-utf8.RuneCountInString(reminderTruncated), 0)
		quoted = string([]rune(quoted)[:keep]) + reminderTruncated
	}
	return head + fence + "quote\n" + quoted + "\n" + fence
}

// UnusedFence is a code fence of backticks longer than any fence that opens a line of
// content (three at least), so that content quoted inside it cannot close it.
func UnusedFence(content string) string {
	longest := 2
	for line := range strings.SplitSeq(content, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) > 3 {
			continue
		}
		n := len(trimmed) - len(strings.TrimLeft(trimmed, "`"))
		longest = max(longest, n)
	}
	return strings.Repeat("`", longest+1)
}
