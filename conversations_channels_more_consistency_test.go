package chat_test

import (
	"slices"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// channelsMoreConsistencyCases cover the channel operations beyond subscribe and create.
// general is a public channel of the owner; secret a private one of the admin with the
// member and the guest subscribed.
func channelsMoreConsistencyCases(general, secret func(*testing.T, *fixture)) []consistencyCase {
	id := func(t *testing.T, f *fixture, name string) channels.ID { return f.mustChannel(t, name).ID }
	both := func(t *testing.T, f *fixture) {
		general(t, f)
		secret(t, f)
		mustDo(t, "Subscribe", errOf(f.svc.Subscribe(t.Context(), f.actor("owner"), chat.SubscribeParams{
			Subscriptions: subs("general"), Principals: chat.Principals{IDs: []users.ID{f.ids["member"], f.ids["guest"], f.ids["bot"]}},
		})))
	}
	folder := func(t *testing.T, f *fixture) {
		both(t, f)
		mustDo(t, "CreateChannelFolder", errOf(f.svc.CreateChannelFolder(t.Context(), f.actor("admin"), chat.CreateChannelFolderParams{Name: "Work"})))
	}
	defaults := func(t *testing.T, f *fixture) {
		both(t, f)
		mustDo(t, "AddDefaultStream", errOf(f.svc.AddDefaultStream(t.Context(), f.actor("admin"), chat.DefaultStreamParams{StreamID: id(t, f, "general")})))
		f.setUser(t, "admin", func(u *users.User) { u.CanCreateUsers = true })
	}
	return []consistencyCase{
		{method: "ProvisionUser", name: "a human joins the default channels, a bot does not", setup: defaults, run: func(t *testing.T, f *fixture) {
			mustProvision(t, f, chat.ProvisionUserParams{Email: "fresh@example.com", FullName: "Fresh Face"})
			mustProvision(t, f, chat.ProvisionUserParams{Email: "fresh-bot@example.com", FullName: "Fresh Bot", BotType: users.BotGeneric, BotOwnerID: f.ids["member"]})
		}},
		{method: "CreateUser", name: "joins the default channels", setup: defaults, run: func(t *testing.T, f *fixture) {
			mustDo(t, "CreateUser", errOf(f.svc.CreateUser(t.Context(), f.actor("admin"), chat.CreateUserParams{Email: "made@example.com", Password: "long enough", FullName: "Made User"})))
		}},
		{method: "UpdateSubscriptionSettings", name: "mute, colour, notifications", setup: both, run: func(t *testing.T, f *fixture) {
			for _, who := range []string{"member", "guest"} {
				mustDo(t, "UpdateSubscriptionSettings", errOf(f.svc.UpdateSubscriptionSettings(t.Context(), f.actor(who), chat.UpdateSubscriptionSettingsParams{SubscriptionData: []chat.SubscriptionPropertyChange{
					{StreamID: id(t, f, "general"), Property: "in_home_view", Value: false},
					{StreamID: id(t, f, "secret"), Property: "color", Value: "#123456"},
					{StreamID: id(t, f, "secret"), Property: "push_notifications", Value: true},
					{StreamID: id(t, f, "general"), Property: "pin_to_top", Value: true},
				}})))
			}
		}},
		{method: "Unsubscribe", name: "self from public and private", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "Unsubscribe", errOf(f.svc.Unsubscribe(t.Context(), f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"general", "secret"}})))
		}},
		{method: "Unsubscribe", name: "others by an administrator", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "Unsubscribe", errOf(f.svc.Unsubscribe(t.Context(), f.actor("admin"), chat.UnsubscribeParams{
				Subscriptions: []string{"secret"}, Principals: chat.Principals{IDs: []users.ID{f.ids["guest"], f.ids["member"]}},
			})))
		}},
		{method: "UpdateRealm", name: "new-channel announcements channel, then an announced channel", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor("admin"), chat.UpdateRealmParams{NewStreamAnnouncementsStreamID: ptr(int64(id(t, f, "general")))})))
			mustDo(t, "Subscribe", errOf(f.svc.Subscribe(t.Context(), f.actor("member"), chat.SubscribeParams{
				Subscriptions: subs("news", "general"), Announce: true,
				Principals: chat.Principals{IDs: []users.ID{f.ids["member"], f.ids["admin"], f.ids["guest"]}},
			})))
			mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor("owner"), chat.UpdateRealmParams{NewStreamAnnouncementsStreamID: ptr(int64(-1))})))
		}},
		{method: "UpdateSubscriptions", name: "join a new channel and leave a private one", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateSubscriptions", errOf(f.svc.UpdateSubscriptions(t.Context(), f.actor("member"), chat.UpdateSubscriptionsParams{
				Add: subs("general", "lounge"), Delete: []string{"secret"},
			})))
		}},
		{method: "UpdateStream", name: "rename, describe, restrict posting", setup: both, run: func(t *testing.T, f *fixture) {
			members := f.groups(t)[users.GroupMembers]
			mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(t.Context(), f.actor("owner"), chat.UpdateStreamParams{
				StreamID: id(t, f, "general"), NewName: ptr("town square"), Description: ptr("For **everyone**"),
				GroupSettings: map[string]chat.GroupSettingChange{"can_send_message_group": {New: ptr(users.Named(members))}},
			})))
		}},
		{method: "UpdateStream", name: "make private", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(t.Context(), f.actor("admin"), chat.UpdateStreamParams{StreamID: id(t, f, "general"), IsPrivate: ptr(true)})))
		}},
		{method: "UpdateStream", name: "make public", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(t.Context(), f.actor("admin"), chat.UpdateStreamParams{StreamID: id(t, f, "secret"), IsPrivate: ptr(false)})))
		}},
		{method: "UpdateStream", name: "default, folder, retention, topics policy", setup: folder, run: func(t *testing.T, f *fixture) {
			fid := channels.FolderID(1)
			mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(t.Context(), f.actor("owner"), chat.UpdateStreamParams{
				StreamID: id(t, f, "general"), IsDefaultStream: ptr(true), FolderID: &fid,
				MessageRetentionDays: ptr("30"), TopicsPolicy: ptr("disable_empty_topic"),
			})))
		}},
		{method: "UpdateStream", name: "default_push_notifications", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(t.Context(), f.actor("admin"), chat.UpdateStreamParams{
				StreamID: id(t, f, "secret"), DefaultPushNotifications: ptr(true),
			})))
		}},
		{method: "UpdateStream", name: "unarchive", setup: func(t *testing.T, f *fixture) {
			both(t, f)
			mustDo(t, "ArchiveStream", errOf(f.svc.ArchiveStream(t.Context(), f.actor("admin"), chat.ArchiveStreamParams{StreamID: id(t, f, "general")})))
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateStream", errOf(f.svc.UpdateStream(t.Context(), f.actor("admin"), chat.UpdateStreamParams{StreamID: id(t, f, "general"), IsArchived: ptr(false)})))
		}},
		{method: "ArchiveStream", name: "public default channel", setup: func(t *testing.T, f *fixture) {
			both(t, f)
			mustDo(t, "AddDefaultStream", errOf(f.svc.AddDefaultStream(t.Context(), f.actor("admin"), chat.DefaultStreamParams{StreamID: id(t, f, "general")})))
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "ArchiveStream", errOf(f.svc.ArchiveStream(t.Context(), f.actor("owner"), chat.ArchiveStreamParams{StreamID: id(t, f, "general")})))
		}},
		{method: "ArchiveStream", name: "private channel", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "ArchiveStream", errOf(f.svc.ArchiveStream(t.Context(), f.actor("admin"), chat.ArchiveStreamParams{StreamID: id(t, f, "secret")})))
		}},
		{method: "AddDefaultStream", name: "public channel", setup: both, run: func(t *testing.T, f *fixture) {
			mustDo(t, "AddDefaultStream", errOf(f.svc.AddDefaultStream(t.Context(), f.actor("admin"), chat.DefaultStreamParams{StreamID: id(t, f, "general")})))
		}},
		{method: "RemoveDefaultStream", name: "public channel", setup: func(t *testing.T, f *fixture) {
			both(t, f)
			mustDo(t, "AddDefaultStream", errOf(f.svc.AddDefaultStream(t.Context(), f.actor("admin"), chat.DefaultStreamParams{StreamID: id(t, f, "general")})))
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "RemoveDefaultStream", errOf(f.svc.RemoveDefaultStream(t.Context(), f.actor("admin"), chat.DefaultStreamParams{StreamID: id(t, f, "general")})))
		}},
		{method: "CreateChannelFolder", name: "with a description", run: func(t *testing.T, f *fixture) {
			mustDo(t, "CreateChannelFolder", errOf(f.svc.CreateChannelFolder(t.Context(), f.actor("admin"), chat.CreateChannelFolderParams{Name: "Work", Description: "All *work*"})))
		}},
		{method: "UpdateChannelFolder", name: "rename and describe", setup: folder, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateChannelFolder", errOf(f.svc.UpdateChannelFolder(t.Context(), f.actor("owner"), chat.UpdateChannelFolderParams{ChannelFolderID: 1, Name: ptr("Jobs"), Description: ptr("**Paid**")})))
		}},
		{method: "UpdateChannelFolder", name: "archive", setup: folder, run: func(t *testing.T, f *fixture) {
			mustDo(t, "UpdateChannelFolder", errOf(f.svc.UpdateChannelFolder(t.Context(), f.actor("owner"), chat.UpdateChannelFolderParams{ChannelFolderID: 1, IsArchived: ptr(true)})))
		}},
	}
}

// applyDefaultStreams replaces the default channels.
func applyDefaultStreams(state, ev map[string]any) {
	if _, ok := state["realm_default_streams"]; ok {
		state["realm_default_streams"] = ev["default_streams"]
	}
}

// applyChannelFolder adds or updates a channel folder.
func applyChannelFolder(t *testing.T, state, ev map[string]any) {
	if _, ok := state["channel_folders"]; !ok {
		return
	}
	l := list(state, "channel_folders")
	switch ev["op"] {
	case "add":
		l = append(slices.Clone(l), clone(ev["channel_folder"].(map[string]any)))
	case "update":
		i := findByID(l, "id", num(ev["channel_folder_id"]))
		if i < 0 {
			t.Fatalf("update of an unknown folder: %v", ev)
		}
		rec := clone(l[i].(map[string]any))
		for k, v := range ev["data"].(map[string]any) {
			rec[k] = v
		}
		l[i] = rec
	case "reorder":
		l = slices.Clone(l)
		for place, id := range ev["order"].([]any) {
			if i := findByID(l, "id", num(id)); i >= 0 {
				rec := clone(l[i].(map[string]any))
				rec["order"] = float64(place)
				l[i] = rec
			}
		}
	default:
		t.Fatalf("unknown channel_folder op in %v", ev)
	}
	slices.SortStableFunc(l, func(a, b any) int {
		x, y := a.(map[string]any), b.(map[string]any)
		if d := num(x["order"]) - num(y["order"]); d != 0 {
			return int(d)
		}
		return int(num(x["id"]) - num(y["id"]))
	})
	state["channel_folders"] = l
}
