package people

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
)

// This server has no push notification service: it answers the routes mobile clients call at
// start-up as a Zulip server without one does. Devices and push tokens are stored (Zulip keeps
// them to know a user's mobile devices); E2EE push registration is refused.

// maxPushTokenLength bounds a push token, as Zulip does.
const maxPushTokenLength = 4096

// RegisterClientDeviceResult is the answer of POST /register_client_device.
type RegisterClientDeviceResult struct {
	DeviceID int64 `json:"device_id"`
}

// RegisterClientDevice records a logged-in mobile device of the actor (humans only) and
// returns its id, the first step of push registration.
func (s *Service) RegisterClientDevice(ctx context.Context, actor engine.Actor) (RegisterClientDeviceResult, error) {
	var res RegisterClientDeviceResult
	err := s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		var err error
		res.DeviceID, err = o.Tx.Devices().Create(storage.Device{UserID: o.Me.ID})
		return err
	})
	if err != nil {
		return RegisterClientDeviceResult{}, err
	}
	return res, nil
}

// RemoveClientDeviceParams are the parameters of POST /remove_client_device.
type RemoveClientDeviceParams struct {
	DeviceID int64
}

// RemoveClientDeviceResult is RemoveClientDevice's answer: nothing beyond success.
type RemoveClientDeviceResult struct{}

// RemoveClientDevice removes one of the actor's devices (at logout).
func (s *Service) RemoveClientDevice(ctx context.Context, actor engine.Actor, p RemoveClientDeviceParams) (RemoveClientDeviceResult, error) {
	return RemoveClientDeviceResult{}, s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		tx, me := o.Tx, o.Me
		devices, err := tx.Devices().List(me.ID)
		if err != nil {
			return err
		}
		for _, d := range devices {
			if d.ID == p.DeviceID && d.Kind == "" {
				return tx.Devices().Delete(me.ID, d.ID)
			}
		}
		return engine.BadRequest("Invalid device ID")
	})
}

// RegisterPushDeviceResult is RegisterPushDevice's answer: nothing beyond success.
type RegisterPushDeviceResult struct{}

// RegisterPushDevice is POST /mobile_push/register (E2EE push): without a push service, Zulip
// refuses it.
func (s *Service) RegisterPushDevice(ctx context.Context, actor engine.Actor) (RegisterPushDeviceResult, error) {
	return RegisterPushDeviceResult{}, s.eng.Read(ctx, actor, engine.Humans, func(o *engine.ReadOp) error {
		return engine.Errorf(engine.CodePushServiceNotConfigured, "Server is not configured to use push notification service.")
	})
}

// PushTokenParams are the parameters of the older push-token routes.
type PushTokenParams struct {
	Token string
	// AppID is the iOS app's id (APNs only; empty means Zulip's app).
	AppID string
}

// Push token kinds.
const (
	pushKindAPNs = "apns"
	pushKindFCM  = "fcm"
)

// checkPushToken applies Zulip's token rules.
func checkPushToken(kind, token string) error {
	if token == "" || len(token) > maxPushTokenLength {
		return engine.BadRequest("Empty or invalid length token")
	}
	if kind == pushKindAPNs {
		if _, err := hex.DecodeString(token); err != nil {
			if _, err := base64.StdEncoding.DecodeString(token); err != nil {
				return engine.BadRequest("Invalid APNS token")
			}
		}
	}
	return nil
}

// addPushToken stores a push token of the actor (a repeated one is kept once).
func (s *Service) addPushToken(ctx context.Context, actor engine.Actor, kind string, p PushTokenParams) error {
	if err := checkPushToken(kind, p.Token); err != nil {
		return err
	}
	appID := p.AppID
	if kind == pushKindAPNs && appID == "" {
		appID = "org.zulip.Zulip"
	}
	return s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		_, err := o.Tx.Devices().Create(storage.Device{UserID: o.Me.ID, Kind: kind, Token: p.Token, AppID: appID})
		if errors.Is(err, storage.ErrConflict) {
			return nil
		}
		return err
	})
}

// removePushToken removes a push token of the actor.
func (s *Service) removePushToken(ctx context.Context, actor engine.Actor, kind string, p PushTokenParams) error {
	if err := checkPushToken(kind, p.Token); err != nil {
		return err
	}
	return s.eng.Mutate(ctx, actor, engine.Humans, func(o *engine.WriteOp) error {
		return engine.NotFound(o.Tx.Devices().DeleteToken(o.Me.ID, kind, p.Token), errTokenNotFound)
	})
}

// errTokenNotFound is the refusal of removing a push token the actor does not have.
func errTokenNotFound() *engine.Error { return engine.BadRequest("Token does not exist") }

// AddApnsTokenResult is AddApnsToken's answer: nothing beyond success.
type AddApnsTokenResult struct{}

// AddApnsToken is POST /users/me/apns_device_token.
func (s *Service) AddApnsToken(ctx context.Context, actor engine.Actor, p PushTokenParams) (AddApnsTokenResult, error) {
	return AddApnsTokenResult{}, s.addPushToken(ctx, actor, pushKindAPNs, p)
}

// RemoveApnsTokenResult is RemoveApnsToken's answer: nothing beyond success.
type RemoveApnsTokenResult struct{}

// RemoveApnsToken is DELETE /users/me/apns_device_token.
func (s *Service) RemoveApnsToken(ctx context.Context, actor engine.Actor, p PushTokenParams) (RemoveApnsTokenResult, error) {
	return RemoveApnsTokenResult{}, s.removePushToken(ctx, actor, pushKindAPNs, p)
}

// AddFcmTokenResult is AddFcmToken's answer: nothing beyond success.
type AddFcmTokenResult struct{}

// AddFcmToken is POST /users/me/android_gcm_reg_id.
func (s *Service) AddFcmToken(ctx context.Context, actor engine.Actor, p PushTokenParams) (AddFcmTokenResult, error) {
	return AddFcmTokenResult{}, s.addPushToken(ctx, actor, pushKindFCM, p)
}

// RemoveFcmTokenResult is RemoveFcmToken's answer: nothing beyond success.
type RemoveFcmTokenResult struct{}

// RemoveFcmToken is DELETE /users/me/android_gcm_reg_id.
func (s *Service) RemoveFcmToken(ctx context.Context, actor engine.Actor, p PushTokenParams) (RemoveFcmTokenResult, error) {
	return RemoveFcmTokenResult{}, s.removePushToken(ctx, actor, pushKindFCM, p)
}
