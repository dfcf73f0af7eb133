package people

import (
	"context"
	"maps"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// AlertWordsEvent is the alert_words event: the user's whole list after a change. Only the
// user receives it.
type AlertWordsEvent struct {
	Type       string   `json:"type"`
	AlertWords []string `json:"alert_words"`
}

// AlertWordsState is register's alert_words key.
type AlertWordsState struct {
	AlertWords []string `json:"alert_words"`
}

// AlertWordsParams are the parameters of POST and DELETE /users/me/alert_words.
type AlertWordsParams struct {
	AlertWords []string
}

// AlertWordsResult is the user's list of alert words (every alert_words endpoint answers
// with it).
type AlertWordsResult struct {
	AlertWords []string `json:"alert_words"`
}

// checkCount bounds the list given.
func (p AlertWordsParams) checkCount() error {
	if len(p.AlertWords) > users.MaxAlertWords {
		return engine.BadRequest("alert_words is too long (limit: %d items)", users.MaxAlertWords)
	}
	return nil
}

// GetAlertWordsParams are the parameters of GET /users/me/alert_words (none).
type GetAlertWordsParams struct{}

// GetAlertWords lists the actor's alert words.
func (s *Service) GetAlertWords(ctx context.Context, actor engine.Actor, _ GetAlertWordsParams) (AlertWordsResult, error) {
	var res AlertWordsResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx := o.Tx
		var err error
		res.AlertWords, err = tx.AlertWords().Get(actor.UserID)
		return err
	})
	if err != nil {
		return AlertWordsResult{}, err
	}
	return res, nil
}

// AddAlertWords adds words to the actor's alert words: each is trimmed, empty ones are
// ignored, and so are those already present, compared case-insensitively. A word longer than
// users.MaxAlertWordLength characters is refused. The user gets an alert_words event.
func (s *Service) AddAlertWords(ctx context.Context, actor engine.Actor, p AlertWordsParams) (AlertWordsResult, error) {
	if err := p.checkCount(); err != nil {
		return AlertWordsResult{}, err
	}
	for i, w := range p.AlertWords {
		if users.AlertWordTooLong(w) {
			return AlertWordsResult{}, engine.BadRequest("alert_words[%d] is too long (limit: %d characters)", i, users.MaxAlertWordLength)
		}
	}
	return s.changeAlertWords(ctx, actor, func(old []string) ([]string, error) {
		words := users.AddAlertWords(old, p.AlertWords)
		if len(words) > users.MaxAlertWords {
			return nil, engine.BadRequest("alert_words is too long (limit: %d words in all)", users.MaxAlertWords)
		}
		return words, nil
	})
}

// RemoveAlertWords removes words from the actor's alert words, compared case-insensitively;
// words the user does not have are ignored. The user gets an alert_words event.
func (s *Service) RemoveAlertWords(ctx context.Context, actor engine.Actor, p AlertWordsParams) (AlertWordsResult, error) {
	if err := p.checkCount(); err != nil {
		return AlertWordsResult{}, err
	}
	return s.changeAlertWords(ctx, actor, func(old []string) ([]string, error) {
		return users.RemoveAlertWords(old, p.AlertWords), nil
	})
}

// changeAlertWords replaces the actor's alert words with change(old) and tells the user, as
// Zulip does even when nothing changed.
func (s *Service) changeAlertWords(ctx context.Context, actor engine.Actor, change func([]string) ([]string, error)) (AlertWordsResult, error) {
	var res AlertWordsResult
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		old, err := tx.AlertWords().Get(actor.UserID)
		if err != nil {
			return err
		}
		words, err := change(old)
		if err != nil {
			return err
		}
		if err := tx.AlertWords().Set(actor.UserID, words); err != nil {
			return err
		}
		res.AlertWords = words
		ev.Emit(AlertWordsEvent{Type: "alert_words", AlertWords: words}, []int64{int64(actor.UserID)})
		return nil
	})
	if err != nil {
		return AlertWordsResult{}, err
	}
	return res, nil
}

// RegisterAlertWords is register's alert_words: the viewer's words (none for spectators).
func RegisterAlertWords(tx storage.ReadTx, viewer users.User) (*AlertWordsState, error) {
	if viewer.ID == 0 {
		return &AlertWordsState{AlertWords: []string{}}, nil
	}
	words, err := tx.AlertWords().Get(viewer.ID)
	if err != nil {
		return nil, err
	}
	return &AlertWordsState{AlertWords: words}, nil
}

// AlertedUsers returns those of among whose alert words content contains (the has_alert_word
// flag of their message row, set on send and recomputed on each content edit). It reads the
// organization's words once, whatever the number of recipients, and skips the matching when
// nobody has any.
func AlertedUsers(aw storage.AlertWordReader, content string, among []users.ID) (map[users.ID]bool, error) {
	var recipient map[users.ID]bool // made when someone has words
	return AlertedWhere(aw, content, func(id users.ID) bool {
		if recipient == nil {
			recipient = make(map[users.ID]bool, len(among))
			for _, u := range among {
				recipient[u] = true
			}
		}
		return recipient[id]
	})
}

// AlertedWhere is AlertedUsers for the users receives says are among the recipients: it asks
// about the users with alert words only, so that a big channel's send costs no set of its
// recipients.
func AlertedWhere(aw storage.AlertWordReader, content string, receives func(users.ID) bool) (map[users.ID]bool, error) {
	words, err := aw.All()
	if err != nil || len(words) == 0 {
		return nil, err
	}
	maps.DeleteFunc(words, func(id users.ID, _ []string) bool { return !receives(id) })
	if len(words) == 0 {
		return nil, nil
	}
	// As in Zulip, words inside fenced code blocks do not alert.
	return users.NewAlertWordMatcher(words).Alerted(markdown.WithoutCodeBlocks(content)), nil
}
