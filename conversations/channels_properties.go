package conversations

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

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
	// DefaultPushNotifications is the channel's default_push_notifications (administrators
	// only).
	DefaultPushNotifications *bool
	// MessageRetentionDays is the JSON text of the value (see NewChannelSettings).
	MessageRetentionDays *string
	TopicsPolicy         *string
	// FolderID moves the channel to a folder; a pointer to 0 takes it out of its folder.
	FolderID *channels.FolderID
	// IsArchived may only be false: it unarchives the channel.
	IsArchived    *bool
	GroupSettings map[string]org.GroupSettingChange
}

// UpdateStreamResult is the (empty) response.
type UpdateStreamResult struct{}

// errCannotAdminister is the refusal of a channel change by a user who may not administer it.
func errCannotAdminister() *engine.Error {
	return engine.BadRequest("You do not have permission to administer this channel.")
}

// UpdateStream changes a channel's name, description, privacy, default status, retention,
// topics policy, folder or group settings. Everything is checked before anything changes;
// each changed property sends a stream update event to the users who can see the channel,
// and users who gain or lose sight of it get stream create or delete.
func (s *Service) UpdateStream(ctx context.Context, actor engine.Actor, p UpdateStreamParams) (UpdateStreamResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		old, err := administeredChannel(o, p.StreamID)
		if err != nil {
			return err
		}
		sc := &streamChange{o: o, w: o.World(), old: old, c: old.Clone()}
		for _, step := range streamProperties {
			if err := step(sc, p); err != nil {
				return err
			}
		}
		return sc.commit()
	})
	return UpdateStreamResult{}, err
}

// streamChange is one UpdateStream in progress: the channel before (old) and as changed so far
// (c), and the stream update events of the changed properties, in order.
type streamChange struct {
	o       *engine.WriteOp
	w       *world.World
	old, c  channels.Channel
	updates []StreamUpdateEvent
}

// update records the stream update event of a changed property.
func (sc *streamChange) update(prop string, value any) {
	sc.updates = append(sc.updates, StreamUpdateEvent{Type: "stream", Op: "update", StreamID: sc.c.ID, Name: sc.old.Name, Property: prop, Value: value})
}

// streamProperties checks and applies UpdateStream's parameters, one function per channel
// property, in the order of Zulip's checks (the first refusal wins).
var streamProperties = []func(*streamChange, UpdateStreamParams) error{
	(*streamChange).unarchive,
	(*streamChange).rename,
	(*streamChange).describe,
	(*streamChange).privacy,
	(*streamChange).setDefault,
	(*streamChange).defaultPushNotifications,
	(*streamChange).retention,
	(*streamChange).topicsPolicy,
	(*streamChange).folder,
	(*streamChange).groupSettings,
	(*streamChange).checkTopicCreation,
}

func (sc *streamChange) unarchive(p UpdateStreamParams) error {
	if p.IsArchived == nil {
		return nil
	}
	if *p.IsArchived {
		return engine.InvalidArgument("is_archived", "channels are archived with DELETE /streams/{stream_id}")
	}
	if !sc.old.IsArchived {
		return engine.BadRequest("Channel is not archived.")
	}
	sc.c.IsArchived = false
	return nil
}

func (sc *streamChange) rename(p UpdateStreamParams) error {
	if p.NewName == nil {
		return nil
	}
	name, err := channels.CheckName(*p.NewName)
	if err != nil {
		return engine.RuleError(err)
	}
	if name == sc.old.Name {
		return engine.BadRequest("Channel already has that name.")
	}
	if other, ok := sc.w.ChannelByName(name); ok && other.ID != sc.c.ID {
		return engine.Errorf(engine.CodeChannelAlreadyExists, "Channel '%s' already exists", name)
	}
	sc.c.Name = name
	sc.update("name", name)
	return nil
}

func (sc *streamChange) describe(p UpdateStreamParams) error {
	if p.Description == nil {
		return nil
	}
	d, err := channels.CheckDescription(*p.Description)
	if err != nil {
		return engine.RuleError(err)
	}
	sc.c.Description = d
	rendered := markdown.Render(d)
	sc.updates = append(sc.updates, StreamUpdateEvent{Type: "stream", Op: "update", StreamID: sc.c.ID, Name: sc.old.Name, Property: "description", Value: d, RenderedDescription: &rendered})
	return nil
}

func (sc *streamChange) privacy(p UpdateStreamParams) error {
	if p.IsPrivate == nil && p.IsWebPublic == nil && p.HistoryPublicToSubscribers == nil {
		return nil
	}
	if err := changePrivacy(sc.w, sc.o.Me, &sc.c, p); err != nil {
		return err
	}
	c, old := sc.c, sc.old
	if c.InviteOnly != old.InviteOnly || c.IsWebPublic != old.IsWebPublic || c.HistoryPublicToSubscribers != old.HistoryPublicToSubscribers {
		sc.updates = append(sc.updates, StreamUpdateEvent{Type: "stream", Op: "update", StreamID: c.ID, Name: old.Name, Property: "invite_only", Value: c.InviteOnly,
			HistoryPublicToSubscribers: ptr(c.HistoryPublicToSubscribers), IsWebPublic: ptr(c.IsWebPublic)})
	}
	return nil
}

// setDefault applies is_default_stream; a default channel is never private, whichever
// parameter would make it so.
func (sc *streamChange) setDefault(p UpdateStreamParams) error {
	if p.IsDefaultStream != nil {
		if !sc.o.Me.Role.IsAdmin() {
			return errInsufficientPermission()
		}
		sc.c.IsDefault = *p.IsDefaultStream
	}
	if sc.c.IsDefault && sc.c.InviteOnly {
		return engine.BadRequest("A default channel cannot be private.")
	}
	return nil
}

// defaultPushNotifications applies default_push_notifications, which only administrators
// set or change (feature level 507), as is_default_stream.
func (sc *streamChange) defaultPushNotifications(p UpdateStreamParams) error {
	if p.DefaultPushNotifications == nil {
		return nil
	}
	if !sc.o.Me.Role.IsAdmin() {
		return errInsufficientPermission()
	}
	if v := *p.DefaultPushNotifications; v != sc.c.DefaultPushNotifications {
		sc.c.DefaultPushNotifications = v
		sc.update("default_push_notifications", v)
	}
	return nil
}

func (sc *streamChange) retention(p UpdateStreamParams) error {
	if p.MessageRetentionDays == nil {
		return nil
	}
	r, err := channels.ParseRetention(*p.MessageRetentionDays)
	if err != nil {
		return engine.RuleError(err)
	}
	if sc.o.Me.Role != users.RoleOwner {
		return engine.ErrMustBeOwner()
	}
	sc.c.MessageRetentionDays = r.Days
	var v any
	if r.Days != nil {
		v = *r.Days
	}
	sc.update("message_retention_days", v)
	return nil
}

func (sc *streamChange) topicsPolicy(p UpdateStreamParams) error {
	if p.TopicsPolicy == nil {
		return nil
	}
	tp, ok := channels.ParseTopicsPolicy(*p.TopicsPolicy)
	if !ok {
		return engine.InvalidArgument("topics_policy", "")
	}
	if !sc.o.Me.Role.AtLeast(users.RoleModerator) {
		return errInsufficientPermission()
	}
	if tp == channels.TopicsEmptyTopicOnly {
		if err := checkOnlyEmptyTopic(sc.o.Tx.Messages(), sc.c.ID, sc.w.Org().EmptyTopicDisplayName); err != nil {
			return err
		}
	}
	sc.c.TopicsPolicy = tp
	sc.update("topics_policy", tp.String())
	return nil
}

func (sc *streamChange) folder(p UpdateStreamParams) error {
	if p.FolderID == nil {
		return nil
	}
	if *p.FolderID != 0 {
		if err := checkActiveFolder(sc.o.Tx.ChannelFolders(), *p.FolderID); err != nil {
			return err
		}
	}
	sc.c.FolderID = *p.FolderID
	var v any
	if sc.c.FolderID != 0 {
		v = sc.c.FolderID
	}
	sc.update("folder_id", v)
	return nil
}

func (sc *streamChange) groupSettings(p UpdateStreamParams) error {
	if len(p.GroupSettings) == 0 {
		return nil
	}
	given := map[string]users.GroupSetting{}
	current := map[string]users.GroupSetting{}
	for _, ns := range sc.c.GroupSettings() {
		current[ns.Name] = *ns.Value
	}
	for _, name := range slices.Sorted(maps.Keys(p.GroupSettings)) {
		u := p.GroupSettings[name]
		cur, ok := current[name]
		if !ok || u.New == nil {
			return engine.InvalidArgument(name, "")
		}
		if u.Old != nil && !users.SameGroupSetting(*u.Old, cur) {
			return engine.BadRequest("'old' value does not match the expected value.")
		}
		given[name] = *u.New
	}
	if err := applyGroupSettings(sc.w, sc.o.Me, &sc.c, given); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(given)) {
		for _, ns := range sc.c.GroupSettings() {
			if ns.Name == name {
				sc.update(name, *ns.Value)
			}
		}
	}
	return nil
}

// checkTopicCreation refuses a channel with protected history whose members may not all
// create topics (Zulip supports that combination nowhere).
func (sc *streamChange) checkTopicCreation(UpdateStreamParams) error {
	c := sc.c
	if !c.HistoryPublicToSubscribers && !(c.CanCreateTopicGroup.IsNamed() && c.CanCreateTopicGroup.Group == sc.w.GroupID(users.GroupEveryone)) {
		return engine.BadRequest("Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group")
	}
	return nil
}

// commit writes the changed channel and records its events: the property updates to those who
// keep sight of it, stream create to those who gain it, stream delete to those who lose it.
func (sc *streamChange) commit() error {
	tx, ev, w, old, c := sc.o.Tx, sc.o.Ev, sc.w, sc.old, sc.c
	if err := tx.Channels().Update(c); errors.Is(err, storage.ErrConflict) {
		return engine.Errorf(engine.CodeChannelAlreadyExists, "Channel '%s' already exists", c.Name)
	} else if err != nil {
		return err
	}
	before := map[users.ID]bool{}
	for _, u := range w.AllUsers() {
		before[u.ID] = u.IsActive && w.Metadata(old, u)
	}
	w.SetChannel(c)
	var gained, lost, kept []int64
	for _, u := range w.AllUsers() {
		now := u.IsActive && w.Metadata(c, u)
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
		ev.Emit(newArchiveEvent(c, channelRecord(w, c), false), kept)
	}
	for _, u := range sc.updates {
		ev.Emit(u, kept)
	}
	ev.Emit(StreamEvent{Type: "stream", Op: "create", Streams: []ChannelRecord{channelRecord(w, c)}, ForUnarchiving: ptr(false)}, gained)
	ev.Emit(streamDeleteEvent(c.ID, false), lost)
	if c.IsDefault != old.IsDefault {
		ev.Emit(defaultStreamsEvent(w), w.ActiveUserIDs())
	}
	return nil
}

// changePrivacy applies is_private, is_web_public and history_public_to_subscribers.
func changePrivacy(w *world.World, me users.User, c *channels.Channel, p UpdateStreamParams) error {
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
			return engine.BadRequest("Invalid parameters")
		}
		if !c.IsWebPublic {
			if !w.Org().EnableSpectatorAccess {
				return engine.BadRequest("Web-public channels are not enabled.")
			}
			if !w.Membership().Allows(w.Org().CanCreateWebPublicChannelGroup, me.ID) {
				return errInsufficientPermission()
			}
		}
	}
	c.InviteOnly, c.IsWebPublic, c.HistoryPublicToSubscribers = private, webPublic, history
	return nil
}

// administeredChannel returns the channel id if the acting user may see and administer it.
func administeredChannel(o *engine.WriteOp, id channels.ID) (channels.Channel, error) {
	w, me := o.World(), o.Me
	c, err := engine.ChannelRef(w, me, id)
	if err != nil {
		return channels.Channel{}, err
	}
	if !channels.CanAdminister(w.Membership(), c, w.Viewer(c.ID, me)) {
		return channels.Channel{}, errCannotAdminister()
	}
	return c, nil
}

// checkOnlyEmptyTopic refuses empty_topic_only for a channel with a message in a named topic:
// the spec allows it only when every existing message is in the empty topic (Zulip's
// CannotSetTopicsPolicyError, whose message names the empty topic).
func checkOnlyEmptyTopic(r storage.MessageReader, c channels.ID, emptyTopicName string) error {
	list, err := r.Topics(c, 0, true)
	if err != nil {
		return err
	}
	for _, t := range list {
		if t.Name != "" {
			return engine.BadRequest("To enable this configuration, all messages in this channel must be in the \"%s\" topic. Consider renaming other topics to \"%s\".", emptyTopicName, emptyTopicName)
		}
	}
	return nil
}
