package httpapi

import (
	"net/http"
	"slices"
	"strings"
)

// authKind says whether a route needs credentials.
type authKind int

const (
	authRequired authKind = iota
	authNone
	authOptional // spectators may call it without credentials
	// authWebhookBots is authRequired open to incoming webhook bots too (Zulip's
	// allow_incoming_webhooks: POST /messages).
	authWebhookBots
)

// route is one row of the routing table.
type route struct {
	method  string
	pattern string // relative to /api/v1/, with {name} segments
	auth    authKind
	handle  func(*request) (any, error)
}

// hasOwnRateLimit reports the endpoints with limits of their own (the login endpoints), which
// the general API limit leaves alone.
func hasOwnRateLimit(pattern string) bool {
	switch pattern {
	case "fetch_api_key", "jwt/fetch_api_key", "dev_fetch_api_key":
		return true
	}
	return false
}

// table lists every endpoint. A segment {name} matches any non-empty segment; one whose name
// ends in _id matches digits only (a non-numeric id is an unknown route, as in Zulip).
func (h *Handler) table() []route {
	return []route{
		{http.MethodGet, "server_settings", authNone, h.getServerSettings},
		{http.MethodPost, "fetch_api_key", authNone, h.fetchAPIKey},
		{http.MethodPost, "jwt/fetch_api_key", authNone, h.jwtFetchAPIKey},
		{http.MethodPost, "dev_fetch_api_key", authNone, h.devFetchAPIKey},
		{http.MethodGet, "dev_list_users", authNone, h.devListUsers},
		{http.MethodPost, "register", authOptional, h.registerQueue},
		{http.MethodGet, "events", authRequired, h.getEvents},
		{http.MethodDelete, "events", authRequired, h.deleteQueue},
		{http.MethodPost, "users/me/api_key/regenerate", authRequired, h.regenerateAPIKey},
		{http.MethodGet, "users", authRequired, h.getUsers},
		{http.MethodPost, "users", authRequired, h.createUser},
		{http.MethodGet, "users/me", authRequired, h.getOwnUser},
		{http.MethodDelete, "users/me", authRequired, h.deactivateOwnUser},
		{http.MethodGet, "users/{user_id_or_email}", authRequired, h.getUser},
		{http.MethodPatch, "users/{user_id}", authRequired, h.updateUser},
		{http.MethodPatch, "users/{email}", authRequired, h.updateUserByEmail},
		{http.MethodDelete, "users/{user_id}", authRequired, h.deactivateUser},
		{http.MethodPost, "users/{user_id}/reactivate", authRequired, h.reactivateUser},
		{http.MethodPost, "users/me/status", authRequired, h.updateStatus},
		{http.MethodGet, "users/{user_id}/status", authRequired, h.getUserStatus},
		{http.MethodPost, "users/{user_id}/status", authRequired, h.updateStatusForUser},
		{http.MethodPost, "users/me/muted_users/{muted_user_id}", authRequired, h.muteUser},
		{http.MethodDelete, "users/me/muted_users/{muted_user_id}", authRequired, h.unmuteUser},
		{http.MethodPost, "bots", authRequired, h.createBot},
		{http.MethodPost, "calls/zoom/create", authRequired, h.createZoomVideoCall},
		{http.MethodPost, "calls/webex/create", authRequired, h.createWebexVideoCall},
		{http.MethodGet, "calls/bigbluebutton/create", authRequired, h.createBigBlueButtonVideoCall},
		{http.MethodGet, "streams/{stream_id}/email_address", authRequired, h.getStreamEmailAddress},
		{http.MethodGet, "bots", authRequired, h.getBots},
		{http.MethodPatch, "bots/{bot_id}", authRequired, h.updateBot},
		{http.MethodDelete, "bots/{bot_id}", authRequired, h.deactivateBot},
		{http.MethodPost, "bots/{bot_id}/api_key/regenerate", authRequired, h.regenerateBotAPIKey},
		{http.MethodGet, "drafts", authRequired, h.getDrafts},
		{http.MethodPost, "drafts", authRequired, h.createDrafts},
		{http.MethodPatch, "drafts/{draft_id}", authRequired, h.editDraft},
		{http.MethodDelete, "drafts/{draft_id}", authRequired, h.deleteDraft},
		{http.MethodGet, "scheduled_messages", authRequired, h.getScheduledMessages},
		{http.MethodPost, "scheduled_messages", authRequired, h.createScheduledMessage},
		{http.MethodPatch, "scheduled_messages/{scheduled_message_id}", authRequired, h.updateScheduledMessage},
		{http.MethodDelete, "scheduled_messages/{scheduled_message_id}", authRequired, h.deleteScheduledMessage},
		{http.MethodGet, "reminders", authRequired, h.getReminders},
		{http.MethodPost, "reminders", authRequired, h.createMessageReminder},
		{http.MethodDelete, "reminders/{reminder_id}", authRequired, h.deleteReminder},
		{http.MethodPost, "users/me/subscriptions", authRequired, h.subscribe},
		{http.MethodGet, "users/me/subscriptions", authRequired, h.getSubscriptions},
		{http.MethodPost, "channels/create", authRequired, h.createChannel},
		{http.MethodGet, "streams", authRequired, h.getStreams},
		{http.MethodPost, "users/me/subscriptions/properties", authRequired, h.updateSubscriptionSettings},
		{http.MethodPost, "users/me/subscriptions/{stream_id}", authRequired, h.updateSubscriptionProperty},
		{http.MethodDelete, "users/me/subscriptions", authRequired, h.unsubscribe},
		{http.MethodPatch, "users/me/subscriptions", authRequired, h.updateSubscriptions},
		{http.MethodGet, "users/{user_id}/subscriptions/{stream_id}", authRequired, h.getSubscriptionStatus},
		{http.MethodGet, "streams/{stream_id}", authRequired, h.getStreamByID},
		{http.MethodPatch, "streams/{stream_id}", authRequired, h.updateStream},
		{http.MethodDelete, "streams/{stream_id}", authRequired, h.archiveStream},
		{http.MethodGet, "streams/{stream_id}/members", authRequired, h.getSubscribers},
		{http.MethodGet, "get_stream_id", authRequired, h.getStreamID},
		{http.MethodPost, "default_streams", authRequired, h.addDefaultStream},
		{http.MethodDelete, "default_streams", authRequired, h.removeDefaultStream},
		{http.MethodPost, "channel_folders/create", authRequired, h.createChannelFolder},
		{http.MethodGet, "channel_folders", authRequired, h.getChannelFolders},
		{http.MethodPatch, "channel_folders/{channel_folder_id}", authRequired, h.updateChannelFolder},
		{http.MethodPatch, "channel_folders", authRequired, h.patchChannelFolders},
		{http.MethodGet, "saved_snippets", authRequired, h.getSavedSnippets},
		{http.MethodPost, "saved_snippets", authRequired, h.createSavedSnippet},
		{http.MethodPatch, "saved_snippets/{saved_snippet_id}", authRequired, h.editSavedSnippet},
		{http.MethodDelete, "saved_snippets/{saved_snippet_id}", authRequired, h.deleteSavedSnippet},
		{http.MethodGet, "navigation_views", authRequired, h.getNavigationViews},
		{http.MethodPost, "navigation_views", authRequired, h.addNavigationView},
		{http.MethodPatch, "navigation_views/{fragment...}", authRequired, h.editNavigationView},
		{http.MethodDelete, "navigation_views/{fragment...}", authRequired, h.removeNavigationView},
		{http.MethodPatch, "settings", authRequired, h.updateSettings},
		// The deprecated aliases of PATCH /settings (feature level 80), which the python
		// library's update_notification_settings still calls.
		{http.MethodPatch, "settings/notifications", authRequired, h.updateSettings},
		{http.MethodPatch, "settings/display", authRequired, h.updateSettings},
		{http.MethodPatch, "realm", authRequired, h.updateRealm},
		{http.MethodGet, "realm/profile_fields", authRequired, h.getCustomProfileFields},
		{http.MethodPost, "realm/profile_fields", authRequired, h.createCustomProfileField},
		{http.MethodPatch, "realm/profile_fields", authRequired, h.reorderCustomProfileFields},
		{http.MethodPatch, "realm/profile_fields/{field_id}", authRequired, h.updateCustomProfileField},
		{http.MethodDelete, "realm/profile_fields/{field_id}", authRequired, h.removeCustomProfileField},
		{http.MethodPatch, "users/me/profile_data", authRequired, h.updateProfileData},
		{http.MethodDelete, "users/me/profile_data", authRequired, h.removeProfileData},
		{http.MethodGet, "bot_storage", authRequired, h.getBotStorage},
		{http.MethodPut, "bot_storage", authRequired, h.updateBotStorage},
		{http.MethodDelete, "bot_storage", authRequired, h.removeBotStorage},
		{http.MethodGet, "users/me/alert_words", authRequired, h.getAlertWords},
		{http.MethodPost, "users/me/alert_words", authRequired, h.addAlertWords},
		{http.MethodDelete, "users/me/alert_words", authRequired, h.removeAlertWords},
		{http.MethodPost, "users/me/onboarding_steps", authRequired, h.markOnboardingStepAsRead},
		{http.MethodPost, "users/me/presence", authRequired, h.updatePresence},
		{http.MethodGet, "users/{user_id_or_email}/presence", authRequired, h.getUserPresence},
		{http.MethodGet, "realm/presence", authRequired, h.getRealmPresence},
		{http.MethodGet, "realm/domains", authRequired, h.getRealmDomains},
		{http.MethodPost, "register_client_device", authRequired, h.registerClientDevice},
		{http.MethodPost, "remove_client_device", authRequired, h.removeClientDevice},
		{http.MethodPost, "mobile_push/register", authRequired, h.registerPushDevice},
		{http.MethodPost, "users/me/apns_device_token", authRequired, pushToken(h.svc.AddApnsToken)},
		{http.MethodDelete, "users/me/apns_device_token", authRequired, pushToken(h.svc.RemoveApnsToken)},
		{http.MethodPost, "users/me/android_gcm_reg_id", authRequired, pushToken(h.svc.AddFcmToken)},
		{http.MethodDelete, "users/me/android_gcm_reg_id", authRequired, pushToken(h.svc.RemoveFcmToken)},
		{http.MethodPost, "realm/domains", authRequired, h.createRealmDomain},
		{http.MethodPatch, "realm/domains/{domain}", authRequired, h.patchRealmDomain},
		{http.MethodDelete, "realm/domains/{domain}", authRequired, h.deleteRealmDomain},
		{http.MethodPatch, "realm/user_settings_defaults", authRequired, h.updateRealmUserSettingsDefaults},
		{http.MethodPost, "realm/test_welcome_bot_custom_message", authRequired, h.testWelcomeBotCustomMessage},
		{http.MethodGet, "user_groups", authRequired, h.getUserGroups},
		{http.MethodPost, "user_groups/create", authRequired, h.createUserGroup},
		{http.MethodPatch, "user_groups/{user_group_id}", authRequired, h.updateUserGroup},
		{http.MethodPost, "user_groups/{user_group_id}/deactivate", authRequired, h.deactivateUserGroup},
		{http.MethodGet, "user_groups/{user_group_id}/members", authRequired, h.getUserGroupMembers},
		{http.MethodPost, "user_groups/{user_group_id}/members", authRequired, h.updateUserGroupMembers},
		{http.MethodGet, "user_groups/{user_group_id}/members/{user_id}", authRequired, h.getIsUserGroupMember},
		{http.MethodGet, "user_groups/{user_group_id}/subgroups", authRequired, h.getUserGroupSubgroups},
		{http.MethodPost, "user_groups/{user_group_id}/subgroups", authRequired, h.updateUserGroupSubgroups},
		{http.MethodGet, "realm/linkifiers", authRequired, h.getLinkifiers},
		{http.MethodPatch, "realm/linkifiers", authRequired, h.reorderLinkifiers},
		{http.MethodPost, "realm/filters", authRequired, h.addLinkifier},
		{http.MethodPatch, "realm/filters/{filter_id}", authRequired, h.updateLinkifier},
		{http.MethodDelete, "realm/filters/{filter_id}", authRequired, h.removeLinkifier},
		{http.MethodPost, "realm/playgrounds", authRequired, h.addCodePlayground},
		{http.MethodDelete, "realm/playgrounds/{playground_id}", authRequired, h.removeCodePlayground},
		{http.MethodPost, "messages", authWebhookBots, h.sendMessage},
		{http.MethodGet, "messages", authRequired, h.getMessages},
		{http.MethodGet, "messages/{message_id}", authRequired, h.getMessage},
		{http.MethodPost, "messages/flags", authRequired, h.updateMessageFlags},
		{http.MethodGet, "messages/{message_id}/history", authRequired, h.getMessageHistory},
		{http.MethodPost, "messages/render", authRequired, h.renderMessage},
		{http.MethodGet, "messages/{message_id}/read_receipts", authRequired, h.getReadReceipts},
		{http.MethodGet, "messages/matches_narrow", authRequired, h.checkMessagesMatchNarrow},
		{http.MethodPost, "messages/{message_id}/report", authRequired, h.reportMessage},
		{http.MethodDelete, "messages/{message_id}", authRequired, h.deleteMessage},
		{http.MethodPatch, "messages/{message_id}", authRequired, h.updateMessage},
		{http.MethodPost, "messages/{message_id}/reactions", authRequired, h.addReaction},
		{http.MethodDelete, "messages/{message_id}/reactions", authRequired, h.removeReaction},
		{http.MethodPost, "messages/{message_id}/typing", authRequired, h.setTypingStatusForMessageEdit},
		{http.MethodPost, "typing", authRequired, h.setTypingStatus},
		{http.MethodGet, "realm/emoji", authRequired, h.getCustomEmoji},
		{http.MethodPost, "realm/emoji/{emoji_name}", authRequired, h.uploadCustomEmoji},
		{http.MethodDelete, "realm/emoji/{emoji_name}", authRequired, h.deactivateCustomEmoji},
		{http.MethodPost, "mark_all_as_read", authRequired, h.markAllAsRead},
		{http.MethodPost, "mark_stream_as_read", authRequired, h.markStreamAsRead},
		{http.MethodPost, "mark_topic_as_read", authRequired, h.markTopicAsRead},
		{http.MethodPost, "messages/flags/narrow", authRequired, h.updateMessageFlagsForNarrow},
		{http.MethodGet, "users/me/{stream_id}/topics", authRequired, h.getStreamTopics},
		{http.MethodPost, "user_topics", authRequired, h.updateUserTopic},
		{http.MethodPatch, "users/me/subscriptions/muted_topics", authRequired, h.muteTopic},
		{http.MethodPost, "streams/{stream_id}/delete_topic", authRequired, h.deleteTopic},
		{http.MethodPost, "invites/multiuse", authRequired, h.createInviteLink},
		{http.MethodGet, "invites", authRequired, h.getInvites},
		{http.MethodPost, "invites", authRequired, h.sendInvites},
		{http.MethodDelete, "invites/{invite_id}", authRequired, h.revokeEmailInvite},
		{http.MethodPost, "invites/{invite_id}/resend", authRequired, h.resendEmailInvite},
		{http.MethodDelete, "invites/multiuse/{invite_id}", authRequired, h.revokeInviteLink},
		{http.MethodPatch, "invites/multiuse/{invite_id}", authRequired, h.editInviteLink},
		{http.MethodPost, "user_uploads", authRequired, h.uploadFile},
		{http.MethodPost, "users/me/avatar", authRequired, h.uploadAvatar},
		{http.MethodDelete, "users/me/avatar", authRequired, h.deleteAvatar},
		{http.MethodGet, "user_uploads/{realm_id_str}/{filename...}", authRequired, h.getFileTemporaryURL},
		{http.MethodGet, "attachments", authRequired, h.getAttachments},
		{http.MethodPost, "external/{integration}", authNone, h.incomingWebhook}, // authenticates itself
		{http.MethodDelete, "attachments/{attachment_id}", authRequired, h.removeAttachment},
		{http.MethodPost, "export/realm", authRequired, h.exportRealm},
		{http.MethodGet, "export/realm", authRequired, h.getRealmExports},
		{http.MethodDelete, "export/realm/{export_id}", authRequired, h.deleteRealmExport},
		{http.MethodGet, "export/realm/consents", authRequired, h.getRealmExportConsents},
	}
}

// match finds the route for method and path. When the path exists with other methods only,
// it returns those methods.
func (h *Handler) match(method, path string) (*route, map[string]string, []string) {
	segments := strings.Split(strings.Trim(path, "/"), "/")
	var allowed []string
	candidates, ok := h.routesByFirst[segments[0]]
	if !ok {
		candidates = h.routesByFirst[anyFirstSegment]
	}
	for _, i := range candidates {
		rt := &h.routes[i]
		values, ok := matchParts(h.routeParts[i], segments)
		if !ok {
			continue
		}
		if rt.method == method {
			return rt, values, nil
		}
		if !slices.Contains(allowed, rt.method) {
			allowed = append(allowed, rt.method)
		}
	}
	if len(allowed) > 0 {
		if slices.Contains(allowed, http.MethodGet) {
			allowed = append(allowed, http.MethodHead)
		}
		slices.Sort(allowed)
	}
	return nil, nil, allowed
}

// splitPatterns splits each route's pattern into its segments, once (match compares them
// with every request's segments; splitting them per request was most of its allocations).
func splitPatterns(routes []route) [][]string {
	out := make([][]string, len(routes))
	for i, rt := range routes {
		out[i] = strings.Split(rt.pattern, "/")
	}
	return out
}

// anyFirstSegment is routesByFirst's key for the routes whose pattern starts with a variable
// (no literal first segment is empty).
const anyFirstSegment = ""

// routesByFirst indexes the routes (their split patterns, parts) by the literal first segment
// of their pattern: each literal's list holds, in table order, its routes and those starting
// with a variable, which alone are listed under anyFirstSegment. match tries only the routes
// listed under a path's first segment: the others could not match it.
func routesByFirst(parts [][]string) map[string][]int {
	isVar := func(p []string) bool { return strings.HasPrefix(p[0], "{") }
	out := map[string][]int{anyFirstSegment: nil}
	for _, p := range parts {
		if !isVar(p) {
			out[p[0]] = nil
		}
	}
	for first := range out {
		var l []int
		for i, p := range parts {
			if isVar(p) || p[0] == first {
				l = append(l, i)
			}
		}
		out[first] = l
	}
	return out
}

// matchParts matches the segments of a path with a route's pattern split at its slashes
// (parts, not modified).
func matchParts(parts []string, segments []string) (map[string]string, bool) {
	// A last part {name...} matches the rest of the path, slashes included (Zulip's path
	// converter: navigation view fragments such as narrow/is/alerted).
	if last := parts[len(parts)-1]; strings.HasSuffix(last, "...}") && len(segments) > len(parts) {
		rest := strings.Join(segments[len(parts)-1:], "/")
		segments = append(segments[:len(parts)-1:len(parts)-1], rest)
	}
	if len(parts) != len(segments) {
		return nil, false
	}
	var values map[string]string
	for i, part := range parts {
		seg := segments[i]
		name, isVar := strings.CutPrefix(part, "{")
		if !isVar {
			if part != seg {
				return nil, false
			}
			continue
		}
		name = strings.TrimSuffix(strings.TrimSuffix(name, "}"), "...")
		if seg == "" || strings.HasSuffix(name, "_id") && !isID(seg) {
			return nil, false
		}
		if values == nil {
			values = map[string]string{}
		}
		values[name] = seg
	}
	return values, true
}

// isID reports whether a path segment is an id (see parseID).
func isID(seg string) bool {
	_, ok := parseID[int64](seg)
	return ok
}
