package chat_test

import (
	"fmt"
	"testing"
)

// applyUserStatus applies a user_status event as Zulip's clients do: each field present
// replaces the stored one, and an empty value (away false, "" text or emoji) removes it; a
// user left with no field has no entry.
func applyUserStatus(state, ev map[string]any) {
	all, ok := state["user_status"].(map[string]any)
	if !ok {
		return
	}
	key := fmt.Sprint(ev["user_id"])
	st, _ := all[key].(map[string]any)
	if st == nil {
		st = map[string]any{}
	}
	if away, ok := ev["away"].(bool); ok {
		if away {
			st["away"] = true
		} else {
			delete(st, "away")
		}
	}
	if text, ok := ev["status_text"].(string); ok {
		if text == "" {
			delete(st, "status_text")
		} else {
			st["status_text"] = text
		}
	}
	if name, ok := ev["emoji_name"].(string); ok {
		if name == "" {
			delete(st, "emoji_name")
			delete(st, "emoji_code")
			delete(st, "reaction_type")
		} else {
			st["emoji_name"], st["emoji_code"], st["reaction_type"] = name, ev["emoji_code"], ev["reaction_type"]
		}
	}
	if len(st) == 0 {
		delete(all, key)
	} else {
		all[key] = st
	}
}

// dropRemovedProfileData removes from every user's profile_data the values of fields that a
// custom_profile_fields event no longer lists, as Zulip's clients do.
func dropRemovedProfileData(state, ev map[string]any) {
	kept := map[string]bool{}
	for _, f := range ev["fields"].([]any) {
		kept[fmt.Sprint(f.(map[string]any)["id"])] = true
	}
	for _, key := range []string{"realm_users", "realm_non_active_users"} {
		for _, u := range list(state, key) {
			pd, _ := u.(map[string]any)["profile_data"].(map[string]any)
			for id := range pd {
				if !kept[id] {
					delete(pd, id)
				}
			}
		}
	}
}

// applyRealmBot keeps realm_bots: add appends (by user id), update merges the changed fields,
// delete drops the bot.
func applyRealmBot(t *testing.T, state, ev map[string]any) {
	if _, ok := state["realm_bots"]; !ok {
		return
	}
	bot := ev["bot"].(map[string]any)
	id := num(bot["user_id"])
	l := list(state, "realm_bots")
	i := findByID(l, "user_id", id)
	switch ev["op"] {
	case "add":
		if i >= 0 {
			t.Fatalf("realm_bot add of a known bot: %v", ev)
		}
		state["realm_bots"] = insertByID(l, clone(bot), "user_id")
	case "update":
		if i < 0 {
			t.Fatalf("realm_bot update of an unknown bot: %v", ev)
		}
		rec := clone(l[i].(map[string]any))
		for k, v := range bot {
			rec[k] = v
		}
		l[i] = rec
	case "delete":
		state["realm_bots"] = removeByID(l, "user_id", id)
	default:
		t.Fatalf("unknown realm_bot op in %v", ev)
	}
}
