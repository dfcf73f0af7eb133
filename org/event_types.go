package org

// The names of the area's events (engine.Event): each event type says which event it is, and
// engine.Events.Emit records it under that name.

// EventType is "realm".
func (RealmDictEvent) EventType() string { return "realm" }

// EventType is "realm_domains".
func (RealmDomainsEvent) EventType() string { return "realm_domains" }

// EventType is "realm_emoji".
func (RealmEmojiEvent) EventType() string { return "realm_emoji" }

// EventType is "realm_filters".
func (RealmFiltersEvent) EventType() string { return "realm_filters" }

// EventType is "realm_linkifiers".
func (RealmLinkifiersEvent) EventType() string { return "realm_linkifiers" }

// EventType is "realm_playgrounds".
func (RealmPlaygroundsEvent) EventType() string { return "realm_playgrounds" }

// EventType is "realm".
func (RealmUpdateEvent) EventType() string { return "realm" }

// EventType is "realm_user_settings_defaults".
func (RealmUserSettingsDefaultsEvent) EventType() string { return "realm_user_settings_defaults" }
