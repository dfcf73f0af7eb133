package chat_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/teamchat/chat/users"
)

// applyEvent applies one event (as JSON) to a register state (as JSON), the way a client keeps
// its state. It fails the test on an event kind it does not know, so that a new kind gets an
// applier before it ships.
func applyEvent(t *testing.T, state, ev map[string]any, self users.ID) {
	t.Helper()
	switch ev["type"] {
	case "heartbeat", "restart", "invites_changed", "attachment":
	case "realm_emoji":
		applyRealmEmoji(t, state, ev)
	case "reaction", "typing", "typing_edit_message":
		// Reactions live in message records, which register does not hold; typing is no state.
	case "realm_user":
		applyRealmUser(t, state, ev, self)
		applyRealmUserToGroups(state, ev)
	case "user_group":
		applyUserGroup(t, state, ev)
	case "user_settings":
		applyUserSettings(t, state, ev)
	case "custom_profile_fields":
		if _, ok := state["custom_profile_fields"]; ok {
			state["custom_profile_fields"] = ev["fields"]
		}
		dropRemovedProfileData(state, ev)
	case "stream":
		applyStream(t, state, ev)
	case "subscription":
		applySubscription(t, state, ev)
	case "default_streams":
		applyDefaultStreams(state, ev)
	case "channel_folder":
		applyChannelFolder(t, state, ev)
	case "drafts":
		applyDrafts(t, state, ev)
	case "scheduled_messages", "reminders":
		applyScheduled(t, state, ev)
	case "saved_snippets":
		applySavedSnippets(t, state, ev)
	case "navigation_view":
		applyNavigationView(t, state, ev)
	case "realm_linkifiers", "realm_filters", "realm_playgrounds":
		applyRealmList(state, ev, ev["type"].(string))
	case "message":
		applyMessage(t, state, ev, self)
	case "update_message_flags":
		applyUpdateMessageFlags(t, state, ev, self)
	case "delete_message":
		applyDeleteMessage(t, state, ev)
	case "update_message":
		applyUpdateMessage(t, state, ev, self)
	case "user_topic":
		applyUserTopic(t, state, ev)
	case "muted_topics":
		applyMutedTopics(t, state, ev)
	case "presence":
		applyPresence(t, state, ev)
	case "user_status":
		applyUserStatus(state, ev)
	case "realm_bot":
		applyRealmBot(t, state, ev)
	case "muted_users":
		if _, ok := state["muted_users"]; ok {
			state["muted_users"] = ev["muted_users"]
		}
	case "onboarding_steps":
		if _, ok := state["onboarding_steps"]; ok {
			state["onboarding_steps"] = ev["onboarding_steps"]
		}
	case "alert_words":
		if _, ok := state["alert_words"]; ok {
			state["alert_words"] = ev["alert_words"]
		}
	case "realm_domains":
		applyRealmDomains(t, state, ev)
	case "realm_user_settings_defaults":
		if d, ok := state["realm_user_settings_defaults"].(map[string]any); ok {
			d[ev["property"].(string)] = ev["value"]
		}
	case "realm":
		changes := map[string]any{}
		switch {
		case ev["op"] == "update":
			changes[ev["property"].(string)] = ev["value"]
		case ev["op"] == "update_dict" && ev["property"] == "default":
			changes = ev["data"].(map[string]any)
		default:
			t.Fatalf("no applier for realm op %v", ev["op"])
		}
		for name, v := range changes {
			key := "realm_" + name
			if _, ok := state[key]; !ok {
				t.Fatalf("realm update of unknown setting %s", key)
			}
			state[key] = v
			if name == "message_edit_history_visibility_policy" {
				state["realm_allow_edit_history"] = v != "none"
			}
			if _, ok := state["jitsi_server_url"]; ok && name == "jitsi_server_url" {
				// Zulip's apply_event: the deprecated jitsi_server_url follows the realm's.
				state["jitsi_server_url"] = v
				if v == nil || v == "" {
					state["jitsi_server_url"] = state["server_jitsi_server_url"]
				}
			}
			if own, ok := ownPermissionKeys[name]; ok {
				if _, ok := state[own]; ok {
					state[own] = allowsSelf(state, v)
					state["can_create_streams"] = state["can_create_public_streams"] == true || state["can_create_private_streams"] == true
				}
			}
		}
	default:
		t.Fatalf("no applier for event %v", ev)
	}
}

func num(v any) float64 { f, _ := v.(float64); return f }

// list returns state[key] as a slice of objects.
func list(state map[string]any, key string) []any {
	l, _ := state[key].([]any)
	return l
}

// findByID returns the index of the object whose key equals id, or -1.
func findByID(l []any, key string, id float64) int {
	return slices.IndexFunc(l, func(o any) bool { m, _ := o.(map[string]any); return num(m[key]) == id })
}

func applyRealmUser(t *testing.T, state, ev map[string]any, self users.ID) {
	person, _ := ev["person"].(map[string]any)
	id := num(person["user_id"])
	switch ev["op"] {
	case "add":
		p := clone(person)
		delete(p, "is_active") // register's realm_users entries carry no is_active
		if _, ok := state["realm_users"]; ok {
			if findByID(list(state, "realm_users"), "user_id", id) >= 0 {
				t.Fatalf("realm_user add for known user %v", id)
			}
			state["realm_users"] = append(list(state, "realm_users"), p)
			state["realm_non_active_users"] = removeByID(list(state, "realm_non_active_users"), "user_id", id)
		}
	case "remove":
		if _, ok := state["realm_users"]; ok {
			state["realm_users"] = removeByID(list(state, "realm_users"), "user_id", id)
		}
	case "update":
		applyPersonUpdate(state, person, id, float64(self))
	default:
		t.Fatalf("unknown realm_user op in %v", ev)
	}
}

// applyPersonUpdate merges a realm_user update into the user's entry (moving it between active
// and non-active users when is_active changes) and into the own-user keys.
func applyPersonUpdate(state, person map[string]any, id, self float64) {
	for _, key := range []string{"realm_users", "realm_non_active_users"} {
		l := list(state, key)
		i := findByID(l, "user_id", id)
		if i < 0 {
			continue
		}
		u := l[i].(map[string]any)
		for k, v := range person {
			switch k {
			case "user_id", "is_active":
			case "avatar_source", "avatar_url_medium":
				// Kept for the own-user keys only; user objects carry avatar_url.
			case "avatar_url":
				// As Zulip's client_gravatar clients (every queue here): the Gravatar URL of a
				// Gravatar avatar of a user whose email they see is theirs to compute.
				if url, _ := v.(string); strings.HasPrefix(url, "https://secure.gravatar.com/") && person["avatar_source"] == "G" && u["delivery_email"] != nil {
					v = nil
				}
				u[k] = v
			case "custom_profile_field":
				f := v.(map[string]any)
				pd, _ := u["profile_data"].(map[string]any)
				if pd == nil {
					pd = map[string]any{}
				}
				fid := fmt.Sprint(f["id"])
				if f["value"] == nil {
					delete(pd, fid)
				} else {
					entry := map[string]any{"value": f["value"]}
					if r, ok := f["rendered_value"]; ok {
						entry["rendered_value"] = r
					}
					pd[fid] = entry
				}
				u["profile_data"] = pd
			case "role":
				u["role"] = v
				r := num(v)
				u["is_owner"] = r == 100
				u["is_admin"] = r <= 200
				u["is_guest"] = r == 600
			case "new_email":
				u["email"] = v
			case "is_deleted":
				// User objects carry is_deleted only when true.
				if v == true {
					u[k] = v
				} else {
					delete(u, k)
				}
			default:
				u[k] = v
			}
		}
		if active, ok := person["is_active"].(bool); ok {
			if pr, ok := state["presences"].(map[string]any); ok && !active {
				// Deactivated users have no presence.
				delete(pr, fmt.Sprint(id))
			}
			if st, ok := state["user_status"].(map[string]any); ok && !active {
				// Nor a status.
				delete(st, fmt.Sprint(id))
			}
			state[key] = append(l[:i:i], l[i+1:]...)
			dest := "realm_non_active_users"
			if active {
				dest = "realm_users"
			}
			state[dest] = insertByID(list(state, dest), u, "user_id")
		}
		break
	}
	if id != self {
		return
	}
	for k, v := range person {
		switch k {
		case "full_name", "delivery_email", "avatar_url", "avatar_source", "avatar_url_medium":
			if _, ok := state[k]; ok {
				state[k] = v
			}
		case "role":
			r := num(v)
			for key, val := range map[string]bool{"is_owner": r == 100, "is_admin": r <= 200, "is_moderator": r == 300, "is_guest": r == 600} {
				if _, ok := state[key]; ok {
					state[key] = val
				}
			}
		case "new_email":
			if _, ok := state["email"]; ok {
				state["email"] = v
			}
		}
	}
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func removeByID(l []any, key string, id float64) []any {
	return slices.DeleteFunc(slices.Clone(l), func(o any) bool { m, _ := o.(map[string]any); return num(m[key]) == id })
}

// insertByID inserts o keeping l ordered by key.
func insertByID(l []any, o map[string]any, key string) []any {
	i := slices.IndexFunc(l, func(x any) bool { m, _ := x.(map[string]any); return num(m[key]) > num(o[key]) })
	if i < 0 {
		return append(l, o)
	}
	return slices.Insert(l, i, any(o))
}

// ownPermissionKeys are the register keys that say whether the user holds an organization
// permission, by the permission; clients recompute them when the permission changes.
var ownPermissionKeys = map[string]string{
	"can_create_public_channel_group":     "can_create_public_streams",
	"can_create_private_channel_group":    "can_create_private_streams",
	"can_create_web_public_channel_group": "can_create_web_public_streams",
	"can_add_subscribers_group":           "can_subscribe_other_users",
	"can_invite_users_group":              "can_invite_others_to_realm",
}

// allowsSelf evaluates a group-setting value (JSON) for the state's own user through the
// groups of realm_user_groups, as a client does.
func allowsSelf(state map[string]any, setting any) bool {
	self := num(state["user_id"])
	groups := map[float64]map[string]any{}
	for _, g := range list(state, "realm_user_groups") {
		m := g.(map[string]any)
		groups[num(m["id"])] = m
	}
	var inGroup func(id float64, seen map[float64]bool) bool
	inGroup = func(id float64, seen map[float64]bool) bool {
		g, ok := groups[id]
		if !ok || seen[id] {
			return false
		}
		seen[id] = true
		for _, m := range g["members"].([]any) {
			if num(m) == self {
				return true
			}
		}
		for _, sub := range g["direct_subgroup_ids"].([]any) {
			if inGroup(num(sub), seen) {
				return true
			}
		}
		return false
	}
	if id, ok := setting.(float64); ok {
		return inGroup(id, map[float64]bool{})
	}
	anon := setting.(map[string]any)
	for _, m := range anon["direct_members"].([]any) {
		if num(m) == self {
			return true
		}
	}
	for _, sub := range anon["direct_subgroups"].([]any) {
		if inGroup(num(sub), map[float64]bool{}) {
			return true
		}
	}
	return false
}

// applyRealmDomains keeps realm_domains (sorted by domain) current.
func applyRealmDomains(t *testing.T, state, ev map[string]any) {
	l, ok := state["realm_domains"].([]any)
	if !ok {
		return
	}
	find := func(domain any) int {
		return slices.IndexFunc(l, func(o any) bool { return o.(map[string]any)["domain"] == domain })
	}
	switch ev["op"] {
	case "add":
		d := ev["realm_domain"].(map[string]any)
		l = append(l, d)
		slices.SortFunc(l, func(a, b any) int {
			return strings.Compare(a.(map[string]any)["domain"].(string), b.(map[string]any)["domain"].(string))
		})
	case "change":
		d := ev["realm_domain"].(map[string]any)
		l[find(d["domain"])] = d
	case "remove":
		l = slices.Delete(l, find(ev["domain"]), find(ev["domain"])+1)
	default:
		t.Fatalf("unknown realm_domains op in %v", ev)
	}
	state["realm_domains"] = l
}
