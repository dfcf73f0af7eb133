package httpapi_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSubscribeOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"subscriptions":              {`[{"name":"Verona","description":"Fair *Verona*"},{"name":"Denmark"}]`},
		"principals":                 {`["hamlet@zulip.com","iago@zulip.com"]`},
		"authorization_errors_fatal": {"false"},
		"can_send_message_group":     {`{"direct_members":[],"direct_subgroups":[]}`},
		"topics_policy":              {`"inherit"`},
		"message_retention_days":     {`"realm_default"`},
	})
	if status != 200 {
		t.Fatalf("subscribe: %d %v", status, body)
	}
	want := map[string]any{
		"result": "success", "msg": "",
		"subscribed":         map[string]any{"1": []any{"Denmark", "Verona"}, "2": []any{"Denmark", "Verona"}},
		"already_subscribed": map[string]any{},
		"unauthorized":       []any{},
		// Others were named and send_new_subscription_messages defaults to true.
		"new_subscription_messages_sent": true,
	}
	if diff := cmp.Diff(want, body); diff != "" {
		t.Fatalf("response (-want +got):\n%s", diff)
	}

	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/me/subscriptions", "iago@zulip.com", url.Values{"include_subscribers": {"true"}})
	if status != 200 {
		t.Fatalf("get subscriptions: %d %v", status, body)
	}
	list := body["subscriptions"].([]any)
	if len(list) != 2 {
		t.Fatalf("subscriptions = %v", list)
	}
	verona := list[1].(map[string]any)
	if verona["name"] != "Verona" || verona["rendered_description"] != "<p>Fair <em>Verona</em></p>" ||
		!cmp.Equal(verona["subscribers"], []any{1.0, 2.0}) ||
		!cmp.Equal(verona["can_send_message_group"], map[string]any{"direct_members": []any{}, "direct_subgroups": []any{}}) {
		t.Fatalf("Verona = %v", verona)
	}

	status, _, body = s.call(t, http.MethodGet, "/api/v1/streams", "hamlet@zulip.com", url.Values{"include_default": {"true"}})
	if status != 200 || len(body["streams"].([]any)) != 2 || body["streams"].([]any)[0].(map[string]any)["is_default"] != false {
		t.Fatalf("streams: %d %v", status, body)
	}
}

func TestCreateChannelOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/channels/create", "iago@zulip.com", url.Values{
		"name": {"Rome"}, "subscribers": {"[2]"}, "invite_only": {"true"},
	})
	if status != 200 || body["id"] != 1.0 {
		t.Fatalf("create: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/channels/create", "iago@zulip.com", url.Values{"name": {"rome"}, "subscribers": {"[]"}})
	wantErr(t, status, body, http.StatusConflict, "CHANNEL_ALREADY_EXISTS", "Channel 'Rome' already exists")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/channels/create", "iago@zulip.com", url.Values{"name": {"x"}})
	wantErr(t, status, body, http.StatusBadRequest, "REQUEST_VARIABLE_MISSING", "Missing 'subscribers' argument")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"subscriptions": {`[{"name":"x"}]`}, "principals": {`[1,"a@b.c"]`},
	})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"subscriptions": {`[{"name":"x"}]`}, "can_send_message_group": {`"x"`},
	})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "Invalid can_send_message_group")
}

func TestChannelAdministrationOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	iago, hamlet := "iago@zulip.com", "hamlet@zulip.com"
	mustOK := func(method, path, as string, form url.Values) map[string]any {
		t.Helper()
		status, _, body := s.call(t, method, path, as, form)
		if status != 200 {
			t.Fatalf("%s %s: %d %v", method, path, status, body)
		}
		return body
	}
	mustOK(http.MethodPost, "/api/v1/users/me/subscriptions", hamlet, url.Values{"subscriptions": {`[{"name":"Verona"}]`}})
	body := mustOK(http.MethodGet, "/api/v1/get_stream_id", hamlet, url.Values{"stream": {"verona"}})
	if body["stream_id"] != 1.0 {
		t.Fatalf("get_stream_id = %v", body)
	}
	mustOK(http.MethodPost, "/api/v1/users/me/subscriptions/properties", hamlet, url.Values{
		"subscription_data": {`[{"stream_id":1,"property":"is_muted","value":true},{"stream_id":1,"property":"color","value":"#123"}]`},
	})
	mustOK(http.MethodPost, "/api/v1/users/me/subscriptions/1", hamlet, url.Values{"property": {"pin_to_top"}, "value": {"true"}})
	status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions/properties", hamlet, url.Values{
		"subscription_data": {`[{"stream_id":1,"property":"is_muted","value":true,"extra":1}]`},
	})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "")
	body = mustOK(http.MethodGet, "/api/v1/users/me/subscriptions", hamlet, nil)
	sub := body["subscriptions"].([]any)[0].(map[string]any)
	if sub["is_muted"] != true || sub["in_home_view"] != false || sub["color"] != "#123" || sub["pin_to_top"] != true {
		t.Fatalf("subscription = %v", sub)
	}
	mustOK(http.MethodPatch, "/api/v1/streams/1", hamlet, url.Values{
		"description": {"Fair"}, "can_send_message_group": {`{"new":{"direct_members":[2],"direct_subgroups":[]}}`},
	})
	body = mustOK(http.MethodGet, "/api/v1/streams/1", iago, nil)
	stream := body["stream"].(map[string]any)
	if stream["description"] != "Fair" || !cmp.Equal(stream["can_send_message_group"], map[string]any{"direct_members": []any{2.0}, "direct_subgroups": []any{}}) {
		t.Fatalf("stream = %v", stream)
	}
	body = mustOK(http.MethodGet, "/api/v1/streams/1/members", iago, nil)
	if !cmp.Equal(body["subscribers"], []any{2.0}) {
		t.Fatalf("members = %v", body)
	}
	body = mustOK(http.MethodGet, "/api/v1/users/2/subscriptions/1", iago, nil)
	if body["is_subscribed"] != true {
		t.Fatalf("status = %v", body)
	}
	mustOK(http.MethodPost, "/api/v1/default_streams", iago, url.Values{"stream_id": {"1"}})
	mustOK(http.MethodDelete, "/api/v1/default_streams", iago, url.Values{"stream_id": {"1"}})
	body = mustOK(http.MethodPost, "/api/v1/channel_folders/create", iago, url.Values{"name": {"Cities"}})
	if body["channel_folder_id"] != 1.0 {
		t.Fatalf("folder = %v", body)
	}
	mustOK(http.MethodPatch, "/api/v1/streams/1", iago, url.Values{"folder_id": {"1"}})
	mustOK(http.MethodPatch, "/api/v1/channel_folders/1", iago, url.Values{"description": {"Places"}})
	body = mustOK(http.MethodGet, "/api/v1/channel_folders", hamlet, nil)
	if len(body["channel_folders"].([]any)) != 1 {
		t.Fatalf("folders = %v", body)
	}
	body = mustOK(http.MethodDelete, "/api/v1/users/me/subscriptions", hamlet, url.Values{"subscriptions": {`["Verona"]`}})
	if !cmp.Equal(body["removed"], []any{"Verona"}) || !cmp.Equal(body["not_removed"], []any{}) {
		t.Fatalf("unsubscribe = %v", body)
	}
	mustOK(http.MethodPatch, "/api/v1/streams/1", iago, url.Values{"folder_id": {"null"}})
	mustOK(http.MethodDelete, "/api/v1/streams/1", iago, nil)
	status, _, body = s.call(t, http.MethodGet, "/api/v1/streams/99", iago, nil)
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "Invalid channel ID")
}

func TestLegacyUpdateSubscriptionsOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPatch, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"add": {`[{"name":"Verona"},{"name":"Denmark","color":"#76ce90"}]`},
	})
	if status != 200 {
		t.Fatalf("add: %d %v", status, body)
	}
	want := map[string]any{
		"result": "success", "msg": "",
		"subscribed":         map[string]any{"2": []any{"Denmark", "Verona"}},
		"already_subscribed": map[string]any{},
		"removed":            []any{}, "not_removed": []any{},
	}
	if diff := cmp.Diff(want, body); diff != "" {
		t.Fatalf("add response (-want +got):\n%s", diff)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"add": {`[{"name":"Verona"}]`}, "delete": {`["Denmark"]`},
	})
	want = map[string]any{
		"result": "success", "msg": "",
		"subscribed":         map[string]any{},
		"already_subscribed": map[string]any{"2": []any{"Verona"}},
		"removed":            []any{"Denmark"}, "not_removed": []any{},
	}
	if diff := cmp.Diff(want, body); status != 200 || diff != "" {
		t.Fatalf("add+delete: %d (-want +got):\n%s", status, diff)
	}

	// Bad input changes nothing: an unknown channel to leave rolls back the subscribe half.
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"add": {`[{"name":"Rome"}]`}, "delete": {`["Atlantis"]`},
	})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "Channel(s) (Atlantis) do not exist")
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", `Nothing to do. Specify at least one of "add" or "delete".`)
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{"add": {`[{"name":"x","color":"red"}]`}})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{"delete": {`"Verona"`}})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "")
	status, _, body = s.call(t, http.MethodGet, "/api/v1/streams", "hamlet@zulip.com", nil)
	if status != 200 || len(body["streams"].([]any)) != 2 {
		t.Fatalf("streams after refusals: %d %v", status, body)
	}
}

func TestUpdateRealmAnnouncementsOverHTTP(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/channels/create", "iago@zulip.com", url.Values{"name": {"announce"}, "subscribers": {"[1,2]"}})
	if status != 200 {
		t.Fatalf("create: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/realm", "iago@zulip.com", url.Values{"new_stream_announcements_stream_id": {"99"}})
	wantErr(t, status, body, http.StatusBadRequest, "BAD_REQUEST", "Invalid channel ID")
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/realm", "hamlet@zulip.com", url.Values{"new_stream_announcements_stream_id": {"1"}})
	if status != 400 {
		t.Fatalf("member: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPatch, "/api/v1/realm", "iago@zulip.com", url.Values{"new_stream_announcements_stream_id": {"1"}})
	if status != 200 || body["new_stream_announcements_stream_id"] != 1.0 {
		t.Fatalf("set: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"subscriptions": {`[{"name":"fresh"}]`}, "announce": {"true"},
	})
	if status != 200 {
		t.Fatalf("subscribe: %d %v", status, body)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/messages", "iago@zulip.com", url.Values{
		"anchor": {"newest"}, "num_before": {"1"}, "num_after": {"0"}, "apply_markdown": {"false"},
		"narrow": {`[["channel","announce"],["topic","new channels"]]`},
	})
	msgs, _ := body["messages"].([]any)
	if status != 200 || len(msgs) != 1 || msgs[0].(map[string]any)["content"] != "@_**King Hamlet|2** created a new channel #**fresh**." ||
		msgs[0].(map[string]any)["sender_email"] != "notification-bot@zulip.com" {
		t.Fatalf("announcement: %d %v", status, body)
	}
}
