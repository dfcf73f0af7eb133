package clients

import (
	"slices"
	"time"

	"github.com/teamchat/chat/messages"
)

// Capabilities are the client_capabilities of POST /register; absent keys are false.
type Capabilities struct {
	NotificationSettingsNull   bool `json:"notification_settings_null"`
	BulkMessageDeletion        bool `json:"bulk_message_deletion"`
	UserAvatarURLFieldOptional bool `json:"user_avatar_url_field_optional"`
	StreamTypingNotifications  bool `json:"stream_typing_notifications"`
	UserSettingsObject         bool `json:"user_settings_object"`
	LinkifierURLTemplate       bool `json:"linkifier_url_template"`
	UserListIncomplete         bool `json:"user_list_incomplete"`
	IncludeDeactivatedGroups   bool `json:"include_deactivated_groups"`
	ArchivedChannels           bool `json:"archived_channels"`
	EmptyTopicName             bool `json:"empty_topic_name"`
	SimplifiedPresenceEvents   bool `json:"simplified_presence_events"`
	IndividualEmojiChanges     bool `json:"individual_emoji_changes"`
}

// Has reports whether the client declared the named capability (those that gate events).
func (c Capabilities) Has(name string) bool {
	switch name {
	case "stream_typing_notifications":
		return c.StreamTypingNotifications
	case "individual_emoji_changes":
		return c.IndividualEmojiChanges
	}
	return false
}

// Options are what an event's form may depend on for one queue: its client's register
// options, its narrow and its own id.
type Options struct {
	ApplyMarkdown  bool
	ClientGravatar bool
	Capabilities   Capabilities
	// Terms is the queue's narrow, resolved at registration (message events outside it are
	// not delivered).
	Terms []messages.Term
	// QueueID is the queue's own id, filled in for each delivery (the local echo of a sent
	// message goes to its sender's queue only).
	QueueID string
}

// Adapter is implemented by event payloads whose form depends on what the client declared at
// register. ForClient returns the payload for one queue, or false when that queue must not
// receive it.
type Adapter interface {
	ForClient(o Options) (any, bool)
}

// Gated is an event that only the clients that declared a capability (Declared) or did not
// declare it (!Declared) receive: channel typing notifications, the two forms of realm_emoji.
type Gated struct {
	Payload    any
	Capability string
	Declared   bool
}

// EventType is the type of the event Gated carries (engine.Event), when its payload names one.
func (g Gated) EventType() string {
	if p, ok := g.Payload.(interface{ EventType() string }); ok {
		return p.EventType()
	}
	return ""
}

// Reads is a set of the register options an Adapter may depend on, besides the narrow, one
// bit each. An adapter reads Common unless it says otherwise (OptionReader); the bus encodes
// its forms for every combination of the options it reads. An adapter that reads another
// option must be given a bit here (the root's TestBusMatchesInProcess compares the bus with
// the in-process path).
type Reads uint8

// The options an adapter may read.
const (
	Markdown Reads = 1 << iota
	Gravatar
	EmptyTopicName
	LinkifierURLTemplate
	BulkMessageDeletion
	ArchivedChannels
	NotificationSettingsNull

	// Common are what an adapter without ReadsOptions may read.
	Common = Markdown | Gravatar | EmptyTopicName | LinkifierURLTemplate | BulkMessageDeletion
)

// OptionReader is an Adapter that names the options it reads, when they are fewer or others
// than Common.
type OptionReader interface {
	ReadsOptions() Reads
}

// ReadsOf are the options a reads.
func ReadsOf(a Adapter) Reads {
	if r, ok := a.(OptionReader); ok {
		return r.ReadsOptions()
	}
	return Common
}

// Reads are the options o has on.
func (o Options) Reads() Reads {
	var b Reads
	for _, x := range [...]struct {
		bit Reads
		on  bool
	}{
		{Markdown, o.ApplyMarkdown}, {Gravatar, o.ClientGravatar},
		{EmptyTopicName, o.Capabilities.EmptyTopicName}, {LinkifierURLTemplate, o.Capabilities.LinkifierURLTemplate},
		{BulkMessageDeletion, o.Capabilities.BulkMessageDeletion}, {ArchivedChannels, o.Capabilities.ArchivedChannels},
		{NotificationSettingsNull, o.Capabilities.NotificationSettingsNull},
	} {
		if x.on {
			b |= x.bit
		}
	}
	return b
}

// Profile is the options with exactly the options b on.
func Profile(b Reads) Options {
	var o Options
	o.ApplyMarkdown, o.ClientGravatar = b&Markdown != 0, b&Gravatar != 0
	o.Capabilities.EmptyTopicName = b&EmptyTopicName != 0
	o.Capabilities.LinkifierURLTemplate = b&LinkifierURLTemplate != 0
	o.Capabilities.BulkMessageDeletion = b&BulkMessageDeletion != 0
	o.Capabilities.ArchivedChannels = b&ArchivedChannels != 0
	o.Capabilities.NotificationSettingsNull = b&NotificationSettingsNull != 0
	return o
}

// Subsets lists every subset of b, b's own bits only.
func Subsets(b Reads) []Reads {
	out := []Reads{0}
	for bit := Reads(1); bit != 0 && bit <= b; bit <<= 1 {
		if b&bit == 0 {
			continue
		}
		for _, s := range out {
			out = append(out, s|bit)
		}
	}
	return out
}

// Register are the parameters of POST /register. Pointers distinguish absent from
// false or zero.
type Register struct {
	ApplyMarkdown  bool
	ClientGravatar *bool
	// IncludeSubscribers is "", "true", "false" or "partial".
	IncludeSubscribers       string
	SlimPresence             bool
	PresenceHistoryLimitDays *int64
	// EventTypes limits the queue to these kinds; nil means all.
	EventTypes []string
	// FetchEventTypes chooses the initial state; nil means EventTypes.
	FetchEventTypes  []string
	AllPublicStreams *bool
	// Narrow holds [operator, operand] pairs limiting message events.
	Narrow             [][]string
	ClientCapabilities Capabilities
	// IdleQueueTimeout is the requested idle lifetime; nil means the default.
	IdleQueueTimeout *time.Duration
	// QueueLifespanSecs is the legacy form of IdleQueueTimeout (0 means the default).
	QueueLifespanSecs *int64
}

// Fetches reports whether the initial state of kind was requested.
func (p *Register) Fetches(kind string) bool {
	types := p.FetchEventTypes
	if types == nil {
		types = p.EventTypes
	}
	return types == nil || slices.Contains(types, kind)
}
