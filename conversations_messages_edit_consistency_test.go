package chat_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// editWorld is what the message-edit cases start from: a public channel (member, admin,
// guest, bot), a private one (member, admin), a second public one (member, owner) and a topic
// "party" of three messages, one mentioning the member, plus a direct message.
type editWorld struct {
	public, private, other channels.ID
	party                  []messages.ID
	direct                 messages.ID
}

func seedEditWorld(t *testing.T, f *fixture) editWorld {
	t.Helper()
	var w editWorld
	w.public = mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "member", "admin", "guest", "bot")
	w.private = mustChannel(t, f, "secret", chat.NewChannelSettings{InviteOnly: true}, "member", "admin")
	w.other = mustChannel(t, f, "Denmark", chat.NewChannelSettings{}, "member", "owner")
	w.party = []messages.ID{
		mustSendToChannel(t, f, "admin", w.public, "party", "first @**Mia Member**"),
		mustSendToChannel(t, f, "member", w.public, "party", "second"),
		mustSendToChannel(t, f, "admin", w.public, "party", "third"),
	}
	mustSendToChannel(t, f, "member", w.other, "news", "elsewhere")
	w.direct = mustSendDirect(t, f, "admin", "hello", "member")
	return w
}

// syncMap is a map shared by parallel cases.
type syncMap[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func (s *syncMap[K, V]) Store(k K, v V) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[K]V{}
	}
	s.m[k] = v
}

func (s *syncMap[K, V]) Load(k K) V {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[k]
}

// mustEdit runs UpdateMessage as who.
func mustEdit(t *testing.T, f *fixture, who string, p chat.UpdateMessageParams) {
	t.Helper()
	if _, err := f.svc.UpdateMessage(t.Context(), f.actor(who), p); err != nil {
		t.Fatalf("UpdateMessage(%s, %+v): %v", who, p, err)
	}
}

// messageEditConsistencyCases are the consistency cases of editing and moving messages.
func messageEditConsistencyCases() []consistencyCase {
	worlds := &syncMap[*fixture, editWorld]{}
	seed := func(t *testing.T, f *fixture) { worlds.Store(f, seedEditWorld(t, f)) }
	return []consistencyCase{
		{method: "UpdateMessage", name: "content of a channel message drops a mention", setup: seed, run: func(t *testing.T, f *fixture) {
			w := worlds.Load(f)
			mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("first, no mention")})
		}},
		{method: "UpdateMessage", name: "content of a direct message adds a mention", setup: seed, run: func(t *testing.T, f *fixture) {
			w := worlds.Load(f)
			mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.direct, Content: ptr("hello @**Mia Member**")})
		}},
		{method: "UpdateMessage", name: "rename a muted topic, change_all", setup: func(t *testing.T, f *fixture) {
			seed(t, f)
			w := worlds.Load(f)
			mustDo(t, "UpdateUserTopic", errOf(f.svc.UpdateUserTopic(t.Context(), f.actor("member"), chat.UpdateUserTopicParams{StreamID: w.public, Topic: "party", VisibilityPolicy: topics.PolicyMuted})))
		}, run: func(t *testing.T, f *fixture) {
			w := worlds.Load(f)
			mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: w.party[1], Topic: ptr("celebration"), PropagateMode: "change_all"})
		}},
		{method: "UpdateMessage", name: "resolve a topic, then move the later part to the empty topic", setup: seed, run: func(t *testing.T, f *fixture) {
			w := worlds.Load(f)
			mustEdit(t, f, "guest", chat.UpdateMessageParams{MessageID: w.party[0], Topic: ptr(messages.ResolvedPrefix + "party"), PropagateMode: "change_all"})
			mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[1], Topic: ptr(""), PropagateMode: "change_later"})
		}},
		{method: "UpdateMessage", name: "move a topic to a private channel: guest and bot lose it", setup: seed, run: func(t *testing.T, f *fixture) {
			w := worlds.Load(f)
			mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[2], StreamID: &w.private, PropagateMode: "change_all"})
		}},
		{method: "UpdateRealm", name: "message editing settings", run: func(t *testing.T, f *fixture) {
			admins := users.Named(f.groupIDs(t)[users.GroupAdministrators])
			mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor("admin"), chat.UpdateRealmParams{
				RealmEditingParams: chat.RealmEditingParams{
					AllowMessageEditing: ptr(false), MessageContentEditLimitSeconds: ptr(`"unlimited"`),
					MoveMessagesWithinStreamLimitSeconds: ptr("3600"), MessageEditHistoryVisibilityPolicy: ptr("none"),
				},
				GroupSettings: map[string]chat.GroupSettingChange{"can_resolve_topics_group": {New: &admins}},
			})))
		}},
		{method: "UpdateMessage", name: "move one message to another public channel and topic", setup: seed, run: func(t *testing.T, f *fixture) {
			w := worlds.Load(f)
			mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], StreamID: &w.other, Topic: ptr("news")})
		}},
	}
}

// applyUpdateMessage applies an update_message event to unread_msgs: moved unread messages
// change channel and topic (and leave unread_msgs for a channel the user is not subscribed
// to), and the edited message's mention follows its new flags.
func applyUpdateMessage(t *testing.T, state, ev map[string]any, self users.ID) {
	u, ok := state["unread_msgs"].(map[string]any)
	if !ok {
		return
	}
	flags := stringsOf(ev["flags"])
	mentioned := slices.ContainsFunc(flags, func(f string) bool { return strings.Contains(f, "mentioned") })
	id := num(ev["message_id"])
	if slices.ContainsFunc(list(u, "mentions"), func(x any) bool { return num(x) == id }) != mentioned && isUnread(u, id) {
		if mentioned {
			u["mentions"] = sortedNums(append(list(u, "mentions"), id))
		} else {
			u["mentions"] = slices.DeleteFunc(slices.Clone(list(u, "mentions")), func(x any) bool { return num(x) == id })
		}
	}
	newStream, moved := ev["new_stream_id"]
	subject, renamed := ev["subject"]
	if !moved && !renamed {
		return
	}
	var gone []any
	var readd []map[string]any
	for _, e := range list(u, "streams") {
		entry := e.(map[string]any)
		if num(entry["stream_id"]) != num(ev["stream_id"]) {
			continue
		}
		for _, x := range list(entry, "unread_message_ids") {
			if !slices.ContainsFunc(list(ev, "message_ids"), func(y any) bool { return num(y) == num(x) }) {
				continue
			}
			gone = append(gone, x)
			msg := map[string]any{"id": x, "type": "stream", "stream_id": entry["stream_id"], "subject": entry["topic"]}
			if moved {
				msg["stream_id"] = newStream
			}
			if renamed {
				msg["subject"] = subject
			}
			readd = append(readd, msg)
		}
	}
	wasMentioned := map[float64]bool{}
	for _, x := range list(u, "mentions") {
		wasMentioned[num(x)] = true
	}
	removeUnread(u, gone)
	for _, msg := range readd {
		if !subscribedIn(state, num(msg["stream_id"])) {
			continue
		}
		var f []string
		if wasMentioned[num(msg["id"])] {
			f = []string{"mentioned"}
		}
		addUnread(u, msg, f, float64(self))
	}
}

// isUnread reports whether unread_msgs lists the message.
func isUnread(u map[string]any, id float64) bool {
	for _, key := range []string{"streams", "pms", "huddles"} {
		for _, e := range list(u, key) {
			if slices.ContainsFunc(list(e.(map[string]any), "unread_message_ids"), func(x any) bool { return num(x) == id }) {
				return true
			}
		}
	}
	return false
}

// goldenMessageEdit: the viewer (member) sees a content edit and a topic move of a channel
// message, the second to the empty topic.
func goldenMessageEdit(t *testing.T, f *fixture) {
	w := seedEditWorld(t, f)
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[0], Content: ptr("first, *edited*")})
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: w.party[1], Topic: ptr(""), PropagateMode: "change_later", SendNotificationToOldThread: ptr(true)})
}
