package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/queue"
	"github.com/teamchat/chat/users"
)

// Limits of the event system.
const (
	// MaxIdleQueueTimeout caps a requested queue lifetime (7 days).
	MaxIdleQueueTimeout = 7 * 24 * time.Hour
	// MobileIdleQueueTimeout is the lifetime of idle_queue_timeout="mobile".
	MobileIdleQueueTimeout = 12 * time.Hour
	// MaxEventTypes bounds the event_types and fetch_event_types lists.
	MaxEventTypes = 200
	// MaxNarrowTerms bounds register's narrow.
	MaxNarrowTerms = 50
)

// ClientCapabilities are the client_capabilities of POST /register; absent keys are false
// (clients.Capabilities; this alias keeps embedders' code compiling).
type ClientCapabilities = clients.Capabilities

// RegisterQueueParams are the parameters of POST /register (clients.Register; this alias keeps
// embedders' code compiling).
type RegisterQueueParams = clients.Register

// RegisterQueueResult is the register response: the queue, the server's version keys and the
// initial state of each requested kind (nil sections are omitted).
type RegisterQueueResult struct {
	// QueueID is null for spectators, who get state but no queue.
	QueueID              *string `json:"queue_id"`
	LastEventID          int64   `json:"last_event_id"`
	ZulipVersion         string  `json:"zulip_version"`
	ZulipFeatureLevel    int     `json:"zulip_feature_level"`
	ZulipMergeBase       string  `json:"zulip_merge_base"`
	IdleQueueTimeoutSecs int64   `json:"idle_queue_timeout_secs"`
	*RealmState
	*RealmUserState
	*DraftsState
	*ChannelsState
	*UserGroupsState
	*MessagesState
	*UserSettingsState
	*CustomProfileFieldsState
	*AlertWordsState
	*PresenceState
	*ScheduledState
	*UserStatusState
	*MutedUsersState
	*OnboardingState
	*RealmBotsState
	*OrganizationState
	*EmojiState
}

// queueOptions is what a queue remembers of its client's register parameters.
type queueOptions struct {
	// Options are what the queue's events' forms depend on: the client's register options,
	// the narrow resolved at registration (see queueNarrow) and the queue's own id, filled in
	// by the filter for each delivery.
	clients.Options
	allPublicStreams bool
	narrow           [][]string
	// cut, with a Bus, says which bus messages the registered state already includes.
	cut *busCut
}

// validate checks the parameters that do not depend on the store.
func validateRegister(p *RegisterQueueParams, anonymous bool) error {
	switch p.IncludeSubscribers {
	case "", "false", "true", "partial":
	default:
		return InvalidArgument("include_subscribers", "")
	}
	if anonymous {
		if p.ClientGravatar != nil && *p.ClientGravatar {
			return engine.BadRequest("Invalid 'client_gravatar' parameter for anonymous request")
		}
		if p.IncludeSubscribers == "true" || p.IncludeSubscribers == "partial" {
			return engine.BadRequest("Invalid 'include_subscribers' parameter for anonymous request")
		}
	}
	if err := people.CheckHistoryDays("presence_history_limit_days", p.PresenceHistoryLimitDays); err != nil {
		return err
	}
	if len(p.EventTypes) > MaxEventTypes {
		return engine.BadRequest("event_types is too long (limit: %d items)", MaxEventTypes)
	}
	if len(p.FetchEventTypes) > MaxEventTypes {
		return engine.BadRequest("fetch_event_types is too long (limit: %d items)", MaxEventTypes)
	}
	if len(p.Narrow) > MaxNarrowTerms {
		return engine.BadRequest("narrow is too long (limit: %d items)", MaxNarrowTerms)
	}
	for i, term := range p.Narrow {
		if len(term) < 2 {
			return engine.BadRequest("narrow[%d] is too short.", i)
		}
		if len(term) > 2 {
			return engine.BadRequest("narrow[%d] is too long.", i)
		}
	}
	if p.IdleQueueTimeout != nil && *p.IdleQueueTimeout <= 0 {
		return engine.BadRequest("idle_queue_timeout is too small")
	}
	if p.QueueLifespanSecs != nil && *p.QueueLifespanSecs < 0 {
		return engine.BadRequest("queue_lifespan_secs is too small")
	}
	return nil
}

// idleTimeout is the effective idle lifetime of the queue (0: the manager's default).
func idleTimeout(p *RegisterQueueParams) time.Duration {
	var d time.Duration
	switch {
	case p.IdleQueueTimeout != nil:
		d = *p.IdleQueueTimeout
	case p.QueueLifespanSecs != nil:
		d = time.Duration(*p.QueueLifespanSecs) * time.Second
	}
	return min(d, MaxIdleQueueTimeout)
}

// RegisterQueue registers an event queue for the actor and returns the initial state. The
// zero Actor registers a spectator (only where the organization allows spectator access),
// who gets state but no queue.
//
// It is race-free: the state is read and then the queue created while no mutation can commit
// or be delivered in between (both inside the engine's Registration), so the state plus the
// queue's events is the true state. The queue is created after the transaction, which the
// store may run more than once, so a re-run creates no second queue.
func (s *Service) RegisterQueue(ctx context.Context, actor Actor, p RegisterQueueParams) (RegisterQueueResult, error) {
	if err := validateRegister(&p, actor.Anonymous()); err != nil {
		return RegisterQueueResult{}, err
	}
	var res RegisterQueueResult
	var queue queue.Info
	err := s.eng.Registration(func() error {
		var err error
		res, queue, err = s.registerLocked(ctx, actor, p)
		return err
	})
	if err != nil {
		return RegisterQueueResult{}, err
	}
	res.LastEventID = -1
	res.IdleQueueTimeoutSecs = int64(s.opts.queueIdleDefault().Seconds())
	if queue.ID != "" {
		id := queue.ID
		res.QueueID = &id
		res.IdleQueueTimeoutSecs = int64(queue.IdleTimeout.Seconds())
		s.markLive(ctx, actor.UserID) // bus_live.go
	}
	return res, nil
}

// registerLocked reads the state of a registration and creates its queue, inside the engine's
// Registration (no commit or delivery falls between the two).
func (s *Service) registerLocked(ctx context.Context, actor Actor, p RegisterQueueParams) (RegisterQueueResult, queue.Info, error) {
	var (
		res   RegisterQueueResult
		queue queue.Info
		cut   *busCut
		terms []messages.Term
	)
	if s.bus != nil {
		if !s.busUp {
			return res, queue, errBusDown()
		}
		cut = &busCut{}
	}
	err := s.eng.Read(ctx, actor, engine.Spectators, func(o *engine.ReadOp) error {
		if p.AllPublicStreams != nil && *p.AllPublicStreams && o.Me.Role == users.RoleGuest {
			return engine.BadRequest("User not authorized for this query")
		}
		var err error
		if !actor.Anonymous() {
			if terms, err = narrows.Queue(o, p.Narrow); err != nil {
				return err
			}
		}
		if res, err = s.initialState(o, p); err != nil {
			return err
		}
		if cut != nil {
			cut.after, err = s.bus.Position(o.Tx)
		}
		return err
	})
	if err != nil || actor.Anonymous() {
		return res, queue, err
	}
	queue, err = s.newQueue(actor, p, terms, cut)
	return res, queue, err
}

// queueIdleDefault is the lifetime of a queue whose client asked for none.
func (o Options) queueIdleDefault() time.Duration {
	if o.QueueIdleTimeout > 0 {
		return o.QueueIdleTimeout
	}
	return 600 * time.Second
}

// newQueue registers the queue of an authenticated user.
func (s *Service) newQueue(actor Actor, p RegisterQueueParams, terms []messages.Term, cut *busCut) (queue.Info, error) {
	opts := queueOptions{
		Options: clients.Options{
			ApplyMarkdown:  p.ApplyMarkdown,
			ClientGravatar: p.ClientGravatar == nil || *p.ClientGravatar,
			Terms:          terms,
			Capabilities:   p.ClientCapabilities,
		},
		cut:    cut,
		narrow: p.Narrow,
	}
	if p.AllPublicStreams != nil {
		opts.allPublicStreams = *p.AllPublicStreams
	}
	if opts.watchesPublicChannels() {
		s.watchers.add(int64(actor.UserID))
	}
	info, err := s.queues.Register(queue.Spec{
		Owner:       int64(actor.UserID),
		EventTypes:  p.EventTypes,
		IdleTimeout: idleTimeout(&p),
		Data:        opts,
	})
	switch {
	case errors.Is(err, queue.ErrTooManyQueues):
		return queue.Info{}, engine.BadRequest("Too many event queues for this user")
	case errors.Is(err, queue.ErrClosed):
		return queue.Info{}, engine.BadRequest("Could not allocate event queue")
	case err != nil:
		return queue.Info{}, engine.InternalError(err)
	}
	return info, nil
}

// GetEventsParams are the parameters of GET /events.
type GetEventsParams struct {
	QueueID string
	// LastEventID acknowledges every event up to it; nil is only valid when registering.
	LastEventID *int64
	DontBlock   bool
	// Register holds register parameters, used when QueueID is empty and DontBlock is set:
	// the call then registers a queue.
	Register RegisterQueueParams
	// Waited is how long the client's request has already waited for this queue (a long-poll
	// that the HTTP layer resumes on another goroutine): the heartbeat comes
	// Options.HeartbeatWait after the request's start.
	Waited time.Duration
}

// GetEventsResult holds the events after last_event_id, in increasing id order.
type GetEventsResult struct {
	Events  []Event `json:"events"`
	QueueID string  `json:"queue_id,omitempty"`
}

// GetEvents acknowledges the events up to LastEventID and returns the rest. When none are
// pending and DontBlock is false it waits for one, or answers with a heartbeat event after
// Options.HeartbeatWait. A queue that expired, was deleted or belongs to someone else gives
// BAD_EVENT_QUEUE_ID.
func (s *Service) GetEvents(ctx context.Context, actor Actor, p GetEventsParams) (GetEventsResult, error) {
	if actor.Anonymous() {
		return GetEventsResult{}, ErrNotLoggedIn()
	}
	last := int64(-1)
	if p.QueueID == "" {
		if !p.DontBlock {
			return GetEventsResult{}, engine.BadRequest("Missing 'queue_id' argument")
		}
		if err := validateRegister(&p.Register, false); err != nil {
			return GetEventsResult{}, err
		}
		id, err := s.registerForEvents(ctx, actor, p.Register)
		if err != nil {
			return GetEventsResult{}, err
		}
		p.QueueID = id
	} else {
		if p.LastEventID == nil {
			return GetEventsResult{}, engine.BadRequest("Missing 'last_event_id' argument")
		}
		last = *p.LastEventID
	}
	got, err := s.queues.Get(ctx, queue.GetParams{
		QueueID: p.QueueID, Owner: int64(actor.UserID), LastEventID: last, DontBlock: p.DontBlock, Waited: p.Waited,
	})
	return s.eventsResult(got, err, p.QueueID)
}

// eventsResult is GetEvents' answer for what the queue's Get returned.
func (s *Service) eventsResult(got []queue.Event, err error, queueID string) (GetEventsResult, error) {
	if err != nil {
		if !errors.Is(err, queue.ErrClosed) {
			return GetEventsResult{}, s.queueGetError(err, queueID)
		}
		got = nil // shutting down: the client polls again and re-registers
	}
	res := GetEventsResult{Events: make([]Event, len(got)), QueueID: queueID}
	for i, e := range got {
		res.Events[i] = deliveredEvent(e)
	}
	return res, nil
}

// registerForEvents registers the queue of a GET /events without a queue_id (dont_block).
func (s *Service) registerForEvents(ctx context.Context, actor Actor, rp RegisterQueueParams) (string, error) {
	var terms []messages.Term
	if len(rp.Narrow) > 0 {
		err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
			var err error
			terms, err = narrows.Queue(o, rp.Narrow)
			return err
		})
		if err != nil {
			return "", err
		}
	}
	info, err := s.newQueue(actor, rp, terms, nil)
	if err == nil {
		s.markLive(ctx, actor.UserID) // bus_live.go
	}
	return info.ID, err
}

// queueGetError is the API error of a failed queue.Get (but ErrClosed).
func (s *Service) queueGetError(err error, queueID string) error {
	var pruned *queue.PrunedError
	var notIn *queue.NotInQueueError
	switch {
	case errors.Is(err, queue.ErrBadQueueID):
		return badQueue(queueID)
	case errors.As(err, &pruned):
		return engine.BadRequest("An event newer than %d has already been pruned!", pruned.NewestPruned)
	case errors.As(err, &notIn):
		return engine.BadRequest("Event %d was not in this queue", notIn.LastEventID)
	default:
		return s.storageError(err)
	}
}

// badQueue is the BAD_EVENT_QUEUE_ID error, with the queue id in the body.
func badQueue(id string) *Error {
	return Errorf(CodeBadEventQueueID, "Bad event queue ID: %s", id).With("queue_id", id)
}

// DeleteQueueParams are the parameters of DELETE /events.
type DeleteQueueParams struct {
	QueueID string
}

// DeleteQueueResult is DeleteQueue's answer: nothing beyond success.
type DeleteQueueResult struct{}

// DeleteQueue deletes one of the actor's queues at once.
func (s *Service) DeleteQueue(ctx context.Context, actor Actor, p DeleteQueueParams) (DeleteQueueResult, error) {
	if actor.Anonymous() {
		return DeleteQueueResult{}, ErrNotLoggedIn()
	}
	if err := s.queues.Delete(p.QueueID, int64(actor.UserID)); err != nil {
		return DeleteQueueResult{}, badQueue(p.QueueID)
	}
	return DeleteQueueResult{}, nil
}

// MarshalJSON writes the result's keys, with the realm settings of RealmSettingsState among
// them.
func (r RegisterQueueResult) MarshalJSON() ([]byte, error) {
	type plain RegisterQueueResult
	body, err := json.Marshal(plain(r))
	if err != nil || r.RealmState == nil || len(r.RealmState.Settings) == 0 {
		return body, err
	}
	extra, err := json.Marshal(r.RealmState.Settings)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(len(body) + len(extra))
	buf.Write(body[:len(body)-1]) // without the closing brace
	buf.WriteByte(',')
	buf.Write(extra[1:]) // without the opening brace
	return buf.Bytes(), nil
}

// AppendRegisterJSON appends r's JSON, the same bytes as json.Marshal(r), to b. It is faster
// for the user records of r that are copies of records this Service keeps (those of its
// RegisterQueue results): their JSON was encoded once.
func (s *Service) AppendRegisterJSON(b []byte, r RegisterQueueResult) ([]byte, error) {
	st := r.RealmUserState
	if st == nil {
		body, err := r.MarshalJSON()
		return append(b, body...), err
	}
	rest := *st
	rest.RealmUsers, rest.RealmNonActiveUsers = nil, nil
	without := r
	without.RealmUserState = &rest
	body, err := without.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return s.people.AppendWithUserRecords(b, body, st, r.MarshalJSON)
}
