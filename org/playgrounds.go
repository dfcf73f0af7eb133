package org

import (
	"context"
	"errors"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/storage"
)

// PlaygroundRecord is a code playground as the API returns it. The language goes out under
// Zulip's name, pygments_language, which every client reads, and under the specification's
// name, highlighter_language.
type PlaygroundRecord struct {
	ID                  linkifiers.PlaygroundID `json:"id"`
	Name                string                  `json:"name"`
	PygmentsLanguage    string                  `json:"pygments_language"`
	HighlighterLanguage string                  `json:"highlighter_language"`
	URLTemplate         string                  `json:"url_template"`
}

func playgroundRecord(p linkifiers.Playground) PlaygroundRecord {
	return PlaygroundRecord{ID: p.ID, Name: p.Name, PygmentsLanguage: p.Language, HighlighterLanguage: p.Language, URLTemplate: p.URLTemplate}
}

// RealmPlaygroundsEvent is a realm_playgrounds event: the organization's whole list.
type RealmPlaygroundsEvent struct {
	Type             string             `json:"type"`
	RealmPlaygrounds []PlaygroundRecord `json:"realm_playgrounds"`
}

// AddCodePlaygroundParams are the parameters of POST /realm/playgrounds.
type AddCodePlaygroundParams struct {
	Name string
	// HighlighterLanguage is the syntax-highlighter language (pygments_language).
	HighlighterLanguage string
	URLTemplate         string
}

// AddCodePlaygroundResult holds the new playground's id.
type AddCodePlaygroundResult struct {
	ID linkifiers.PlaygroundID `json:"id"`
}

// AddCodePlayground adds a playground (administrators only) and sends the new list to every
// active user. The URL template must have exactly one variable, code.
func (s *Service) AddCodePlayground(ctx context.Context, actor engine.Actor, p AddCodePlaygroundParams) (AddCodePlaygroundResult, error) {
	pg, err := linkifiers.CheckPlayground(linkifiers.Playground{Name: p.Name, Language: p.HighlighterLanguage, URLTemplate: p.URLTemplate})
	if err != nil {
		return AddCodePlaygroundResult{}, validationError(err)
	}
	var res AddCodePlaygroundResult
	err = s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		all, err := tx.Playgrounds().List()
		if err != nil {
			return err
		}
		if len(all) >= linkifiers.MaxPlaygrounds {
			return engine.BadRequest("Too many code playgrounds (limit: %d)", linkifiers.MaxPlaygrounds)
		}
		id, err := tx.Playgrounds().Create(pg)
		if errors.Is(err, storage.ErrConflict) {
			return validationError(&linkifiers.ValidationError{Field: linkifiers.FieldAll,
				Msg: "Realm playground with this Realm, Pygments language and Name already exists."})
		} else if err != nil {
			return err
		}
		res.ID = id
		return notifyPlaygrounds(tx, ev)
	})
	if err != nil {
		return AddCodePlaygroundResult{}, err
	}
	return res, nil
}

// RemoveCodePlaygroundParams are the parameters of DELETE /realm/playgrounds/{playground_id}.
type RemoveCodePlaygroundParams struct {
	PlaygroundID linkifiers.PlaygroundID
}

// RemoveCodePlaygroundResult is empty.
type RemoveCodePlaygroundResult struct{}

// RemoveCodePlayground deletes a playground (administrators only).
func (s *Service) RemoveCodePlayground(ctx context.Context, actor engine.Actor, p RemoveCodePlaygroundParams) (RemoveCodePlaygroundResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		invalid := func() *engine.Error { return engine.BadRequest("Invalid playground") }
		if err := engine.NotFound(tx.Playgrounds().Delete(p.PlaygroundID), invalid); err != nil {
			return err
		}
		return notifyPlaygrounds(tx, ev)
	})
	return RemoveCodePlaygroundResult{}, err
}

// PlaygroundRecords lists the organization's playgrounds, ascending by id.
func PlaygroundRecords(r storage.PlaygroundReader) ([]PlaygroundRecord, error) {
	all, err := r.List()
	if err != nil {
		return nil, err
	}
	out := make([]PlaygroundRecord, len(all))
	for i, p := range all {
		out[i] = playgroundRecord(p)
	}
	return out, nil
}

// notifyPlaygrounds sends the new list to every active user.
func notifyPlaygrounds(tx storage.Tx, ev *engine.Events) error {
	list, err := PlaygroundRecords(tx.Playgrounds())
	if err != nil {
		return err
	}
	to, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	ev.Emit(RealmPlaygroundsEvent{Type: "realm_playgrounds", RealmPlaygrounds: list}, to)
	return nil
}
