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
