package httpapi

import "testing"

// channelsMatrixRows are the authorization-matrix rows of the channel endpoints beyond
// subscribe, create and the two lists.
func channelsMatrixRows() []matrixRow {
	admins := only("owner", "admin")
	return []matrixRow{
		{method: "POST", path: "users/me/subscriptions/properties", setup: everyoneSubscribed, params: map[string]string{"subscription_data": `[{"stream_id":1,"property":"pin_to_top","value":true}]`}, want: authenticated()},
		{method: "POST", path: "users/me/subscriptions/1", setup: everyoneSubscribed, params: map[string]string{"property": "is_muted", "value": "true"}, want: authenticated()},
		{method: "DELETE", path: "users/me/subscriptions", setup: everyoneSubscribed, params: map[string]string{"subscriptions": `["pub"]`}, want: authenticated()},
		{method: "GET", path: "users/{member}/subscriptions/1", setup: everyoneSubscribed, want: authenticated()},
		{method: "GET", path: "streams/1", setup: everyoneSubscribed, want: authenticated()},
		// The channel's creator (the owner) and organization administrators administer it.
		{method: "PATCH", path: "streams/1", setup: everyoneSubscribed, params: map[string]string{"description": "changed"}, want: admins},
		{method: "DELETE", path: "streams/1", setup: everyoneSubscribed, want: admins},
		{method: "GET", path: "streams/1/members", setup: everyoneSubscribed, want: authenticated()},
		{method: "GET", path: "get_stream_id", setup: everyoneSubscribed, params: map[string]string{"stream": "pub"}, want: authenticated()},
		{method: "POST", path: "default_streams", setup: everyoneSubscribed, params: map[string]string{"stream_id": "1"}, want: admins},
		{method: "DELETE", path: "default_streams", setup: defaultChannel, params: map[string]string{"stream_id": "1"}, want: admins},
		{method: "POST", path: "channel_folders/create", params: map[string]string{"name": "folder"}, want: admins},
		{method: "GET", path: "channel_folders", want: authenticated()},
		{method: "PATCH", path: "channel_folders/1", setup: ownerFolder, params: map[string]string{"name": "renamed"}, want: admins},
	}
}

// everyoneSubscribed creates the public channel 1 "pub" (by the owner) with every active user
// subscribed.
func everyoneSubscribed(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "owner", "POST", "users/me/subscriptions", map[string]string{
		"subscriptions": `[{"name":"pub"}]`,
		"principals":    "[{owner},{admin},{moderator},{member},{guest},{bot}]",
	})
}

// defaultChannel makes channel 1 a default channel.
func defaultChannel(t *testing.T, m *matrixOrg) {
	everyoneSubscribed(t, m)
	m.mustCall(t, "owner", "POST", "default_streams", map[string]string{"stream_id": "1"})
}

// ownerFolder creates channel folder 1.
func ownerFolder(t *testing.T, m *matrixOrg) {
	m.mustCall(t, "owner", "POST", "channel_folders/create", map[string]string{"name": "folder"})
}
