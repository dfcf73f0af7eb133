package conversations

// The names of the area's events (engine.Event): each event type says which event it is, and
// engine.Events.Emit records it under that name.

// EventType is "channel_folder".
func (ChannelFolderEvent) EventType() string { return "channel_folder" }

// EventType is "channel_folder".
func (ChannelFolderReorderEvent) EventType() string { return "channel_folder" }

// EventType is "default_streams".
func (DefaultStreamsEvent) EventType() string { return "default_streams" }

// EventType is "delete_message".
func (DeleteMessageEvent) EventType() string { return "delete_message" }

// EventType is "message".
func (MessageEvent) EventType() string { return "message" }

// EventType is "muted_topics".
func (MutedTopicsEvent) EventType() string { return "muted_topics" }

// EventType is "message".
func (PublicChannelMessage) EventType() string { return "message" }

// EventType is "reaction".
func (ReactionEvent) EventType() string { return "reaction" }

// EventType is "stream".
func (StreamEvent) EventType() string { return "stream" }

// EventType is "stream".
func (StreamFirstMessageEvent) EventType() string { return "stream" }

// EventType is "stream".
func (StreamUpdateEvent) EventType() string { return "stream" }

// EventType is "subscription".
func (SubscriptionEvent) EventType() string { return "subscription" }

// EventType is "subscription".
func (SubscriptionUpdateEvent) EventType() string { return "subscription" }

// EventType is "update_message".
func (UpdateMessageEvent) EventType() string { return "update_message" }

// EventType is "update_message_flags".
func (UpdateMessageFlagsEvent) EventType() string { return "update_message_flags" }

// EventType is "user_topic".
func (UserTopicEvent) EventType() string { return "user_topic" }

// EventType is "stream".
func (archiveEvent) EventType() string { return "stream" }
