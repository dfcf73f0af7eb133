package chat_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// messagesConsistencyCases are the consistency cases of the messages and topics area. Every
// case starts from a public channel (member, admin, guest and bot subscribed), a private one
// (member and admin) and a few messages.
func messagesConsistencyCases() []consistencyCase {
	type seeded struct {
		public, private channels.ID
		ids             []messages.ID
	}
	// The cases run in parallel: seeds is shared between them.
	var seedsMu sync.Mutex
	seeds := map[*fixture]*seeded{}
	seed := func(t *testing.T, f *fixture) {
		s := &seeded{}
		s.public = mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin", "guest", "bot")
		s.private = mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "member", "admin")
		s.ids = append(s.ids,
			mustSendToChannel(t, f, "admin", s.public, "party", "first @**Mia Member**"),
			mustSendToChannel(t, f, "admin", s.private, "plans", "hidden"),
			mustSendDirect(t, f, "admin", "hello", "member"),
			mustSendToChannel(t, f, "member", s.public, "", "general"),
		)
		seedsMu.Lock()
		seeds[f] = s
		seedsMu.Unlock()
	}
	get := func(f *fixture) *seeded { seedsMu.Lock(); defer seedsMu.Unlock(); return seeds[f] }
	flags := func(t *testing.T, f *fixture, who, op, flag string, ids ...messages.ID) {
		t.Helper()
		mustDo(t, "UpdateMessageFlags", errOf(f.svc.UpdateMessageFlags(t.Context(), f.actor(who), chat.UpdateMessageFlagsParams{Messages: ids, Op: op, Flag: flag})))
	}
	return []consistencyCase{
		{method: "SendMessage", name: "to a public channel", setup: seed, run: func(t *testing.T, f *fixture) {
			mustSendToChannel(t, f, "member", get(f).public, "party", "more @**all**")
		}},
		{method: "SendMessage", name: "to a private channel from an API client", setup: seed, run: func(t *testing.T, f *fixture) {
			c := get(f).private
			mustDo(t, "SendMessage", errOf(f.svc.SendMessage(t.Context(), f.actor("member"), chat.SendMessageParams{Type: "stream", ChannelID: &c, Topic: ptr("plans"), Content: "x", Client: "ZulipPython"})))
		}},
		{method: "SendMessage", name: "direct to a group", setup: seed, run: func(t *testing.T, f *fixture) {
			mustSendDirect(t, f, "guest", "hi all", "member", "bot")
		}},
		{method: "SendMessage", name: "direct to oneself", setup: seed, run: func(t *testing.T, f *fixture) {
			mustSendDirect(t, f, "member", "note to self", "member")
		}},
		{method: "UpdateMessageFlags", name: "mark read", setup: seed, run: func(t *testing.T, f *fixture) {
			flags(t, f, "member", "add", "read", get(f).ids[:3]...)
		}},
		{method: "UpdateMessageFlags", name: "mark unread", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			flags(t, f, "member", "add", "read", get(f).ids...)
		}, run: func(t *testing.T, f *fixture) {
			flags(t, f, "member", "remove", "read", get(f).ids...)
		}},
		{method: "UpdateMessageFlags", name: "star a message from history", setup: seed, run: func(t *testing.T, f *fixture) {
			flags(t, f, "owner", "add", "starred", get(f).ids[0])
			flags(t, f, "member", "add", "starred", get(f).ids[0], get(f).ids[2])
		}},
		{method: "SendMessage", name: "first message of a channel", setup: seed, run: func(t *testing.T, f *fixture) {
			// The channel's first message is the notification bot's notice of its creation.
			res, err := f.svc.CreateChannel(t.Context(), f.actor("owner"), chat.CreateChannelParams{Name: "fresh", Subscribers: []users.ID{f.ids["member"], f.ids["guest"]}})
			mustDo(t, "CreateChannel", err)
			mustSendToChannel(t, f, "member", res.ID, "hello", "second")
		}},
		{method: "UpdateUserTopic", name: "mute then follow", setup: seed, run: func(t *testing.T, f *fixture) {
			for _, p := range []topics.VisibilityPolicy{topics.PolicyMuted, topics.PolicyFollowed} {
				mustDo(t, "UpdateUserTopic", errOf(f.svc.UpdateUserTopic(t.Context(), f.actor("member"), chat.UpdateUserTopicParams{StreamID: get(f).public, Topic: "party", VisibilityPolicy: p})))
			}
			mustDo(t, "UpdateUserTopic", errOf(f.svc.UpdateUserTopic(t.Context(), f.actor("member"), chat.UpdateUserTopicParams{StreamID: get(f).public, Topic: "general chat", VisibilityPolicy: topics.PolicyMuted})))
		}},
		{method: "UpdateUserTopic", name: "clear", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			mustDo(t, "UpdateUserTopic", errOf(f.svc.UpdateUserTopic(t.Context(), f.actor("member"), chat.UpdateUserTopicParams{StreamID: get(f).public, Topic: "party", VisibilityPolicy: topics.PolicyMuted})))
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateUserTopic", errOf(f.svc.UpdateUserTopic(t.Context(), f.actor("member"), chat.UpdateUserTopicParams{StreamID: get(f).public, Topic: "Party", VisibilityPolicy: topics.PolicyNone})))
		}},
		{method: "MuteTopic", name: "add and remove", setup: seed, run: func(t *testing.T, f *fixture) {
			c := get(f).public
			mustDo(t, "MuteTopic", errOf(f.svc.MuteTopic(t.Context(), f.actor("guest"), chat.MuteTopicParams{StreamID: &c, Topic: "party", Op: "add"})))
			mustDo(t, "MuteTopic", errOf(f.svc.MuteTopic(t.Context(), f.actor("member"), chat.MuteTopicParams{StreamID: &c, Topic: "x", Op: "add"})))
			mustDo(t, "MuteTopic", errOf(f.svc.MuteTopic(t.Context(), f.actor("member"), chat.MuteTopicParams{StreamID: &c, Topic: "x", Op: "remove"})))
		}},
		{method: "DeleteTopic", name: "oldest topic of a channel, muted by a user", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			mustSendToChannel(t, f, "admin", get(f).public, "party", "second @**all**")
			mustSendToChannel(t, f, "admin", get(f).public, "lunch", "newest message, kept")
			mustDo(t, "UpdateUserTopic", errOf(f.svc.UpdateUserTopic(t.Context(), f.actor("member"), chat.UpdateUserTopicParams{StreamID: get(f).public, Topic: "party", VisibilityPolicy: topics.PolicyMuted})))
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteTopic", errOf(f.svc.DeleteTopic(t.Context(), f.actor("admin"), chat.DeleteTopicParams{StreamID: get(f).public, TopicName: "PARTY"})))
		}},
		{method: "DeleteMessage", name: "the oldest message of a channel, unread and starred", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			flags(t, f, "member", "add", "starred", get(f).ids[0])
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteMessage", errOf(f.svc.DeleteMessage(t.Context(), f.actor("admin"), chat.DeleteMessageParams{MessageID: get(f).ids[0]})))
		}},
		{method: "SendMessage", name: "to a channel quiet for half a year", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			f.clock.Advance(181 * 24 * time.Hour)
		}, run: func(t *testing.T, f *fixture) {
			mustSendToChannel(t, f, "member", get(f).public, "party", "back again")
		}},
		{method: "DeleteMessage", name: "the only recent message of an old channel", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			f.clock.Advance(181 * 24 * time.Hour)
			mustSendToChannel(t, f, "member", get(f).public, "party", "back again")
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteMessage", errOf(f.svc.DeleteMessage(t.Context(), f.actor("admin"), chat.DeleteMessageParams{MessageID: get(f).ids[3] + 1})))
		}},
		{method: "DeleteMessage", name: "a direct message: recent conversations follow", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			mustSendDirect(t, f, "member", "second", "admin")
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteMessage", errOf(f.svc.DeleteMessage(t.Context(), f.actor("member"), chat.DeleteMessageParams{MessageID: get(f).ids[3] + 1})))
			mustDo(t, "DeleteMessage", errOf(f.svc.DeleteMessage(t.Context(), f.actor("admin"), chat.DeleteMessageParams{MessageID: get(f).ids[2]})))
		}},
		{method: "DeleteMessage", name: "the newest message: max_message_id follows", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteMessage", errOf(f.svc.DeleteMessage(t.Context(), f.actor("admin"), chat.DeleteMessageParams{MessageID: get(f).ids[3]})))
		}},
		{method: "DeleteTopic", name: "a private channel's only topic", setup: seed, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeleteTopic", errOf(f.svc.DeleteTopic(t.Context(), f.actor("admin"), chat.DeleteTopicParams{StreamID: get(f).private, TopicName: "plans"})))
		}},
		{method: "UpdateMessageFlags", name: "unstar", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			flags(t, f, "member", "add", "starred", get(f).ids[0], get(f).ids[2])
		}, run: func(t *testing.T, f *fixture) {
			flags(t, f, "member", "remove", "starred", get(f).ids[2])
		}},
	}
}

// applyMessage applies a message event: max_message_id, unread_msgs and
// recent_private_conversations.
func applyMessage(t *testing.T, state, ev map[string]any, self users.ID) {
	msg := ev["message"].(map[string]any)
	id := num(msg["id"])
	if _, ok := state["max_message_id"]; ok && id > num(state["max_message_id"]) {
		state["max_message_id"] = id
	}
	flags := stringsOf(ev["flags"])
	if u, ok := state["unread_msgs"].(map[string]any); ok && !slices.Contains(flags, "read") {
		if msg["type"] != "stream" || subscribedIn(state, num(msg["stream_id"])) {
			addUnread(u, msg, flags, float64(self))
		}
	}
	if msg["type"] == "private" {
		if _, ok := state["recent_private_conversations"]; ok {
			var others []any
			for _, r := range msg["display_recipient"].([]any) {
				if uid := num(r.(map[string]any)["id"]); uid != float64(self) {
					others = append(others, uid)
				}
			}
			if others == nil {
				others = []any{}
			}
			l := list(state, "recent_private_conversations")
			i := slices.IndexFunc(l, func(c any) bool { return fmt.Sprint(c.(map[string]any)["user_ids"]) == fmt.Sprint(others) })
			if i < 0 {
				l = append(l, map[string]any{"user_ids": others, "max_message_id": id})
			} else {
				l[i].(map[string]any)["max_message_id"] = max(id, num(l[i].(map[string]any)["max_message_id"]))
			}
			slices.SortFunc(l, func(a, b any) int {
				return cmp.Compare(num(b.(map[string]any)["max_message_id"]), num(a.(map[string]any)["max_message_id"]))
			})
			state["recent_private_conversations"] = l
		}
	}
}

func stringsOf(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// subscribedIn reports whether the state's subscriptions include the channel.
func subscribedIn(state map[string]any, c float64) bool {
	return findByID(list(state, "subscriptions"), "stream_id", c) >= 0
}

// addUnread adds one unread message to unread_msgs, keeping register's order.
func addUnread(u, msg map[string]any, flags []string, self float64) {
	id := num(msg["id"])
	u["count"] = num(u["count"]) + 1
	if slices.ContainsFunc(flags, func(f string) bool { return strings.Contains(f, "mentioned") }) {
		u["mentions"] = sortedNums(append(list(u, "mentions"), id))
	}
	addTo := func(key string, match func(map[string]any) bool, fresh map[string]any) {
		l := list(u, key)
		i := slices.IndexFunc(l, func(x any) bool { return match(x.(map[string]any)) })
		if i < 0 {
			fresh["unread_message_ids"] = []any{}
			l = append(l, fresh)
			i = len(l) - 1
		}
		e := l[i].(map[string]any)
		e["unread_message_ids"] = sortedNums(append(list(e, "unread_message_ids"), id))
		u[key] = l
	}
	switch {
	case msg["type"] == "stream":
		sid, topic := num(msg["stream_id"]), msg["subject"].(string)
		addTo("streams", func(e map[string]any) bool {
			return num(e["stream_id"]) == sid && strings.EqualFold(e["topic"].(string), topic)
		}, map[string]any{"stream_id": sid, "topic": topic})
	default:
		var ids []float64
		for _, r := range msg["display_recipient"].([]any) {
			ids = append(ids, num(r.(map[string]any)["id"]))
		}
		if len(ids) <= 2 {
			other := self
			for _, x := range ids {
				if x != self {
					other = x
				}
			}
			addTo("pms", func(e map[string]any) bool { return num(e["other_user_id"]) == other },
				map[string]any{"other_user_id": other, "sender_id": other})
		} else {
			parts := make([]string, len(ids))
			for i, x := range ids {
				parts[i] = fmt.Sprint(int64(x))
			}
			key := strings.Join(parts, ",")
			addTo("huddles", func(e map[string]any) bool { return e["user_ids_string"] == key },
				map[string]any{"user_ids_string": key})
		}
	}
	sortUnread(u)
}

func sortedNums(l []any) []any {
	slices.SortFunc(l, func(a, b any) int { return cmp.Compare(num(a), num(b)) })
	return slices.CompactFunc(l, func(a, b any) bool { return num(a) == num(b) })
}

// sortUnread orders unread_msgs' lists the way register does.
func sortUnread(u map[string]any) {
	first := func(e map[string]any) float64 { return num(list(e, "unread_message_ids")[0]) }
	l := list(u, "streams")
	slices.SortFunc(l, func(a, b any) int {
		x, y := a.(map[string]any), b.(map[string]any)
		return cmp.Or(cmp.Compare(num(x["stream_id"]), num(y["stream_id"])), cmp.Compare(first(x), first(y)))
	})
	l = list(u, "pms")
	slices.SortFunc(l, func(a, b any) int {
		return cmp.Compare(num(a.(map[string]any)["other_user_id"]), num(b.(map[string]any)["other_user_id"]))
	})
	l = list(u, "huddles")
	slices.SortFunc(l, func(a, b any) int {
		return cmp.Compare(a.(map[string]any)["user_ids_string"].(string), b.(map[string]any)["user_ids_string"].(string))
	})
}

// removeUnread drops messages from unread_msgs (and empty conversations).
func removeUnread(u map[string]any, ids []any) {
	gone := func(x any) bool { return slices.ContainsFunc(ids, func(y any) bool { return num(y) == num(x) }) }
	for _, key := range []string{"streams", "pms", "huddles"} {
		var keep []any
		for _, e := range list(u, key) {
			m := e.(map[string]any)
			before := len(list(m, "unread_message_ids"))
			m["unread_message_ids"] = slices.DeleteFunc(slices.Clone(list(m, "unread_message_ids")), gone)
			u["count"] = num(u["count"]) - float64(before-len(list(m, "unread_message_ids")))
			if len(list(m, "unread_message_ids")) > 0 {
				keep = append(keep, m)
			}
		}
		if keep == nil {
			keep = []any{}
		}
		u[key] = keep
	}
	u["mentions"] = slices.DeleteFunc(slices.Clone(list(u, "mentions")), gone)
}

// applyUpdateMessageFlags applies read and starred changes.
func applyUpdateMessageFlags(t *testing.T, state, ev map[string]any, self users.ID) {
	ids := list(ev, "messages")
	switch ev["flag"] {
	case "read":
		u, ok := state["unread_msgs"].(map[string]any)
		if !ok {
			return
		}
		if ev["op"] == "add" {
			removeUnread(u, ids)
			return
		}
		details := ev["message_details"].(map[string]any)
		for _, id := range ids {
			d := details[fmt.Sprint(int64(num(id)))].(map[string]any)
			msg := map[string]any{"id": id, "type": d["type"]}
			var flags []string
			if d["mentioned"] == true {
				flags = append(flags, "mentioned")
			}
			if d["type"] == "stream" {
				if !subscribedIn(state, num(d["stream_id"])) {
					continue
				}
				msg["stream_id"], msg["subject"] = d["stream_id"], d["topic"]
			} else {
				var rs []any
				for _, uid := range append(list(d, "user_ids"), float64(self)) {
					rs = append(rs, map[string]any{"id": uid})
				}
				slices.SortFunc(rs, func(a, b any) int { return cmp.Compare(num(a.(map[string]any)["id"]), num(b.(map[string]any)["id"])) })
				msg["display_recipient"] = rs
			}
			addUnread(u, msg, flags, float64(self))
		}
	case "starred":
		if _, ok := state["starred_messages"]; !ok {
			return
		}
		l := list(state, "starred_messages")
		if ev["op"] == "add" {
			l = sortedNums(append(l, ids...))
		} else {
			l = slices.DeleteFunc(slices.Clone(l), func(x any) bool {
				return slices.ContainsFunc(ids, func(y any) bool { return num(y) == num(x) })
			})
		}
		if l == nil {
			l = []any{}
		}
		state["starred_messages"] = l
	default:
		t.Fatalf("unexpected flag in %v", ev)
	}
}

// goldenDirectMessageAndFlags: a direct message to the viewer (member), who stars it, reads it
// and marks it unread again.
func goldenDirectMessageAndFlags(t *testing.T, f *fixture) {
	id := mustSendDirect(t, f, "admin", "hello **there**", "member")
	for _, op := range []struct{ op, flag string }{{"add", "starred"}, {"add", "read"}, {"remove", "read"}} {
		mustDo(t, "UpdateMessageFlags", errOf(f.svc.UpdateMessageFlags(t.Context(), f.actor("member"),
			chat.UpdateMessageFlagsParams{Messages: []messages.ID{id}, Op: op.op, Flag: op.flag})))
	}
}

// applyDeleteMessage removes deleted messages from unread_msgs and starred_messages.
func applyDeleteMessage(t *testing.T, state, ev map[string]any) {
	ids, ok := ev["message_ids"].([]any)
	if !ok {
		ids = []any{ev["message_id"]}
	}
	if u, ok := state["unread_msgs"].(map[string]any); ok {
		removeUnread(u, ids)
	}
	if _, ok := state["starred_messages"]; ok {
		l := slices.DeleteFunc(slices.Clone(list(state, "starred_messages")), func(x any) bool {
			return slices.ContainsFunc(ids, func(y any) bool { return num(y) == num(x) })
		})
		if l == nil {
			l = []any{}
		}
		state["starred_messages"] = l
	}
}

// applyUserTopic replaces the topic's entry of user_topics (keeping register's order: channel,
// then topic case-insensitively).
func applyUserTopic(t *testing.T, state, ev map[string]any) {
	if _, ok := state["user_topics"]; !ok {
		return
	}
	l := slices.DeleteFunc(slices.Clone(list(state, "user_topics")), func(x any) bool {
		m := x.(map[string]any)
		return num(m["stream_id"]) == num(ev["stream_id"]) && strings.EqualFold(m["topic_name"].(string), ev["topic_name"].(string))
	})
	if num(ev["visibility_policy"]) != 0 {
		e := clone(ev)
		delete(e, "type")
		delete(e, "id")
		l = append(l, e)
	}
	slices.SortFunc(l, func(a, b any) int {
		x, y := a.(map[string]any), b.(map[string]any)
		return cmp.Or(cmp.Compare(num(x["stream_id"]), num(y["stream_id"])),
			cmp.Compare(strings.ToLower(x["topic_name"].(string)), strings.ToLower(y["topic_name"].(string))))
	})
	if l == nil {
		l = []any{}
	}
	state["user_topics"] = l
}

// applyMutedTopics replaces the legacy muted_topics list.
func applyMutedTopics(t *testing.T, state, ev map[string]any) {
	if _, ok := state["muted_topics"]; ok {
		state["muted_topics"] = ev["muted_topics"]
	}
}

// goldenTopicLifecycle: a channel's first messages (one in the empty topic), the viewer
// (member) mutes the topic, an administrator deletes it.
func goldenTopicLifecycle(t *testing.T, f *fixture) {
	ctx := t.Context()
	created, err := f.svc.CreateChannel(ctx, f.actor("owner"), chat.CreateChannelParams{Name: "Verona", Subscribers: []users.ID{f.ids["member"], f.ids["admin"]}})
	mustDo(t, "CreateChannel", err)
	c := created.ID
	mustSendToChannel(t, f, "admin", c, "", "one")
	mustSendToChannel(t, f, "admin", c, "", "two")
	mustDo(t, "UpdateUserTopic", errOf(f.svc.UpdateUserTopic(ctx, f.actor("member"), chat.UpdateUserTopicParams{StreamID: c, Topic: "", VisibilityPolicy: topics.PolicyMuted})))
	mustDo(t, "DeleteTopic", errOf(f.svc.DeleteTopic(ctx, f.actor("admin"), chat.DeleteTopicParams{StreamID: c, TopicName: "general chat"})))
}
