package conversations

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// GetStreamsParams are the parameters of GET /streams. Nil flags take their defaults.
type GetStreamsParams struct {
	IncludePublic           *bool // default true
	IncludeWebPublic        *bool // default false
	IncludeSubscribed       *bool // default true
	ExcludeArchived         *bool // default true
	IncludeAll              *bool // default false (also include_all_active)
	IncludeDefault          *bool // default false
	IncludeOwnerSubscribed  *bool // default false
	IncludeCanAccessContent *bool // default false
}

// GetStreamsResult lists channels by name.
type GetStreamsResult struct {
	Streams []ChannelRecord `json:"streams"`
}

func flag(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// GetStreams lists the channels the actor asks for among those it may see.
func (s *Service) GetStreams(ctx context.Context, actor engine.Actor, p GetStreamsParams) (GetStreamsResult, error) {
	res := GetStreamsResult{Streams: []ChannelRecord{}}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		me, w := o.Me, o.World()
		w.PreloadUser(me.ID)
		var owner users.User
		if me.IsBot() && me.BotOwnerID != 0 {
			owner = w.User(me.BotOwnerID)
		}
		guest := me.Role == users.RoleGuest
		for _, c := range w.AllChannels() {
			if c.IsArchived && flag(p.ExcludeArchived, true) || !w.Metadata(c, me) {
				continue
			}
			v := w.Viewer(c.ID, me)
			want := flag(p.IncludeAll, false) ||
				flag(p.IncludePublic, true) && !guest && !c.InviteOnly ||
				flag(p.IncludeWebPublic, false) && c.IsWebPublic ||
				flag(p.IncludeSubscribed, true) && v.Subscribed ||
				flag(p.IncludeCanAccessContent, false) && channels.HasContentAccess(w.Membership(), c, v) ||
				flag(p.IncludeOwnerSubscribed, false) && owner.ID != 0 && w.IsSubscribed(c.ID, owner.ID)
			if !want {
				continue
			}
			rec := channelRecord(w, c)
			if flag(p.IncludeDefault, false) {
				rec.IsDefault = ptr(c.IsDefault)
			}
			res.Streams = append(res.Streams, rec)
		}
		slices.SortFunc(res.Streams, func(a, b ChannelRecord) int { return strings.Compare(a.Name, b.Name) })
		return nil
	})
	return res, err
}

// ChannelsState is register's channel sections; each is present when its kind is fetched:
// subscriptions, unsubscribed and never_subscribed ("subscription"), streams ("stream"),
// realm_default_streams ("default_streams"), channel_folders ("channel_folders"), and the
// channel-folder limits with the realm section.
type ChannelsState struct {
	Subscriptions                     *[]SubscriptionRecord  `json:"subscriptions,omitempty"`
	Unsubscribed                      *[]SubscriptionRecord  `json:"unsubscribed,omitempty"`
	NeverSubscribed                   *[]ChannelRecord       `json:"never_subscribed,omitempty"`
	Streams                           *[]ChannelRecord       `json:"streams,omitempty"`
	RealmDefaultStreams               *[]channels.ID         `json:"realm_default_streams,omitempty"`
	ChannelFolders                    *[]ChannelFolderRecord `json:"channel_folders,omitempty"`
	MaxChannelFolderNameLength        *int                   `json:"max_channel_folder_name_length,omitempty"`
	MaxChannelFolderDescriptionLength *int                   `json:"max_channel_folder_description_length,omitempty"`
}

// streamsState lists the channels viewer may see (web-public only for spectators); archived
// ones only for clients with the archived_channels capability.
func streamsState(w *world.World, viewer users.User, archived bool) []ChannelRecord {
	out := make([]ChannelRecord, 0, len(w.AllChannels()))
	for c := range w.ChannelsByName() {
		if c.IsArchived && !archived {
			continue
		}
		if viewer.ID == 0 && !c.IsWebPublic || viewer.ID != 0 && !w.Metadata(*c, viewer) {
			continue
		}
		out = append(out, ChannelRecord{})
		fillChannelRecord(w, &out[len(out)-1], c)
	}
	return out
}

// ChannelsInitialState is register's channel sections (nil when p fetches none).
// viewerRows holds the viewer's subscription rows once getWorld has run.
func ChannelsInitialState(tx storage.ReadTx, getWorld func() (*world.World, error), viewerRows *[]channels.Subscription, viewer users.User, p clients.Register, now time.Time) (*ChannelsState, error) {
	st := &ChannelsState{}
	if p.Fetches("realm") {
		st.MaxChannelFolderNameLength = ptr(channels.MaxFolderNameLength)
		st.MaxChannelFolderDescriptionLength = ptr(channels.MaxFolderDescriptionLength)
	}
	if p.Fetches("channel_folders") {
		recs, err := folderRecords(tx.ChannelFolders(), true)
		if err != nil {
			return nil, err
		}
		st.ChannelFolders = &recs
	}
	wantSubs, wantStreams, wantDefaults := p.Fetches("subscription"), p.Fetches("stream"), p.Fetches("default_streams")
	if wantSubs || wantStreams || wantDefaults {
		w, err := getWorld()
		if err != nil {
			return nil, err
		}
		// streams first: the subscription sections copy its records of the same channels.
		var built map[channels.ID]*ChannelRecord
		if wantStreams {
			l := streamsState(w, viewer, p.ClientCapabilities.ArchivedChannels)
			st.Streams = &l
			built = make(map[channels.ID]*ChannelRecord, len(l))
			for i := range l {
				built[l[i].StreamID] = &l[i]
			}
		}
		if wantSubs {
			var sub *SubscriptionState
			if viewer.ID == 0 {
				sub = &SubscriptionState{Subscriptions: []SubscriptionRecord{}, Unsubscribed: []SubscriptionRecord{}, NeverSubscribed: streamsState(w, viewer, false)}
			} else {
				sub = subscriptionState(w, viewer, *viewerRows, subscriptionsView{include: p.IncludeSubscribers, archived: p.ClientCapabilities.ArchivedChannels, recent: newRecentUsers(tx, now), built: built})
				if !p.ClientCapabilities.NotificationSettingsNull {
					for i := range sub.Subscriptions {
						resolveNotificationDefaults(&sub.Subscriptions[i])
					}
					for i := range sub.Unsubscribed {
						resolveNotificationDefaults(&sub.Unsubscribed[i])
					}
				}
			}
			st.Subscriptions, st.Unsubscribed, st.NeverSubscribed = &sub.Subscriptions, &sub.Unsubscribed, &sub.NeverSubscribed
		}
		if wantDefaults {
			ids := defaultStreamIDs(w)
			st.RealmDefaultStreams = &ids
		}
	}
	if *st == (ChannelsState{}) {
		return nil, nil
	}
	return st, nil
}

// GetStreamByIDParams are the parameters of GET /streams/{stream_id}.
type GetStreamByIDParams struct{ StreamID channels.ID }

// GetStreamByIDResult holds one channel.
type GetStreamByIDResult struct {
	Stream ChannelRecord `json:"stream"`
}

// GetStreamByID returns a channel the actor may see ("Invalid channel ID" otherwise).
func (s *Service) GetStreamByID(ctx context.Context, actor engine.Actor, p GetStreamByIDParams) (GetStreamByIDResult, error) {
	var res GetStreamByIDResult
	err := s.viewChannels(ctx, actor, func(w *world.World, me users.User) error {
		c, err := engine.ChannelRef(w, me, p.StreamID)
		if err != nil {
			return err
		}
		res.Stream = channelRecord(w, c)
		return nil
	})
	return res, err
}

// GetStreamIDParams are the parameters of GET /get_stream_id.
type GetStreamIDParams struct{ Stream string }

// GetStreamIDResult holds a channel id.
type GetStreamIDResult struct {
	StreamID channels.ID `json:"stream_id"`
}

// GetStreamID finds a channel by name, case-insensitively.
func (s *Service) GetStreamID(ctx context.Context, actor engine.Actor, p GetStreamIDParams) (GetStreamIDResult, error) {
	var res GetStreamIDResult
	err := s.viewChannels(ctx, actor, func(w *world.World, me users.User) error {
		c, ok := w.ChannelByName(p.Stream)
		if !ok || !w.Metadata(c, me) {
			return engine.BadRequest("Invalid channel name '%s'", p.Stream)
		}
		res.StreamID = c.ID
		return nil
	})
	return res, err
}

// GetSubscribersParams are the parameters of GET /streams/{stream_id}/members.
type GetSubscribersParams struct{ StreamID channels.ID }

// GetSubscribersResult lists subscriber ids, ascending.
type GetSubscribersResult struct {
	Subscribers []users.ID `json:"subscribers"`
}

// GetSubscribers lists the subscribers of a channel the actor may see the subscribers of.
func (s *Service) GetSubscribers(ctx context.Context, actor engine.Actor, p GetSubscribersParams) (GetSubscribersResult, error) {
	var res GetSubscribersResult
	err := s.viewChannels(ctx, actor, func(w *world.World, me users.User) error {
		c, err := engine.ChannelRef(w, me, p.StreamID)
		if err != nil {
			return err
		}
		if !w.CanSeeSubscribers(c, me) {
			return engine.BadRequest("Invalid channel ID")
		}
		res.Subscribers = *subscriberList(w, c, me)
		return nil
	})
	return res, err
}

// GetSubscriptionStatusParams are the parameters of GET
// /users/{user_id}/subscriptions/{stream_id}.
type GetSubscriptionStatusParams struct {
	UserID   users.ID
	StreamID channels.ID
}

// GetSubscriptionStatusResult says whether the user is subscribed.
type GetSubscriptionStatusResult struct {
	IsSubscribed bool `json:"is_subscribed"`
}

// GetSubscriptionStatus reports whether a user is subscribed to a channel.
func (s *Service) GetSubscriptionStatus(ctx context.Context, actor engine.Actor, p GetSubscriptionStatusParams) (GetSubscriptionStatusResult, error) {
	var res GetSubscriptionStatusResult
	err := s.viewChannels(ctx, actor, func(w *world.World, me users.User) error {
		if _, ok := w.Lookup(p.UserID); !ok {
			return engine.BadRequest("No such user")
		}
		c, err := engine.ChannelRef(w, me, p.StreamID)
		if err != nil {
			return err
		}
		if !w.CanSeeSubscribers(c, me) {
			return engine.BadRequest("Invalid channel ID")
		}
		res.IsSubscribed = w.IsSubscribed(c.ID, p.UserID)
		return nil
	})
	return res, err
}

// viewChannels runs fn over the world of a read-only transaction for the acting user.
func (s *Service) viewChannels(ctx context.Context, actor engine.Actor, fn func(w *world.World, me users.User) error) error {
	return s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		me, w := o.Me, o.World()
		return fn(w, me)
	})
}
