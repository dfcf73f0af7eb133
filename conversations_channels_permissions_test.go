package chat_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// TestChannelGroupSettingsEnforced checks, through the Service, that each group setting of a
// private channel with protected history grants exactly what it names, to the user it names,
// and that every refusal changes nothing.
func TestChannelGroupSettingsEnforced(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	grant := func(f *fixture, setting string, who ...string) map[string]users.GroupSetting {
		s := users.GroupSetting{Members: []users.ID{}, Subgroups: []users.GroupID{}}
		for _, w := range who {
			s.Members = append(s.Members, f.ids[w])
		}
		return map[string]users.GroupSetting{setting: s}
	}
	private := func(t *testing.T, f *fixture, settings map[string]users.GroupSetting) {
		t.Helper()
		f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("vault"), NewChannelSettings: chat.NewChannelSettings{
			InviteOnly: true, HistoryPublicToSubscribers: ptr(false), GroupSettings: settings,
		}})
	}
	tests := []struct {
		name    string
		setting string
		holder  string
		// allowed is done by the holder; the same call by the bystander (a member outside the
		// group) must be refused with refusal and change nothing.
		allowed func(f *fixture, as string) error
		refusal string
	}{
		{"can_subscribe_group lets its members join", "can_subscribe_group", "member",
			func(f *fixture, as string) error {
				_, err := f.svc.Subscribe(ctx, f.actor(as), chat.SubscribeParams{Subscriptions: subs("vault")})
				return err
			}, "Unable to access channel (vault)."},
		{"can_add_subscribers_group lets its members add others without joining", "can_add_subscribers_group", "member",
			func(f *fixture, as string) error {
				_, err := f.svc.Subscribe(ctx, f.actor(as), chat.SubscribeParams{Subscriptions: subs("vault"), Principals: chat.Principals{IDs: []users.ID{f.ids["guest"]}}})
				return err
			}, "Unable to access channel (vault)."},
		{"can_administer_channel_group lets its members change the channel", "can_administer_channel_group", "member",
			func(f *fixture, as string) error {
				_, err := f.svc.UpdateStream(ctx, f.actor(as), chat.UpdateStreamParams{StreamID: f.mustChannel(t, "vault").ID, Description: ptr("new")})
				return err
			}, "Invalid channel ID"},
		{"can_administer_channel_group lets its members archive", "can_administer_channel_group", "member",
			func(f *fixture, as string) error {
				_, err := f.svc.ArchiveStream(ctx, f.actor(as), chat.ArchiveStreamParams{StreamID: f.mustChannel(t, "vault").ID})
				return err
			}, "Invalid channel ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			private(t, f, grant(f, tt.setting, tt.holder))
			// A second member, outside every group, is refused.
			other := mustProvision(t, f, chat.ProvisionUserParams{Email: "other@example.com", FullName: "Other Member"})
			f.ids["other"] = other.UserID
			before := f.channelSnapshot(t)
			err := tt.allowed(f, "other")
			wantError(t, err, chat.CodeBadRequest, 400, tt.refusal)
			if diff := cmp.Diff(before, f.channelSnapshot(t), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("refusal changed the store (-before +after):\n%s", diff)
			}
			// The guest never gains anything through a group.
			f2 := newFixture(t)
			private(t, f2, grant(f2, tt.setting, "guest"))
			before = f2.channelSnapshot(t)
			if err := tt.allowed(f2, "guest"); err == nil {
				t.Fatalf("a guest in %s was allowed", tt.setting)
			}
			if diff := cmp.Diff(before, f2.channelSnapshot(t), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("guest's refusal changed the store (-before +after):\n%s", diff)
			}
			// The holder may.
			if err := tt.allowed(f, tt.holder); err != nil {
				t.Fatalf("%s in %s: %v", tt.holder, tt.setting, err)
			}
		})
	}
}

// TestRemoveSubscribersGroup: moderators named in can_remove_subscribers_group may remove
// others from a public channel; members may not.
func TestRemoveSubscribersGroup(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	mod := mustProvision(t, f, chat.ProvisionUserParams{Email: "mod@example.com", FullName: "Mod", Role: users.RoleModerator})
	f.ids["mod"] = mod.UserID
	groups := f.groups(t)
	f.mustSubscribe(t, "owner", chat.SubscribeParams{Subscriptions: subs("town"), Principals: chat.Principals{IDs: []users.ID{f.ids["owner"], f.ids["member"], f.ids["guest"]}},
		NewChannelSettings: chat.NewChannelSettings{GroupSettings: map[string]users.GroupSetting{"can_remove_subscribers_group": users.Named(groups[users.GroupModerators])}}})
	before := f.channelSnapshot(t)
	_, err := f.svc.Unsubscribe(ctx, f.actor("member"), chat.UnsubscribeParams{Subscriptions: []string{"town"}, Principals: chat.Principals{IDs: []users.ID{f.ids["guest"]}}})
	wantError(t, err, chat.CodeBadRequest, 400, "Insufficient permission")
	if diff := cmp.Diff(before, f.channelSnapshot(t)); diff != "" {
		t.Fatalf("refusal changed the store (-before +after):\n%s", diff)
	}
	res, err := f.svc.Unsubscribe(ctx, f.actor("mod"), chat.UnsubscribeParams{Subscriptions: []string{"town"}, Principals: chat.Principals{IDs: []users.ID{f.ids["guest"]}}})
	if err != nil || !cmp.Equal(res.Removed, []string{"town"}) {
		t.Fatalf("moderator: %+v, %v", res, err)
	}
}

// TestProtectedHistoryGuest: a guest subscribed to a private channel with protected history
// sees it and its subscribers; an unsubscribed guest learns nothing of it.
func TestProtectedHistoryGuest(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	f := newFixture(t)
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("closed"), NewChannelSettings: chat.NewChannelSettings{InviteOnly: true}})
	c := f.mustChannel(t, "closed")
	if c.HistoryPublicToSubscribers {
		t.Fatal("a private channel's history defaults to protected")
	}
	_, err := f.svc.GetSubscribers(ctx, f.actor("guest"), chat.GetSubscribersParams{StreamID: c.ID})
	wantError(t, err, chat.CodeBadRequest, 400, "Invalid channel ID")
	f.mustSubscribe(t, "admin", chat.SubscribeParams{Subscriptions: subs("closed"), Principals: chat.Principals{IDs: []users.ID{f.ids["guest"]}}})
	got, err := f.svc.GetSubscribers(ctx, f.actor("guest"), chat.GetSubscribersParams{StreamID: c.ID})
	if err != nil || !cmp.Equal(got.Subscribers, []users.ID{f.ids["admin"], f.ids["guest"]}) {
		t.Fatalf("guest's view of the subscribers: %v, %v", got, err)
	}
}
