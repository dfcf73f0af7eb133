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
