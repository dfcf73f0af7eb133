package chat_test

import "fmt"

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
