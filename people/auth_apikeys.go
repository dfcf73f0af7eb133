package people

import (
	"context"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// RegenerateAPIKeyResult is the response of POST /users/me/api_key/regenerate.
type RegenerateAPIKeyResult struct {
	APIKey string `json:"api_key"`
}

// RegenerateAPIKey replaces the actor's API key with a new random one. The old key stops
// authenticating at once, and the user's devices and push tokens are forgotten: Zulip logs a
// new key out of every mobile device (feature level 492 made it remove the device
// registrations too).
func (s *Service) RegenerateAPIKey(ctx context.Context, actor engine.Actor) (RegenerateAPIKeyResult, error) {
	if actor.Anonymous() {
		return RegenerateAPIKeyResult{}, ErrNotLoggedIn()
	}
	key, err := newAPIKey()
	if err != nil {
		return RegenerateAPIKeyResult{}, engine.InternalError(err)
	}
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		u.APIKey = key
		if err := tx.Users().Update(u); err != nil {
			return err
		}
		s.credentialsChanged(ev, u.ID)
		if err := s.endOtherSessions(o, actor, u.ID); err != nil {
			return err
		}
		if err := forgetDevices(tx, u.ID); err != nil {
			return err
		}
		if u.IsBot() {
			return announceBotUpdate(tx.Users(), ev, u, map[string]any{"api_key": key})
		}
		return nil
	})
	if err != nil {
		return RegenerateAPIKeyResult{}, err
	}
	return RegenerateAPIKeyResult{APIKey: key}, nil
}

// forgetDevices removes a user whose API key changed from every device: the client devices
// (register_client_device) and the push tokens, as Zulip's do_regenerate_api_key deletes the
// Device rows and clears the push device tokens.
func forgetDevices(tx storage.Tx, u users.ID) error {
	devices, err := tx.Devices().List(u)
	if err != nil {
		return err
	}
	for _, d := range devices {
		if err := tx.Devices().Delete(u, d.ID); err != nil {
			return err
		}
	}
	return nil
}
