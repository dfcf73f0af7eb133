package chat

import (
	"context"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/users"
)

// SetDraftsSynchronization applies enable_drafts_synchronization for tests, until PATCH
// /settings (the users area) calls people.SetDraftsSynchronization itself.
func (s *Service) SetDraftsSynchronization(ctx context.Context, user users.ID, enabled bool) error {
	return s.eng.Mutate(ctx, Actor{}, engine.NoActor, func(o *engine.WriteOp) error { return people.SetDraftsSynchronization(o.Tx, user, enabled) })
}

// ExpireTyping sends the stops of typing notifications whose start expired (the janitor's
// round, without waiting for it).
func (s *Service) ExpireTyping(ctx context.Context) error { return s.typing.Expire(ctx) }

// FormsEncoded is how many shared event forms have been encoded in this process.
func FormsEncoded() int64 { return formsEncoded.Load() }

// HoldWrites keeps every mutation from committing until the returned function runs;
// mutations started meanwhile wait for the next commit group.
func (s *Service) HoldWrites() (release func()) { return s.eng.HoldWrites() }

// WaitingWrites is how many mutations wait for a commit group to take them.
func (s *Service) WaitingWrites() int { return s.eng.Commits().Waiting }

// LeadingAlone reports whether a group is running (or waiting for the write lock) and no
// mutation waits for the next one.
func (s *Service) LeadingAlone() bool {
	c := s.eng.Commits()
	return c.Leading && c.Waiting == 0
}

// SharedCommits reports how many commits several mutations shared, and how many mutations
// they held.
func (s *Service) SharedCommits() (groups, mutations uint64) {
	c := s.eng.Commits()
	return c.Shared, c.Sharing
}

// Prerendered reports how many sends' contents were rendered while they waited for their
// group, and how many of those renderings their transactions took (messages_prerender.go).
func (s *Service) Prerendered() (finished, taken uint64) {
	return s.conversations.Prerendered()
}

// PanickingMutation runs a mutation whose body writes (a draft-synchronization setting of
// user) and then panics with value.
func (s *Service) PanickingMutation(ctx context.Context, user users.ID, value any) error {
	return s.eng.Mutate(ctx, Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
		if err := people.SetDraftsSynchronization(o.Tx, user, false); err != nil {
			return err
		}
		panic(value)
	})
}

// SessionKey is what the store keeps of a session id.
func SessionKey(id string) string { return people.SessionKey(id) }
