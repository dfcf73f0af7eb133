package chat

import (
	"context"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// SetDraftsSynchronization applies enable_drafts_synchronization for tests, until PATCH
// /settings (the users area) calls setDraftsSynchronization itself.
func (s *Service) SetDraftsSynchronization(ctx context.Context, user users.ID, enabled bool) error {
	return s.update(ctx, func(tx storage.Tx, _ *events) error { return setDraftsSynchronization(tx, user, enabled) })
}

// ExpireTyping sends the stops of typing notifications whose start expired (the janitor's
// round, without waiting for it).
func (s *Service) ExpireTyping(ctx context.Context) error { return s.expireTyping(ctx) }

// FormsEncoded is how many shared event forms have been encoded in this process.
func FormsEncoded() int64 { return formsEncoded.Load() }
