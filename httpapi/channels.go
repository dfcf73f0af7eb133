package httpapi

import (
	"encoding/json"
	"strings"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// principals decodes a JSON list of user ids or of emails (one form per list); nil when
// absent.
func principals(p *params, name string) (chat.Principals, error) {
	raw, err := jsonParam[json.RawMessage](p, name, false)
	if err != nil || raw == nil {
		return chat.Principals{}, err
	}
	var ids []users.ID
	if err := json.Unmarshal(*raw, &ids); err == nil {
		return chat.Principals{IDs: ids}, nil
	}
	var emails []string
	if err := json.Unmarshal(*raw, &emails); err == nil {
		return chat.Principals{Emails: emails}, nil
	}
	return chat.Principals{}, chat.InvalidArgument(name, "must be a list of user ids or a list of emails")
}

// newChannelSettings decodes the creation settings shared by subscribe and create.
func newChannelSettings(p *params) (chat.NewChannelSettings, error) {
	var (
		st  chat.NewChannelSettings
		err error
	)
	if st.InviteOnly, err = p.boolOr("invite_only", false); err != nil {
		return st, err
	}
	if st.IsWebPublic, err = p.boolOr("is_web_public", false); err != nil {
		return st, err
	}
	if st.IsDefaultStream, err = p.boolOr("is_default_stream", false); err != nil {
		return st, err
	}
	if st.DefaultPushNotifications, err = p.boolOr("default_push_notifications", false); err != nil {
		return st, err
	}
	if st.HistoryPublicToSubscribers, err = p.boolean("history_public_to_subscribers"); err != nil {
		return st, err
	}
	if raw, ok := p.str("message_retention_days"); ok {
		st.MessageRetentionDays = &raw
	}
	if raw, ok := p.str("topics_policy"); ok {
		v := strings.Trim(strings.TrimSpace(raw), `"`)
		st.TopicsPolicy = &v
	}
	if id, err := p.integer("folder_id"); err != nil {
		return st, err
	} else if id != nil {
		f := channels.FolderID(*id)
		st.FolderID = &f
	}
	for _, name := range channels.SettingNames() {
		v, err := jsonParam[users.GroupSetting](p, name, true)
		if err != nil {
			return st, err
		}
		if v != nil {
			if st.GroupSettings == nil {
				st.GroupSettings = map[string]users.GroupSetting{}
			}
			st.GroupSettings[name] = *v
		}
	}
	return st, nil
}

// subscribe serves POST /users/me/subscriptions.
func (h *Handler) subscribe(r *request) (any, error) {
	var (
		sp  chat.SubscribeParams
		err error
	)
	if sp.Subscriptions, err = requiredJSON[[]chat.SubscriptionRequest](r.params, "subscriptions", true); err != nil {
		return nil, err
	}
	if sp.Principals, err = principals(r.params, "principals"); err != nil {
		return nil, err
	}
	if sp.AuthorizationErrorsFatal, err = r.params.boolean("authorization_errors_fatal"); err != nil {
		return nil, err
	}
	if sp.Announce, err = r.params.boolOr("announce", false); err != nil {
		return nil, err
	}
	if sp.SendNewSubscriptionMessages, err = r.params.boolean("send_new_subscription_messages"); err != nil {
		return nil, err
	}
	if sp.NewChannelSettings, err = newChannelSettings(r.params); err != nil {
		return nil, err
	}
	return h.svc.Subscribe(r.ctx, r.actor, sp)
}

// createChannel serves POST /channels/create.
func (h *Handler) createChannel(r *request) (any, error) {
	var (
		cp  chat.CreateChannelParams
		err error
	)
	if cp.Name, err = r.params.requiredStr("name"); err != nil {
		return nil, err
	}
	cp.Description, _ = r.params.str("description")
	if cp.Subscribers, err = requiredJSON[[]users.ID](r.params, "subscribers", false); err != nil {
		return nil, err
	}
	if cp.Announce, err = r.params.boolOr("announce", false); err != nil {
		return nil, err
	}
	if cp.SendNewSubscriptionMessages, err = r.params.boolean("send_new_subscription_messages"); err != nil {
		return nil, err
	}
	if cp.NewChannelSettings, err = newChannelSettings(r.params); err != nil {
		return nil, err
	}
	return h.svc.CreateChannel(r.ctx, r.actor, cp)
}

// includeSubscribers reads include_subscribers: true, false or partial (raw text, JSON
// quotes tolerated).
func includeSubscribers(p *params) string {
	v, _ := p.str("include_subscribers")
	return strings.Trim(strings.TrimSpace(v), `"`)
}

// getSubscriptions serves GET /users/me/subscriptions.
func (h *Handler) getSubscriptions(r *request) (any, error) {
	return h.svc.GetSubscriptions(r.ctx, r.actor, chat.GetSubscriptionsParams{IncludeSubscribers: includeSubscribers(r.params)})
}

// getStreams serves GET /streams.
func (h *Handler) getStreams(r *request) (any, error) {
	var gp chat.GetStreamsParams
	for _, f := range []struct {
		name string
		dst  **bool
	}{
		{"include_public", &gp.IncludePublic},
		{"include_web_public", &gp.IncludeWebPublic},
		{"include_subscribed", &gp.IncludeSubscribed},
		{"exclude_archived", &gp.ExcludeArchived},
		{"include_all_active", &gp.IncludeAll},
		{"include_all", &gp.IncludeAll},
		{"include_default", &gp.IncludeDefault},
		{"include_owner_subscribed", &gp.IncludeOwnerSubscribed},
		{"include_can_access_content", &gp.IncludeCanAccessContent},
	} {
		v, err := r.params.boolean(f.name)
		if err != nil {
			return nil, err
		}
		if v != nil {
			*f.dst = v
		}
	}
	return h.svc.GetStreams(r.ctx, r.actor, gp)
}

// updateSubscriptionSettings serves POST /users/me/subscriptions/properties.
func (h *Handler) updateSubscriptionSettings(r *request) (any, error) {
	data, err := requiredJSON[[]chat.SubscriptionPropertyChange](r.params, "subscription_data", true)
	if err != nil {
		return nil, err
	}
	return h.svc.UpdateSubscriptionSettings(r.ctx, r.actor, chat.UpdateSubscriptionSettingsParams{SubscriptionData: data})
}

// updateSubscriptionProperty serves the legacy POST /users/me/subscriptions/{stream_id}.
func (h *Handler) updateSubscriptionProperty(r *request) (any, error) {
	prop, err := r.params.requiredStr("property")
	if err != nil {
		return nil, err
	}
	value, err := requiredJSON[any](r.params, "value", false)
	if err != nil {
		return nil, err
	}
	return h.svc.UpdateSubscriptionSettings(r.ctx, r.actor, chat.UpdateSubscriptionSettingsParams{
		SubscriptionData: []chat.SubscriptionPropertyChange{{StreamID: pathID[channels.ID](r, "stream_id"), Property: prop, Value: value}},
	})
}

// unsubscribe serves DELETE /users/me/subscriptions.
func (h *Handler) unsubscribe(r *request) (any, error) {
	var (
		up  chat.UnsubscribeParams
		err error
	)
	if up.Subscriptions, err = requiredJSON[[]string](r.params, "subscriptions", false); err != nil {
		return nil, err
	}
	if up.Principals, err = principals(r.params, "principals"); err != nil {
		return nil, err
	}
	return h.svc.Unsubscribe(r.ctx, r.actor, up)
}

// updateSubscriptions serves the legacy PATCH /users/me/subscriptions (add and delete lists).
func (h *Handler) updateSubscriptions(r *request) (any, error) {
	add, err := jsonParam[[]chat.SubscriptionRequest](r.params, "add", true)
	if err != nil {
		return nil, err
	}
	del, err := jsonParam[[]string](r.params, "delete", false)
	if err != nil {
		return nil, err
	}
	var up chat.UpdateSubscriptionsParams
	if add != nil {
		up.Add = *add
	}
	if del != nil {
		up.Delete = *del
	}
	return h.svc.UpdateSubscriptions(r.ctx, r.actor, up)
}

func (h *Handler) getStreamByID(r *request) (any, error) {
	return h.svc.GetStreamByID(r.ctx, r.actor, chat.GetStreamByIDParams{StreamID: pathID[channels.ID](r, "stream_id")})
}

func (h *Handler) getStreamID(r *request) (any, error) {
	name, err := r.params.requiredStr("stream")
	if err != nil {
		return nil, err
	}
	return h.svc.GetStreamID(r.ctx, r.actor, chat.GetStreamIDParams{Stream: name})
}

func (h *Handler) getSubscribers(r *request) (any, error) {
	return h.svc.GetSubscribers(r.ctx, r.actor, chat.GetSubscribersParams{StreamID: pathID[channels.ID](r, "stream_id")})
}

func (h *Handler) getSubscriptionStatus(r *request) (any, error) {
	return h.svc.GetSubscriptionStatus(r.ctx, r.actor, chat.GetSubscriptionStatusParams{UserID: pathID[users.ID](r, "user_id"), StreamID: pathID[channels.ID](r, "stream_id")})
}

// updateStream serves PATCH /streams/{stream_id}.
func (h *Handler) updateStream(r *request) (any, error) {
	up := chat.UpdateStreamParams{StreamID: pathID[channels.ID](r, "stream_id")}
	var err error
	up.NewName = r.params.optStr("new_name")
	up.Description = r.params.optStr("description")
	for _, f := range []struct {
		name string
		dst  **bool
	}{
		{"is_private", &up.IsPrivate}, {"is_web_public", &up.IsWebPublic},
		{"history_public_to_subscribers", &up.HistoryPublicToSubscribers},
		{"is_default_stream", &up.IsDefaultStream}, {"is_archived", &up.IsArchived},
		{"default_push_notifications", &up.DefaultPushNotifications},
	} {
		if *f.dst, err = r.params.boolean(f.name); err != nil {
			return nil, err
		}
	}
	if raw, ok := r.params.str("message_retention_days"); ok {
		up.MessageRetentionDays = &raw
	}
	if raw, ok := r.params.str("topics_policy"); ok {
		v := strings.Trim(strings.TrimSpace(raw), `"`)
		up.TopicsPolicy = &v
	}
	if raw, ok := r.params.str("folder_id"); ok {
		var id *int64
		if err := json.Unmarshal([]byte(raw), &id); err != nil {
			return nil, chat.InvalidArgument("folder_id", "")
		}
		f := channels.FolderID(0)
		if id != nil {
			f = channels.FolderID(*id)
		}
		up.FolderID = &f
	}
	if up.GroupSettings, err = groupSettingChanges(r.params, channels.SettingNames()); err != nil {
		return nil, err
	}
	return h.svc.UpdateStream(r.ctx, r.actor, up)
}

func (h *Handler) archiveStream(r *request) (any, error) {
	return h.svc.ArchiveStream(r.ctx, r.actor, chat.ArchiveStreamParams{StreamID: pathID[channels.ID](r, "stream_id")})
}

func (h *Handler) addDefaultStream(r *request) (any, error) {
	id, err := r.params.requiredInt("stream_id")
	if err != nil {
		return nil, err
	}
	return h.svc.AddDefaultStream(r.ctx, r.actor, chat.DefaultStreamParams{StreamID: channels.ID(id)})
}

func (h *Handler) removeDefaultStream(r *request) (any, error) {
	id, err := r.params.requiredInt("stream_id")
	if err != nil {
		return nil, err
	}
	return h.svc.RemoveDefaultStream(r.ctx, r.actor, chat.DefaultStreamParams{StreamID: channels.ID(id)})
}

func (h *Handler) createChannelFolder(r *request) (any, error) {
	name, err := r.params.requiredStr("name")
	if err != nil {
		return nil, err
	}
	desc, _ := r.params.str("description")
	return h.svc.CreateChannelFolder(r.ctx, r.actor, chat.CreateChannelFolderParams{Name: name, Description: desc})
}

func (h *Handler) getChannelFolders(r *request) (any, error) {
	archived, err := r.params.boolOr("include_archived", false)
	if err != nil {
		return nil, err
	}
	return h.svc.GetChannelFolders(r.ctx, r.actor, chat.GetChannelFoldersParams{IncludeArchived: archived})
}

func (h *Handler) updateChannelFolder(r *request) (any, error) {
	up := chat.UpdateChannelFolderParams{ChannelFolderID: pathID[channels.FolderID](r, "channel_folder_id"), Name: r.params.optStr("name"), Description: r.params.optStr("description")}
	var err error
	if up.IsArchived, err = r.params.boolean("is_archived"); err != nil {
		return nil, err
	}
	return h.svc.UpdateChannelFolder(r.ctx, r.actor, up)
}

// patchChannelFolders serves PATCH /channel_folders (reordering).
func (h *Handler) patchChannelFolders(r *request) (any, error) {
	order, err := requiredJSON[[]channels.FolderID](r.params, "order", true)
	if err != nil {
		return nil, err
	}
	return h.svc.PatchChannelFolders(r.ctx, r.actor, chat.PatchChannelFoldersParams{Order: order})
}
