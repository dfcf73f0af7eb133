package conversations

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// MaxSubscribeChannels bounds the channels of one subscribe request, and MaxPrincipals its
// principals.
const (
	MaxSubscribeChannels = 1000
	MaxPrincipals        = 10000
)

// SubscriptionRequest names one channel of POST /users/me/subscriptions.
type SubscriptionRequest struct {
	Name string `json:"name"`
	// Description is used only when the channel is created.
	Description *string `json:"description,omitempty"`
	// Color is the subscriber's colour for a new subscription; empty picks one.
	Color *string `json:"color,omitempty"`
}

// NewChannelSettings are the creation settings of POST /users/me/subscriptions and POST
// /channels/create. They apply only to channels the request creates.
type NewChannelSettings struct {
	InviteOnly      bool
	IsWebPublic     bool
	IsDefaultStream bool
	// HistoryPublicToSubscribers: nil takes the default (true for public channels, false
	// for private ones).
	HistoryPublicToSubscribers *bool
	// MessageRetentionDays is the JSON text of the value: an integer, "realm_default",
	// or "unlimited" (the legacy "forever" is refused); nil means realm_default.
	MessageRetentionDays *string
	// TopicsPolicy is inherit, allow_empty_topic, disable_empty_topic or empty_topic_only;
	// nil means inherit.
	TopicsPolicy *string
	FolderID     *channels.FolderID
	// DefaultPushNotifications turns on push notifications in the first subscription of
	// every user to the channel (administrators only; feature level 507).
	DefaultPushNotifications bool
	// GroupSettings maps can_*_group parameter names to their values; absent ones take the
	// defaults.
	GroupSettings map[string]users.GroupSetting
}

// Principals are the users a subscription request acts on: user ids or API/delivery emails
// (one form per request). Both empty means the acting user.
type Principals struct {
	IDs    []users.ID
	Emails []string
}

func (p Principals) empty() bool { return len(p.IDs) == 0 && len(p.Emails) == 0 }

// SubscribeParams are the parameters of POST /users/me/subscriptions.
type SubscribeParams struct {
	Subscriptions []SubscriptionRequest
	Principals    Principals
	// AuthorizationErrorsFatal: nil means true.
	AuthorizationErrorsFatal *bool
	// Announce asks the notification bot to announce created channels (see the
	// announceNewChannels hook).
	Announce bool
	NewChannelSettings
	// SendNewSubscriptionMessages: nil means true.
	SendNewSubscriptionMessages *bool
}

// SubscribeResult is the response of POST /users/me/subscriptions. Keys of the maps are user
// ids as strings; values are channel names.
type SubscribeResult struct {
	Subscribed        map[string][]string `json:"subscribed"`
	AlreadySubscribed map[string][]string `json:"already_subscribed"`
	// Unauthorized is present whenever authorization_errors_fatal is false.
	Unauthorized *[]string `json:"unauthorized,omitempty"`
	// NewSubscriptionMessagesSent is present when send_new_subscription_messages was true
	// (the default) and the request named other users: whether the number of users it
	// subscribed allowed the notification bot's messages (at most
	// MaxBulkNewSubscriptionMessages).
	NewSubscriptionMessagesSent *bool `json:"new_subscription_messages_sent,omitempty"`
}

// CreateChannelParams are the parameters of POST /channels/create.
type CreateChannelParams struct {
	Name        string
	Description string
	// Subscribers are the users to subscribe (exactly these).
	Subscribers                 []users.ID
	Announce                    bool
	SendNewSubscriptionMessages *bool
	NewChannelSettings
}

// CreateChannelResult is the response of POST /channels/create.
type CreateChannelResult struct {
	ID channels.ID `json:"id"`
}

var errGuestsNotAllowed = &engine.Error{Code: engine.CodeBadRequest, Msg: "Not allowed for guest users"}

func errInsufficientPermission() *engine.Error { return engine.BadRequest("Insufficient permission") }

// nonGuests is the engine.Gate of subscribing and creating channels: signed in, not a guest.
func nonGuests(tx storage.ReadTx, actor engine.Actor) (users.User, error) {
	u, err := engine.SignedIn(tx, actor)
	if err == nil && u.Role == users.RoleGuest {
		return users.User{}, errGuestsNotAllowed
	}
	return u, err
}

// Subscribe subscribes the principals (default the actor) to the named channels, creating
// the missing ones with the creation settings. All of it happens in one transaction.
func (s *Service) Subscribe(ctx context.Context, actor engine.Actor, p SubscribeParams) (SubscribeResult, error) {
	if len(p.Subscriptions) == 0 {
		return SubscribeResult{}, engine.MissingArgument("subscriptions")
	}
	op, err := newSubscribeOp(p)
	if err != nil {
		return SubscribeResult{}, err
	}
	var res SubscribeResult
	err = s.eng.Mutate(ctx, actor, nonGuests, func(o *engine.WriteOp) error {
		var err error
		res, _, err = s.subscribeTx(o, op)
		return err
	})
	if err != nil {
		return SubscribeResult{}, err
	}
	return res, nil
}

// newSubscribeOp checks the form of a subscribe request (names, descriptions, colours) and
// drops repeated names.
func newSubscribeOp(p SubscribeParams) (subscribeOp, error) {
	if len(p.Subscriptions) > MaxSubscribeChannels {
		return subscribeOp{}, engine.BadRequest("subscriptions is too long (limit: %d items)", MaxSubscribeChannels)
	}
	op := subscribeOp{
		fatal:      p.AuthorizationErrorsFatal == nil || *p.AuthorizationErrorsFatal,
		settings:   p.NewChannelSettings,
		announce:   p.Announce,
		sendNewMsg: p.SendNewSubscriptionMessages == nil || *p.SendNewSubscriptionMessages,
		principals: p.Principals,
	}
	seen := map[string]bool{}
	for i, sr := range p.Subscriptions {
		name, err := channels.CheckName(sr.Name)
		if err != nil {
			return subscribeOp{}, engine.RuleError(err)
		}
		req := nameRequest{name: name}
		if sr.Description != nil {
			if req.description, err = channels.CheckDescription(*sr.Description); err != nil {
				return subscribeOp{}, engine.BadRequest("subscriptions[%d][\"description\"] %s", i, err.Error())
			}
		}
		if sr.Color != nil {
			if !channels.ValidColor(*sr.Color) {
				return subscribeOp{}, engine.RuleError(channels.ErrBadColor)
			}
			req.color = *sr.Color
		}
		key := channels.NormalizeName(name)
		if seen[key] {
			continue
		}
		seen[key] = true
		op.names = append(op.names, req)
	}
	return op, nil
}

// CreateChannel creates one channel and subscribes exactly the listed users. An existing name
// is CHANNEL_ALREADY_EXISTS (409).
func (s *Service) CreateChannel(ctx context.Context, actor engine.Actor, p CreateChannelParams) (CreateChannelResult, error) {
	name, err := channels.CheckName(p.Name)
	if err != nil {
		return CreateChannelResult{}, engine.RuleError(err)
	}
	desc, err := channels.CheckDescription(p.Description)
	if err != nil {
		return CreateChannelResult{}, engine.RuleError(err)
	}
	if len(p.Subscribers) > MaxPrincipals {
		return CreateChannelResult{}, engine.BadRequest("subscribers is too long (limit: %d items)", MaxPrincipals)
	}
	op := subscribeOp{
		names:        []nameRequest{{name: name, description: desc}},
		fatal:        true,
		settings:     p.NewChannelSettings,
		announce:     p.Announce,
		principals:   Principals{IDs: p.Subscribers},
		mustCreate:   true,
		noPrincipals: len(p.Subscribers) == 0,
	}
	var id channels.ID
	err = s.eng.Mutate(ctx, actor, nonGuests, func(o *engine.WriteOp) error {
		_, created, err := s.subscribeTx(o, op)
		if err == nil && len(created) == 1 {
			id = created[0]
		}
		return err
	})
	if err != nil {
		return CreateChannelResult{}, err
	}
	return CreateChannelResult{ID: id}, nil
}

type nameRequest struct {
	name, description, color string
}

// subscribeOp is one subscribe or create request, validated for form.
type subscribeOp struct {
	names      []nameRequest
	principals Principals
	fatal      bool
	settings   NewChannelSettings
	announce   bool
	// sendNewMsg is send_new_subscription_messages.
	sendNewMsg bool
	// mustCreate refuses an existing name (POST /channels/create).
	mustCreate bool
	// noPrincipals subscribes nobody (POST /channels/create with an empty list).
	noPrincipals bool
}

// subscribeTx runs a subscribe request inside a transaction. It returns the response and the
// ids of the channels it created.
func (s *Service) subscribeTx(o *engine.WriteOp, op subscribeOp) (SubscribeResult, []channels.ID, error) {
	tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
	targets, err := resolvePrincipals(w, me, op.principals, op.noPrincipals)
	if err != nil {
		return SubscribeResult{}, nil, err
	}
	subscribingOthers := slices.ContainsFunc(targets, func(u users.User) bool { return u.ID != me.ID })

	colors := map[channels.ID]string{}
	existing, toCreate, err := splitNames(w, op, colors)
	if err != nil {
		return SubscribeResult{}, nil, err
	}
	res := SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{}}
	if !op.fatal {
		res.Unauthorized = &[]string{}
	}
	authorized, err := authorizeExisting(w, me, existing, op, subscribingOthers, &res)
	if err != nil {
		return SubscribeResult{}, nil, err
	}
	created, newChannels, err := s.createChannels(o, op, toCreate, subscribingOthers, colors)
	if err != nil {
		return SubscribeResult{}, nil, err
	}
	authorized = append(authorized, newChannels...)

	// Subscription rows.
	ids := make([]channels.ID, len(authorized))
	for i, c := range authorized {
		ids[i] = c.ID
	}
	targetIDs := make([]users.ID, len(targets))
	for i, u := range targets {
		targetIDs[i] = u.ID
	}
	have, used, err := subscriptionsOf(tx.Subscriptions(), targetIDs)
	if err != nil {
		return SubscribeResult{}, nil, err
	}
	var put []channels.Subscription
	newByChannel := map[channels.ID][]users.ID{}
	newByUser := map[users.ID][]channels.Subscription{}
	hadMetadata := map[channels.ID]map[users.ID]bool{}
	for _, c := range authorized {
		hadMetadata[c.ID] = map[users.ID]bool{}
		for _, u := range targets {
			old, ok := have[u.ID][c.ID]
			key := strconv.FormatInt(int64(u.ID), 10)
			if ok && old.Active {
				res.AlreadySubscribed[key] = append(res.AlreadySubscribed[key], c.Name)
				continue
			}
			row := old
			if !ok {
				if used[u.ID] == nil {
					used[u.ID] = map[string]bool{}
				}
				row = channels.FirstSubscription(u.ID, c, colors[c.ID])
				if row.Color == "" {
					row.Color = channels.PickColor(used[u.ID])
				}
				used[u.ID][row.Color] = true
			}
			row.Active = true
			hadMetadata[c.ID][u.ID] = w.Metadata(c, u)
			put = append(put, row)
			newByChannel[c.ID] = append(newByChannel[c.ID], u.ID)
			newByUser[u.ID] = append(newByUser[u.ID], row)
			res.Subscribed[key] = append(res.Subscribed[key], c.Name)
		}
	}
	if len(put) > 0 {
		if err := tx.Subscriptions().Put(put); err != nil {
			return SubscribeResult{}, nil, err
		}
	}
	for id, l := range newByChannel {
		w.AddSubscribers(id, l)
	}

	announceSubscriptions(w, ev, authorized, targets, newByChannel, newByUser, hadMetadata)

	if subscribingOthers && op.sendNewMsg {
		res.NewSubscriptionMessagesSent = ptr(len(res.Subscribed) <= MaxBulkNewSubscriptionMessages)
	}
	if err := s.postNotices(tx, ev, w, subscriptionNotices(w, me, newByUser, created, op)); err != nil {
		return SubscribeResult{}, nil, err
	}
	for k := range maps.Keys(res.Subscribed) {
		slices.Sort(res.Subscribed[k])
	}
	return res, created, nil
}

func ptr[T any](v T) *T { return &v }

// splitNames sorts the requested channel names into existing channels and ones to create,
// recording requested colors of existing ones in colors.
func splitNames(w *world.World, op subscribeOp, colors map[channels.ID]string) ([]channels.Channel, []nameRequest, error) {
	var existing []channels.Channel
	var toCreate []nameRequest
	for _, n := range op.names {
		if c, ok := w.ChannelByName(n.name); ok {
			if op.mustCreate {
				return nil, nil, engine.Errorf(engine.CodeChannelAlreadyExists, "Channel '%s' already exists", c.Name)
			}
			existing = append(existing, c)
			if n.color != "" {
				colors[c.ID] = n.color
			}
			continue
		}
		toCreate = append(toCreate, n)
	}
	return existing, toCreate, nil
}

// authorizeExisting keeps the existing channels me may subscribe the targets to; the others
// are refused (op.fatal) or listed in res.Unauthorized.
func authorizeExisting(w *world.World, me users.User, existing []channels.Channel, op subscribeOp, subscribingOthers bool, res *SubscribeResult) ([]channels.Channel, error) {
	var authorized []channels.Channel
	for _, c := range existing {
		v := w.Viewer(c.ID, me)
		canAdd := channels.CanAddSubscribers(w.Membership(), c, v, w.Org().CanAddSubscribersGroup)
		access := v.Subscribed || channels.HasContentAccess(w.Membership(), c, v) || canAdd
		if !access {
			if op.fatal {
				return nil, engine.BadRequest("Unable to access channel (%s).", c.Name)
			}
			*res.Unauthorized = append(*res.Unauthorized, c.Name)
			continue
		}
		if subscribingOthers && !canAdd {
			return nil, errInsufficientPermission()
		}
		authorized = append(authorized, c)
	}
	return authorized, nil
}

// createChannels creates the requested new channels from the operation's settings, each
// announced with a stream create event to those who can see it; requested colors go into
// colors.
func (s *Service) createChannels(o *engine.WriteOp, op subscribeOp, toCreate []nameRequest, subscribingOthers bool, colors map[channels.ID]string) ([]channels.ID, []channels.Channel, error) {
	if len(toCreate) == 0 {
		return nil, nil, nil
	}
	tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
	if id := op.settings.FolderID; id != nil && *id != 0 {
		if err := checkActiveFolder(tx.ChannelFolders(), *id); err != nil {
			return nil, nil, err
		}
	}
	template, err := s.newChannelTemplate(w, me, op.settings)
	if err != nil {
		return nil, nil, err
	}
	now := o.Now.Unix()
	var created []channels.ID
	var made []channels.Channel
	for _, n := range toCreate {
		c := template.Clone()
		c.Name, c.Description, c.DateCreated = n.name, n.description, now
		id, err := tx.Channels().Create(c)
		if errors.Is(err, storage.ErrConflict) {
			return nil, nil, engine.Errorf(engine.CodeChannelAlreadyExists, "Channel '%s' already exists", n.name)
		}
		if err != nil {
			return nil, nil, err
		}
		c.ID = id
		if subscribingOthers && !channels.CanAddSubscribers(w.Membership(), c, channels.Viewer{User: me, Subscribed: true}, w.Org().CanAddSubscribersGroup) {
			return nil, nil, errInsufficientPermission()
		}
		w.SetChannel(c)
		created = append(created, id)
		made = append(made, c)
		if n.color != "" {
			colors[c.ID] = n.color
		}
		// stream create goes to everyone who can see the new channel before anyone is
		// subscribed; the subscribers learn of it below.
		rec := channelRecord(w, c)
		ev.Emit(StreamEvent{Type: "stream", Op: "create", Streams: []ChannelRecord{rec}, ForUnarchiving: ptr(false)}, w.Watchers(c, nil))
	}
	return created, made, nil
}

// announceSubscriptions records the events of new subscriptions: stream create to new
// subscribers who could not see the channel before (a private channel, new or existing),
// then subscription add to each new subscriber, then peer_add to the others who may know.
func announceSubscriptions(w *world.World, ev *engine.Events, authorized []channels.Channel, targets []users.User,
	newByChannel map[channels.ID][]users.ID, newByUser map[users.ID][]channels.Subscription, hadMetadata map[channels.ID]map[users.ID]bool) {
	for _, c := range authorized {
		var late []int64
		for _, u := range newByChannel[c.ID] {
			if !hadMetadata[c.ID][u] {
				late = append(late, int64(u))
			}
		}
		if len(late) > 0 {
			ev.Emit(StreamEvent{Type: "stream", Op: "create", Streams: []ChannelRecord{channelRecord(w, c)}, ForUnarchiving: ptr(false)}, late)
		}
	}
	subscriberLists := map[channels.ID]*[]users.ID{}
	for _, c := range authorized {
		l := slices.Clone(w.SubscribersOf(c.ID))
		subscriberLists[c.ID] = &l
	}
	for _, u := range targets {
		rows := newByUser[u.ID]
		if len(rows) == 0 {
			continue
		}
		recs := make([]SubscriptionRecord, len(rows))
		for i, r := range rows {
			c, _ := w.Channel(r.ChannelID)
			recs[i] = subscriptionRecord(w, c, r)
			recs[i].Subscribers = subscriberLists[c.ID]
		}
		ev.Emit(SubscriptionEvent{Type: "subscription", Op: "add", Subscriptions: recs}, []int64{int64(u.ID)})
	}
	for _, c := range authorized {
		added := newByChannel[c.ID]
		if len(added) == 0 {
			continue
		}
		ev.Emit(SubscriptionEvent{Type: "subscription", Op: "peer_add", StreamIDs: []channels.ID{c.ID}, UserIDs: added}, w.Watchers(c, added))
	}
}

// subscriptionsOf reads the users' subscription rows, by user and channel, and the colors of
// each user's active subscriptions.
func subscriptionsOf(r storage.SubscriptionReader, ids []users.ID) (map[users.ID]map[channels.ID]channels.Subscription, map[users.ID]map[string]bool, error) {
	rows, err := r.ListForUsers(ids)
	if err != nil {
		return nil, nil, err
	}
	have := map[users.ID]map[channels.ID]channels.Subscription{}
	used := map[users.ID]map[string]bool{}
	for _, r := range rows {
		if have[r.UserID] == nil {
			have[r.UserID] = map[channels.ID]channels.Subscription{}
			used[r.UserID] = map[string]bool{}
		}
		have[r.UserID][r.ChannelID] = r
		if r.Active {
			used[r.UserID][r.Color] = true
		}
	}
	return have, used, nil
}
