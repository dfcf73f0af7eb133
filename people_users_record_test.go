package chat_test

import (
	"encoding/json"
	"testing"

	chat "github.com/teamchat/chat"
)

// jsonObject marshals v and decodes it as a JSON object.
func jsonObject(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestUserRecordsAsZulipSendsThem(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	me, err := f.svc.GetOwnUser(ctx, f.actor("member"), chat.UserQueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec := jsonObject(t, me)
	if url, ok := rec["avatar_url"].(string); !ok || url == "" {
		t.Errorf("GET /users/me avatar_url = %v, want a URL", rec["avatar_url"])
	}
	for _, key := range []string{"bot_type", "bot_owner_id"} {
		if _, ok := rec[key]; ok {
			t.Errorf("a human's record has %s", key)
		}
	}
	bot, err := f.svc.GetUser(ctx, f.actor("member"), chat.GetUserParams{UserID: f.ids["bot"]})
	if err != nil {
		t.Fatal(err)
	}
	if b := jsonObject(t, bot)["user"].(map[string]any); b["bot_type"] != float64(1) || b["bot_owner_id"] != float64(f.ids["owner"]) {
		t.Errorf("bot record: bot_type %v, bot_owner_id %v", b["bot_type"], b["bot_owner_id"])
	}
	res, err := f.svc.RegisterQueue(ctx, f.actor("member"), chat.RegisterQueueParams{FetchEventTypes: []string{"realm_user"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := jsonObject(t, res)["user_role"]; ok {
		t.Error("register sends user_role, which Zulip does not")
	}
}
