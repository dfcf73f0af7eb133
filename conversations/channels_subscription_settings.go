package conversations

import (
	"context"
	"errors"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
)

// MaxSubscriptionPropertyChanges bounds subscription_data.
const MaxSubscriptionPropertyChanges = 1000

// SubscriptionPropertyChange is one item of subscription_data.
type SubscriptionPropertyChange struct {
	StreamID channels.ID `json:"stream_id"`
	Property string      `json:"property"`
	// Value is a string for color and a bool for the other properties.
	Value any `json:"value"`
}

// UpdateSubscriptionSettingsParams are the parameters of POST
// /users/me/subscriptions/properties (and of the single-channel legacy form).
type UpdateSubscriptionSettingsParams struct {
	SubscriptionData []SubscriptionPropertyChange
}

// UpdateSubscriptionSettingsResult is the (empty) response.
type UpdateSubscriptionSettingsResult struct{}

// UpdateSubscriptionSettings changes properties of the actor's subscriptions. Every item is
// checked (property, value type, access, subscription) before anything changes; then all are
// applied in one transaction. Each change sends a subscription update event to the actor
// (even when the value is unchanged); is_muted and in_home_view send two, in_home_view first.
func (s *Service) UpdateSubscriptionSettings(ctx context.Context, actor engine.Actor, p UpdateSubscriptionSettingsParams) (UpdateSubscriptionSettingsResult, error) {
	if len(p.SubscriptionData) > MaxSubscriptionPropertyChanges {
		return UpdateSubscriptionSettingsResult{}, engine.BadRequest("subscription_data is too long (limit: %d items)", MaxSubscriptionPropertyChanges)
	}
	for _, ch := range p.SubscriptionData {
		var probe channels.Subscription
		if err := probe.Set(channels.Property(ch.Property), ch.Value); err != nil {
			return UpdateSubscriptionSettingsResult{}, engine.RuleError(err)
		}
	}
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		rows := map[channels.ID]channels.Subscription{}
		var order []channels.ID
		recipients := []int64{int64(me.ID)}
		for _, ch := range p.SubscriptionData {
			c, ok := w.Channel(ch.StreamID)
			if !ok || !w.Metadata(c, me) {
				return engine.BadRequest("Invalid channel ID")
			}
			row, ok := rows[c.ID]
			if !ok {
				var err error
				row, err = tx.Subscriptions().Get(me.ID, c.ID)
				if errors.Is(err, storage.ErrNotFound) || err == nil && !row.Active {
					return engine.BadRequest("Not subscribed to channel ID %d", c.ID)
				}
				if err != nil {
					return err
				}
				order = append(order, c.ID)
			}
			prop := channels.Property(ch.Property)
			if err := row.Set(prop, ch.Value); err != nil {
				return engine.RuleError(err)
			}
			rows[c.ID] = row
			switch prop {
			case channels.PropIsMuted, channels.PropInHomeView:
				ev.Emit(SubscriptionUpdateEvent{Type: "subscription", Op: "update", StreamID: c.ID, Property: "in_home_view", Value: !row.IsMuted}, recipients)
				ev.Emit(SubscriptionUpdateEvent{Type: "subscription", Op: "update", StreamID: c.ID, Property: "is_muted", Value: row.IsMuted}, recipients)
			default:
				ev.Emit(SubscriptionUpdateEvent{Type: "subscription", Op: "update", StreamID: c.ID, Property: ch.Property, Value: ch.Value}, recipients)
			}
		}
		put := make([]channels.Subscription, 0, len(order))
		for _, id := range order {
			put = append(put, rows[id])
		}
		return tx.Subscriptions().Put(put)
	})
	return UpdateSubscriptionSettingsResult{}, err
}
