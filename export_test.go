package chat

import (
	"context"

	"github.com/teamchat/chat/users"
)

// SetDraftsSynchronization applies enable_drafts_synchronization for tests, until PATCH
// /settings (the users area) calls setDraftsSynchronization itself.
func (s *Service) SetDraftsSynchronization(ctx context.Context, user users.ID, enabled bool) error {
	return s.mutate(ctx, Actor{}, noActor, func(o *writeOp) error { return setDraftsSynchronization(o.tx, user, enabled) })
}

// ExpireTyping sends the stops of typing notifications whose start expired (the janitor's
// round, without waiting for it).
func (s *Service) ExpireTyping(ctx context.Context) error { return s.expireTyping(ctx) }

// FormsEncoded is how many shared event forms have been encoded in this process.
func FormsEncoded() int64 { return formsEncoded.Load() }

// SessionKey is what the store keeps of a session id.
func SessionKey(id string) string { return sessionKey(id) }
