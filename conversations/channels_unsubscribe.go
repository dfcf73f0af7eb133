package conversations

import (
	"context"
	"slices"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// UnsubscribeParams are the parameters of DELETE /users/me/subscriptions.
type UnsubscribeParams struct {
	// Subscriptions are channel names.
	Subscriptions []string
	Principals    Principals
}

// UnsubscribeResult lists the channels left and those the principals were not subscribed to.
type UnsubscribeResult struct {
	Removed    []string `json:"removed"`
	NotRemoved []string `json:"not_removed"`
}

// Unsubscribe removes the principals (default the actor) from the named channels. Removing
// oneself (or one's own bots) is always allowed; removing others needs the right to remove
// subscribers in every listed channel.
func (s *Service) Unsubscribe(ctx context.Context, actor engine.Actor, p UnsubscribeParams) (UnsubscribeResult, error) {
	if len(p.Subscriptions) == 0 {
		return UnsubscribeResult{}, engine.MissingArgument("subscriptions")
	}
	if len(p.Subscriptions) > MaxSubscribeChannels {
		return UnsubscribeResult{}, engine.BadRequest("subscriptions is too long (limit: %d items)", MaxSubscribeChannels)
	}
	var res UnsubscribeResult
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		var err error
		res, err = s.unsubscribeNamed(o, p)
		return err
	})
	if err != nil {
		return UnsubscribeResult{}, err
	}
	return res, nil
}

// unsubscribeNamed runs an unsubscribe request inside a transaction.
func (s *Service) unsubscribeNamed(o *engine.WriteOp, p UnsubscribeParams) (UnsubscribeResult, error) {
	res := UnsubscribeResult{Removed: []string{}, NotRemoved: []string{}}
	tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
	targets, err := resolvePrincipals(w, me, p.Principals, false)
	if err != nil {
		return res, err
	}
	var chs []channels.Channel
	var missing []string
	seen := map[channels.ID]bool{}
	for _, name := range p.Subscriptions {
		c, ok := w.ChannelByName(name)
		if !ok || !w.Metadata(c, me) && !w.IsSubscribed(c.ID, me.ID) {
			missing = append(missing, strings.TrimSpace(name))
			continue
		}
		if !seen[c.ID] {
			seen[c.ID] = true
			chs = append(chs, c)
		}
	}
	if len(missing) > 0 {
		return res, engine.BadRequest("Channel(s) (%s) do not exist", strings.Join(missing, ", "))
	}
	others := slices.ContainsFunc(targets, func(u users.User) bool {
		return u.ID != me.ID && !(u.IsBot() && u.BotOwnerID == me.ID)
	})
	if others {
		for _, c := range chs {
			if !channels.CanRemoveSubscribers(w.Membership(), c, w.Viewer(c.ID, me)) {
				return res, errInsufficientPermission()
			}
		}
	}
	err = s.unsubscribeTx(tx, ev, w, chs, targets, &res)
	return res, err
}

// unsubscribeTx deactivates the subscriptions of targets in chs and records the events:
// subscription remove to each removed user, peer_remove to those who may know, and stream
// delete to removed users who can no longer see a channel.
func (s *Service) unsubscribeTx(tx storage.Tx, ev *engine.Events, w *world.World, chs []channels.Channel, targets []users.User, res *UnsubscribeResult) error {
	ids := make([]users.ID, len(targets))
	for i, u := range targets {
		ids[i] = u.ID
	}
	rows, err := tx.Subscriptions().ListForUsers(ids)
	if err != nil {
		return err
	}
	have := map[[2]int64]channels.Subscription{}
	for _, r := range rows {
		have[[2]int64{int64(r.UserID), int64(r.ChannelID)}] = r
	}
	var put []channels.Subscription
	removedByUser := map[users.ID][]map[string]any{}
	removedByChannel := map[channels.ID][]users.ID{}
	for _, c := range chs {
		anyRemoved, anyKept := false, false
		for _, u := range targets {
			r, ok := have[[2]int64{int64(u.ID), int64(c.ID)}]
			if !ok || !r.Active {
				anyKept = true
				continue
			}
			r.Active = false
			put = append(put, r)
			anyRemoved = true
			removedByUser[u.ID] = append(removedByUser[u.ID], map[string]any{"name": c.Name, "stream_id": c.ID})
			removedByChannel[c.ID] = append(removedByChannel[c.ID], u.ID)
		}
		if anyRemoved {
			res.Removed = append(res.Removed, c.Name)
		}
		if anyKept && !anyRemoved {
			res.NotRemoved = append(res.NotRemoved, c.Name)
		}
	}
	if len(put) == 0 {
		return nil
	}
	if err := tx.Subscriptions().Put(put); err != nil {
		return err
	}
	for id, l := range removedByChannel {
		w.RemoveSubscribers(id, l)
	}
	for _, u := range targets {
		if l := removedByUser[u.ID]; len(l) > 0 {
			ev.Emit(SubscriptionEvent{Type: "subscription", Op: "remove", Subscriptions: l}, []int64{int64(u.ID)})
		}
	}
	for _, u := range targets {
		if err := markLeftChannelsRead(tx, ev, w, u.ID, removedByChannel); err != nil {
			return err
		}
	}
	for _, c := range chs {
		removed := removedByChannel[c.ID]
		if len(removed) == 0 {
			continue
		}
		ev.Emit(SubscriptionEvent{Type: "subscription", Op: "peer_remove", StreamIDs: []channels.ID{c.ID}, UserIDs: removed}, w.Watchers(c, removed))
		var lost []int64
		for _, id := range removed {
			if !w.Metadata(c, w.User(id)) {
				lost = append(lost, int64(id))
			}
		}
		ev.Emit(streamDeleteEvent(c.ID, false), lost)
	}
	return nil
}

// markLeftChannelsRead marks u's unread messages in the channels u just left as read, with
// the update_message_flags event Zulip's mark_stream_messages_as_read job sends.
func markLeftChannelsRead(tx storage.Tx, ev *engine.Events, w *world.World, u users.ID, removedByChannel map[channels.ID][]users.ID) error {
	left := map[channels.ID]bool{}
	for c, l := range removedByChannel {
		if slices.Contains(l, u) {
			left[c] = true
		}
	}
	if len(left) == 0 {
		return nil
	}
	rows, err := tx.Messages().UserRowsWhere(u, 0, messages.FlagRead)
	if err != nil || len(rows) == 0 {
		return err
	}
	ids := make([]messages.ID, len(rows))
	for i, r := range rows {
		ids[i] = r.MessageID
	}
	msgs, err := tx.Messages().GetMany(ids)
	if err != nil {
		return err
	}
	var unread []messages.ID
	for _, m := range msgs {
		if !m.IsDirect() && left[m.ChannelID] {
			unread = append(unread, m.ID)
		}
	}
	if len(unread) == 0 {
		return nil
	}
	changed, err := tx.Messages().SetFlags(u, unread, messages.FlagRead, 0)
	if err != nil || len(changed) == 0 {
		return err
	}
	ev.Emit(UpdateMessageFlagsEvent{
		Type: "update_message_flags", Op: "add", Operation: "add", Flag: "read", Messages: changed,
		emptyTopicLabel: w.Org().EmptyTopicDisplayName,
	}, []int64{int64(u)})
	return nil
}

// streamDeleteEvent is the stream delete event for one channel.
func streamDeleteEvent(id channels.ID, forArchiving bool) StreamEvent {
	return StreamEvent{Type: "stream", Op: "delete", Streams: []map[string]channels.ID{{"stream_id": id}}, StreamIDs: []channels.ID{id}, ForArchiving: ptr(forArchiving)}
}
