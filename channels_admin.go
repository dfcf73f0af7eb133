package chat

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// GetStreamByIDParams are the parameters of GET /streams/{stream_id}.
type GetStreamByIDParams struct{ StreamID channels.ID }

// GetStreamByIDResult holds one channel.
type GetStreamByIDResult struct {
	Stream ChannelRecord `json:"stream"`
}

// GetStreamByID returns a channel the actor may see ("Invalid channel ID" otherwise).
func (s *Service) GetStreamByID(ctx context.Context, actor Actor, p GetStreamByIDParams) (GetStreamByIDResult, error) {
	var res GetStreamByIDResult
	err := s.viewChannels(ctx, actor, func(w *world, me users.User) error {
		c, err := channelRef(w, me, p.StreamID)
		if err != nil {
			return err
		}
		res.Stream = w.channelRecord(c)
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
func (s *Service) GetStreamID(ctx context.Context, actor Actor, p GetStreamIDParams) (GetStreamIDResult, error) {
	var res GetStreamIDResult
	err := s.viewChannels(ctx, actor, func(w *world, me users.User) error {
		i, ok := w.byName[channels.NormalizeName(p.Stream)]
		if !ok || !w.metadata(w.channels[i], me) {
			return badRequest("Invalid channel name '%s'", p.Stream)
		}
		res.StreamID = w.channels[i].ID
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
func (s *Service) GetSubscribers(ctx context.Context, actor Actor, p GetSubscribersParams) (GetSubscribersResult, error) {
	var res GetSubscribersResult
	err := s.viewChannels(ctx, actor, func(w *world, me users.User) error {
		c, err := channelRef(w, me, p.StreamID)
		if err != nil {
			return err
		}
		if !w.canSeeSubscribers(c, me) {
			return badRequest("Invalid channel ID")
		}
		res.Subscribers = *w.subscriberList(c, me)
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
func (s *Service) GetSubscriptionStatus(ctx context.Context, actor Actor, p GetSubscriptionStatusParams) (GetSubscriptionStatusResult, error) {
	var res GetSubscriptionStatusResult
	err := s.viewChannels(ctx, actor, func(w *world, me users.User) error {
		if _, ok := w.lookup(p.UserID); !ok {
			return badRequest("No such user")
		}
		c, err := channelRef(w, me, p.StreamID)
		if err != nil {
			return err
		}
		if !w.canSeeSubscribers(c, me) {
			return badRequest("Invalid channel ID")
		}
		res.IsSubscribed = w.isSubscribed(c.ID, p.UserID)
		return nil
	})
	return res, err
}

// viewChannels runs fn over the world of a read-only transaction for the acting user.
func (s *Service) viewChannels(ctx context.Context, actor Actor, fn func(w *world, me users.User) error) error {
	return s.view(ctx, func(tx storage.ReadTx) error {
		me, w, err := actorWorldRead(tx, actor, s.now())
		if err != nil {
			return err
		}
		return fn(w, me)
	})
}

// UpdateStreamParams are the parameters of PATCH /streams/{stream_id}. Nil fields are left
// alone.
type UpdateStreamParams struct {
	StreamID                   channels.ID
	NewName                    *string
	Description                *string
	IsPrivate                  *bool
	IsWebPublic                *bool
	HistoryPublicToSubscribers *bool
	IsDefaultStream            *bool
	// MessageRetentionDays is the JSON text of the value (see NewChannelSettings).
	MessageRetentionDays *string
	TopicsPolicy         *string
	// FolderID moves the channel to a folder; a pointer to 0 takes it out of its folder.
	FolderID *channels.FolderID
	// IsArchived may only be false: it unarchives the channel.
	IsArchived    *bool
	GroupSettings map[string]GroupSettingChange
}

// UpdateStreamResult is the (empty) response.
type UpdateStreamResult struct{}

// errCannotAdminister is the refusal of a channel change by a user who may not administer it.
func errCannotAdminister() *Error {
	return badRequest("You do not have permission to administer this channel.")
}

// UpdateStream changes a channel's name, description, privacy, default status, retention,
// topics policy, folder or group settings. Everything is checked before anything changes;
// each changed property sends a stream update event to the users who can see the channel,
// and users who gain or lose sight of it get stream create or delete.
func (s *Service) UpdateStream(ctx context.Context, actor Actor, p UpdateStreamParams) (UpdateStreamResult, error) {
	err := s.update(ctx, func(tx storage.Tx, ev *events) error {
		me, w, old, err := s.loadAdministeredChannel(tx, actor, p.StreamID)
		if err != nil {
			return err
		}
		c := old.Clone()
		var updates []StreamUpdateEvent
		upd := func(prop string, value any) {
			updates = append(updates, StreamUpdateEvent{Type: "stream", Op: "update", StreamID: c.ID, Name: old.Name, Property: prop, Value: value})
		}
		if p.IsArchived != nil {
			if *p.IsArchived {
				return InvalidArgument("is_archived", "channels are archived with DELETE /streams/{stream_id}")
			}
			if !old.IsArchived {
				return badRequest("Channel is not archived.")
			}
			c.IsArchived = false
		}
		if p.NewName != nil {
			name, err := channels.CheckName(*p.NewName)
			if err != nil {
				return badRequest("%s", err.Error())
			}
			if name == old.Name {
				return badRequest("Channel already has that name.")
			}
			if i, ok := w.byName[channels.NormalizeName(name)]; ok && w.channels[i].ID != c.ID {
				return Errorf(CodeChannelAlreadyExists, "Channel '%s' already exists", name)
			}
			c.Name = name
			upd("name", name)
		}
		if p.Description != nil {
			d, err := channels.CheckDescription(*p.Description)
			if err != nil {
				return badRequest("%s", err.Error())
			}
			c.Description = d
			rendered := markdown.Render(d)
			updates = append(updates, StreamUpdateEvent{Type: "stream", Op: "update", StreamID: c.ID, Name: old.Name, Property: "description", Value: d, RenderedDescription: &rendered})
		}
		if p.IsPrivate != nil || p.IsWebPublic != nil || p.HistoryPublicToSubscribers != nil {
			if err := s.changePrivacy(w, me, &c, p); err != nil {
				return err
			}
			if c.InviteOnly != old.InviteOnly || c.IsWebPublic != old.IsWebPublic || c.HistoryPublicToSubscribers != old.HistoryPublicToSubscribers {
				updates = append(updates, StreamUpdateEvent{Type: "stream", Op: "update", StreamID: c.ID, Name: old.Name, Property: "invite_only", Value: c.InviteOnly,
					HistoryPublicToSubscribers: ptr(c.HistoryPublicToSubscribers), IsWebPublic: ptr(c.IsWebPublic)})
			}
		}
		if p.IsDefaultStream != nil {
			if !me.Role.IsAdmin() {
				return errInsufficientPermission()
			}
			c.IsDefault = *p.IsDefaultStream
		}
		if c.IsDefault && c.InviteOnly {
			return badRequest("A default channel cannot be private.")
		}
		if p.MessageRetentionDays != nil {
			r, err := channels.ParseRetention(*p.MessageRetentionDays)
			if err != nil {
				return badRequest("%s", err.Error())
			}
			if me.Role != users.RoleOwner {
				return errMustBeOwner()
			}
			c.MessageRetentionDays = r.Days
			var v any
			if r.Days != nil {
				v = *r.Days
			}
			upd("message_retention_days", v)
		}
		if p.TopicsPolicy != nil {
			tp, ok := channels.ParseTopicsPolicy(*p.TopicsPolicy)
			if !ok {
				return InvalidArgument("topics_policy", "")
			}
			if !me.Role.AtLeast(users.RoleModerator) {
				return errInsufficientPermission()
			}
			c.TopicsPolicy = tp
			upd("topics_policy", tp.String())
		}
		if p.FolderID != nil {
			if *p.FolderID != 0 {
				f, err := tx.ChannelFolders().Get(*p.FolderID)
				if errors.Is(err, storage.ErrNotFound) || err == nil && f.IsArchived {
					return badRequest("Invalid channel folder ID")
				} else if err != nil {
					return err
				}
			}
			c.FolderID = *p.FolderID
			var v any
			if c.FolderID != 0 {
				v = c.FolderID
			}
			upd("folder_id", v)
		}
		if len(p.GroupSettings) > 0 {
			given := map[string]users.GroupSetting{}
			current := map[string]users.GroupSetting{}
			for _, ns := range c.GroupSettings() {
				current[ns.Name] = *ns.Value
			}
			for _, name := range slices.Sorted(maps.Keys(p.GroupSettings)) {
				u := p.GroupSettings[name]
				cur, ok := current[name]
				if !ok {
					return InvalidArgument(name, "")
				}
				if u.New == nil {
					return InvalidArgument(name, "")
				}
				if u.Old != nil && !sameChannelSetting(*u.Old, cur) {
					return badRequest("'old' value does not match the expected value.")
				}
				given[name] = *u.New
			}
			if err := applyGroupSettings(w, me, &c, given); err != nil {
				return err
			}
			for _, name := range slices.Sorted(maps.Keys(given)) {
				for _, ns := range c.GroupSettings() {
					if ns.Name == name {
						upd(name, *ns.Value)
					}
				}
			}
		}
		if !c.HistoryPublicToSubscribers && !(c.CanCreateTopicGroup.IsNamed() && c.CanCreateTopicGroup.Group == w.groupID(users.GroupEveryone)) {
			return badRequest("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group")
		}
		if err := tx.Channels().Update(c); errors.Is(err, storage.ErrConflict) {
			return Errorf(CodeChannelAlreadyExists, "Channel '%s' already exists", c.Name)
		} else if err != nil {
			return err
		}
		before := map[users.ID]bool{}
		for _, u := range w.allUsers() {
			before[u.ID] = u.IsActive && w.metadata(old, u)
		}
		w.setChannel(c)
		var gained, lost, kept []int64
		for _, u := range w.allUsers() {
			now := u.IsActive && w.metadata(c, u)
			switch {
			case now && before[u.ID]:
				kept = append(kept, int64(u.ID))
			case now:
				gained = append(gained, int64(u.ID))
			case before[u.ID]:
				lost = append(lost, int64(u.ID))
			}
		}
		if old.IsArchived && !c.IsArchived {
			ev.add("stream", newArchiveEvent(c, w.channelRecord(c), false), kept)
		}
		for _, u := range updates {
			ev.add("stream", u, kept)
		}
		ev.add("stream", StreamEvent{Type: "stream", Op: "create", Streams: []ChannelRecord{w.channelRecord(c)}, ForUnarchiving: ptr(false)}, gained)
		ev.add("stream", streamDeleteEvent(c.ID, false), lost)
		if c.IsDefault != old.IsDefault {
			ev.add("default_streams", defaultStreamsEvent(w), w.activeIDs())
		}
		return nil
	})
	return UpdateStreamResult{}, err
}

// changePrivacy applies is_private, is_web_public and history_public_to_subscribers.
func (s *Service) changePrivacy(w *world, me users.User, c *channels.Channel, p UpdateStreamParams) error {
	private, webPublic := c.InviteOnly, c.IsWebPublic
	if p.IsPrivate != nil {
		private = *p.IsPrivate
		if private {
			webPublic = false
		}
	}
	if p.IsWebPublic != nil {
		webPublic = *p.IsWebPublic
	}
	history := c.HistoryPublicToSubscribers
	if p.IsPrivate != nil && p.HistoryPublicToSubscribers == nil {
		history = !private
	}
	if p.HistoryPublicToSubscribers != nil {
		history = *p.HistoryPublicToSubscribers
	}
	if !private {
		history = true
	}
	if webPublic {
		if private || p.HistoryPublicToSubscribers != nil && !*p.HistoryPublicToSubscribers {
			return badRequest("Invalid parameters")
		}
		if !c.IsWebPublic {
			if !w.realm.EnableSpectatorAccess {
				return badRequest("Web-public channels are not enabled.")
			}
			if !w.m.Allows(w.realm.CanCreateWebPublicChannelGroup, me.ID) {
				return errInsufficientPermission()
			}
		}
	}
	c.InviteOnly, c.IsWebPublic, c.HistoryPublicToSubscribers = private, webPublic, history
	return nil
}

// sameChannelSetting compares two group-setting values, ignoring order and nil versus empty.
func sameChannelSetting(a, b users.GroupSetting) bool {
	if a.IsNamed() || b.IsNamed() {
		return a.Group == b.Group
	}
	norm := func(s users.GroupSetting) ([]users.ID, []users.GroupID) {
		m, g := slices.Clone(s.Members), slices.Clone(s.Subgroups)
		slices.Sort(m)
		slices.Sort(g)
		return slices.Compact(m), slices.Compact(g)
	}
	am, ag := norm(a)
	bm, bg := norm(b)
	return slices.Equal(am, bm) && slices.Equal(ag, bg)
}

// ArchiveStreamParams are the parameters of DELETE /streams/{stream_id}.
type ArchiveStreamParams struct{ StreamID channels.ID }

// ArchiveStreamResult is the (empty) response.
type ArchiveStreamResult struct{}

// ArchiveStream archives a channel: it stays readable and its subscriptions can still be
// changed, but it leaves the default channels and no longer appears in most lists. Users who
// could see it receive stream delete with for_archiving true.
func (s *Service) ArchiveStream(ctx context.Context, actor Actor, p ArchiveStreamParams) (ArchiveStreamResult, error) {
	err := s.update(ctx, func(tx storage.Tx, ev *events) error {
		_, w, c, err := s.loadAdministeredChannel(tx, actor, p.StreamID)
		if err != nil {
			return err
		}
		if c.IsArchived {
			return badRequest("Channel is already deactivated")
		}
		wasDefault := c.IsDefault
		c.IsArchived, c.IsDefault = true, false
		if err := tx.Channels().Update(c); err != nil {
			return err
		}
		w.setChannel(c)
		ev.add("stream", newArchiveEvent(c, w.channelRecord(c), true), w.watchers(c, nil))
		if wasDefault {
			ev.add("default_streams", defaultStreamsEvent(w), w.activeIDs())
		}
		return nil
	})
	return ArchiveStreamResult{}, err
}

// DefaultStreamParams are the parameters of POST and DELETE /default_streams.
type DefaultStreamParams struct{ StreamID channels.ID }

// DefaultStreamResult is the (empty) response.
type DefaultStreamResult struct{}

// AddDefaultStream makes a public channel a default channel (administrators only).
func (s *Service) AddDefaultStream(ctx context.Context, actor Actor, p DefaultStreamParams) (DefaultStreamResult, error) {
	return DefaultStreamResult{}, s.setDefault(ctx, actor, p.StreamID, true)
}

// RemoveDefaultStream removes a channel from the default channels (administrators only).
func (s *Service) RemoveDefaultStream(ctx context.Context, actor Actor, p DefaultStreamParams) (DefaultStreamResult, error) {
	return DefaultStreamResult{}, s.setDefault(ctx, actor, p.StreamID, false)
}

func (s *Service) setDefault(ctx context.Context, actor Actor, id channels.ID, on bool) error {
	return s.update(ctx, func(tx storage.Tx, ev *events) error {
		me, err := loadAdmin(tx.Users(), actor)
		if err != nil {
			return err
		}
		w, err := loadWorldWrite(tx, s.now())
		if err != nil {
			return err
		}
		c, err := channelRef(w, me, id)
		if err != nil {
			return err
		}
		if on && c.InviteOnly {
			return badRequest("Private channels cannot be made default.")
		}
		if on && c.IsArchived {
			return badRequest("Archived channels cannot be made default.")
		}
		if c.IsDefault == on {
			return nil
		}
		c.IsDefault = on
		if err := tx.Channels().Update(c); err != nil {
			return err
		}
		w.setChannel(c)
		ev.add("default_streams", defaultStreamsEvent(w), w.activeIDs())
		return nil
	})
}

// defaultStreamIDs lists the default channels, ascending.
func (w *world) defaultStreamIDs() []channels.ID {
	ids := []channels.ID{}
	for _, c := range w.channels {
		if c.IsDefault && !c.IsArchived {
			ids = append(ids, c.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

func defaultStreamsEvent(w *world) DefaultStreamsEvent {
	return DefaultStreamsEvent{Type: "default_streams", DefaultStreams: w.defaultStreamIDs()}
}

// activeIDs lists every active user.
func (w *world) activeIDs() []int64 {
	var out []int64
	for _, u := range w.allUsers() {
		if u.IsActive {
			out = append(out, int64(u.ID))
		}
	}
	return out
}

// loadAdministeredChannel loads the acting user, the channel world and a channel the actor may
// see and administer.
func (s *Service) loadAdministeredChannel(tx storage.Tx, actor Actor, id channels.ID) (users.User, *world, channels.Channel, error) {
	me, w, err := actorWorldWrite(tx, actor, s.now())
	if err != nil {
		return users.User{}, nil, channels.Channel{}, err
	}
	c, err := channelRef(w, me, id)
	if err != nil {
		return users.User{}, nil, channels.Channel{}, err
	}
	if !channels.CanAdminister(w.m, c, w.viewer(c.ID, me)) {
		return users.User{}, nil, channels.Channel{}, errCannotAdminister()
	}
	return me, w, c, nil
}
