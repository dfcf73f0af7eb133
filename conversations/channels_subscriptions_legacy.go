package conversations

import (
	"context"

	"github.com/teamchat/chat/internal/engine"
)

// UpdateSubscriptionsParams are the parameters of the legacy PATCH /users/me/subscriptions:
// channels to join (as in POST /users/me/subscriptions, for the acting user) and channel
// names to leave.
type UpdateSubscriptionsParams struct {
	Add    []SubscriptionRequest
	Delete []string
}

// UpdateSubscriptionsResult merges the responses of the subscribe and unsubscribe halves.
type UpdateSubscriptionsResult struct {
	SubscribeResult
	UnsubscribeResult
}

// UpdateSubscriptions subscribes the actor to Add and then unsubscribes them from Delete, in
// one transaction: a failure of either half changes nothing. As in Zulip, the subscribe half
// always runs (so guests are refused even when they only leave channels).
func (s *Service) UpdateSubscriptions(ctx context.Context, actor engine.Actor, p UpdateSubscriptionsParams) (UpdateSubscriptionsResult, error) {
	if len(p.Add) == 0 && len(p.Delete) == 0 {
		return UpdateSubscriptionsResult{}, engine.BadRequest(`Nothing to do. Specify at least one of "add" or "delete".`)
	}
	if len(p.Delete) > MaxSubscribeChannels {
		return UpdateSubscriptionsResult{}, engine.BadRequest("delete is too long (limit: %d items)", MaxSubscribeChannels)
	}
	op, err := newSubscribeOp(SubscribeParams{Subscriptions: p.Add})
	if err != nil {
		return UpdateSubscriptionsResult{}, err
	}
	var res UpdateSubscriptionsResult
	err = s.eng.Mutate(ctx, actor, nonGuests, func(o *engine.WriteOp) error {
		var err error
		if res.SubscribeResult, _, err = s.subscribeTx(o, op); err != nil {
			return err
		}
		res.UnsubscribeResult, err = s.unsubscribeNamed(o, UnsubscribeParams{Subscriptions: p.Delete})
		return err
	})
	if err != nil {
		return UpdateSubscriptionsResult{}, err
	}
	return res, nil
}
