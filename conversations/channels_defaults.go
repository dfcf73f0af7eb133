package conversations

import (
	"context"
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/users"
)

// DefaultStreamParams are the parameters of POST and DELETE /default_streams.
type DefaultStreamParams struct{ StreamID channels.ID }

// DefaultStreamResult is the (empty) response.
type DefaultStreamResult struct{}

// AddDefaultStream makes a public channel a default channel (administrators only).
func (s *Service) AddDefaultStream(ctx context.Context, actor engine.Actor, p DefaultStreamParams) (DefaultStreamResult, error) {
	return DefaultStreamResult{}, s.setDefault(ctx, actor, p.StreamID, true)
}

// RemoveDefaultStream removes a channel from the default channels (administrators only).
func (s *Service) RemoveDefaultStream(ctx context.Context, actor engine.Actor, p DefaultStreamParams) (DefaultStreamResult, error) {
	return DefaultStreamResult{}, s.setDefault(ctx, actor, p.StreamID, false)
}

func (s *Service) setDefault(ctx context.Context, actor engine.Actor, id channels.ID, on bool) error {
	return s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		w := o.World()
		c, err := engine.ChannelRef(w, me, id)
		if err != nil {
			return err
		}
		if on && c.InviteOnly {
			return engine.BadRequest("Private channels cannot be made default.")
		}
		if on && c.IsArchived {
			return engine.BadRequest("Archived channels cannot be made default.")
		}
		if c.IsDefault == on {
			return nil
		}
		c.IsDefault = on
		if err := tx.Channels().Update(c); err != nil {
			return err
		}
		w.SetChannel(c)
		ev.Emit(defaultStreamsEvent(w), w.ActiveUserIDs())
		return nil
	})
}

// defaultStreamIDs lists the default channels, ascending.
func defaultStreamIDs(w *world.World) []channels.ID {
	ids := []channels.ID{}
	for _, c := range w.AllChannels() {
		if c.IsDefault && !c.IsArchived {
			ids = append(ids, c.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

func defaultStreamsEvent(w *world.World) DefaultStreamsEvent {
	return DefaultStreamsEvent{Type: "default_streams", DefaultStreams: defaultStreamIDs(w)}
}

// SubscribeNewUser subscribes a user being created to the channels want chooses (archived
// ones left out), as Zulip's user creation does (bulk_add_subscriptions with
// from_user_creation): the users who may know get peer_add, and the new user, who has no
// queue yet, gets no events (register gives them their subscriptions). The permission was
// checked when the channels were chosen (an invitation's by its inviter).
func (s *Service) SubscribeNewUser(o *engine.WriteOp, id users.ID, want func(channels.Channel) bool) error {
	tx, ev := o.Tx, o.Ev
	chs, err := tx.Channels().List()
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(chs, func(c channels.Channel) bool { return want(c) && !c.IsArchived }) {
		return nil
	}
	w := o.World()
	var chosen []channels.Channel
	for _, c := range w.AllChannels() {
		if want(c) && !c.IsArchived {
			chosen = append(chosen, c)
		}
	}
	used := map[string]bool{}
	rows := make([]channels.Subscription, len(chosen))
	for i, c := range chosen {
		rows[i] = channels.FirstSubscription(id, c, channels.PickColor(used))
		used[rows[i].Color] = true
	}
	if err := tx.Subscriptions().Put(rows); err != nil {
		return err
	}
	for _, c := range chosen {
		w.AddSubscribers(c.ID, []users.ID{id})
		ev.Emit(SubscriptionEvent{Type: "subscription", Op: "peer_add", StreamIDs: []channels.ID{c.ID}, UserIDs: []users.ID{id}}, w.Watchers(c, []users.ID{id}))
	}
	return nil
}
