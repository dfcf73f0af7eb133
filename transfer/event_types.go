package transfer

// The names of the area's events (engine.Event): each event type says which event it is, and
// engine.Events.Emit records it under that name.

// EventType is "realm_export_consent".
func (RealmExportConsentEvent) EventType() string { return "realm_export_consent" }

// EventType is "realm_export".
func (RealmExportEvent) EventType() string { return "realm_export" }
