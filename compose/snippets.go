package compose

import (
	"context"

	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// SavedSnippetRecord is a saved snippet as the API returns it.
type SavedSnippetRecord struct {
	ID          drafts.SnippetID `json:"id"`
	Title       string           `json:"title"`
	Content     string           `json:"content"`
	DateCreated int64            `json:"date_created"`
}

func savedSnippetRecord(s drafts.SavedSnippet) SavedSnippetRecord {
	return SavedSnippetRecord{ID: s.ID, Title: s.Title, Content: s.Content, DateCreated: s.DateCreated}
}

// SavedSnippetsEvent is a saved_snippets event: op add or update (SavedSnippet, the whole
// record) or remove (SavedSnippetID).
type SavedSnippetsEvent struct {
	Type           string              `json:"type"`
	Op             string              `json:"op"`
	SavedSnippet   *SavedSnippetRecord `json:"saved_snippet,omitempty"`
	SavedSnippetID drafts.SnippetID    `json:"saved_snippet_id,omitempty"`
}

// errSnippetNotFound is Zulip's answer for an unknown snippet or another user's.
func errSnippetNotFound() *engine.Error {
	return &engine.Error{Code: engine.CodeBadRequest, Status: 404, Msg: "Saved snippet does not exist."}
}

// GetSavedSnippetsParams are the parameters of GET /saved_snippets (none).
type GetSavedSnippetsParams struct{}

// GetSavedSnippetsResult lists the actor's snippets, ascending by id.
type GetSavedSnippetsResult struct {
	SavedSnippets []SavedSnippetRecord `json:"saved_snippets"`
}

// GetSavedSnippets returns the actor's saved snippets.
func (s *Service) GetSavedSnippets(ctx context.Context, actor engine.Actor, _ GetSavedSnippetsParams) (GetSavedSnippetsResult, error) {
	var res GetSavedSnippetsResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		var err error
		res.SavedSnippets, err = registerSavedSnippets(o.Tx.SavedSnippets(), o.Me)
		return err
	})
	return res, err
}

// CreateSavedSnippetParams are the parameters of POST /saved_snippets.
type CreateSavedSnippetParams struct {
	Title   string
	Content string
}

// CreateSavedSnippetResult holds the new snippet's id.
type CreateSavedSnippetResult struct {
	SavedSnippetID drafts.SnippetID `json:"saved_snippet_id"`
}

// CreateSavedSnippet stores a snippet of the actor (title and content stripped, neither
// blank) and sends a saved_snippets add event to the actor.
func (s *Service) CreateSavedSnippet(ctx context.Context, actor engine.Actor, p CreateSavedSnippetParams) (CreateSavedSnippetResult, error) {
	title, err := drafts.CheckSnippetTitle(p.Title)
	if err != nil {
		return CreateSavedSnippetResult{}, engine.RuleError(err)
	}
	content, err := drafts.CheckSnippetContent(p.Content)
	if err != nil {
		return CreateSavedSnippetResult{}, engine.RuleError(err)
	}
	var res CreateSavedSnippetResult
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		sn := drafts.SavedSnippet{UserID: u.ID, Title: title, Content: content, DateCreated: o.Now.Unix()}
		if sn.ID, err = tx.SavedSnippets().Create(sn); err != nil {
			return err
		}
		res.SavedSnippetID = sn.ID
		rec := savedSnippetRecord(sn)
		ev.Emit(SavedSnippetsEvent{Type: "saved_snippets", Op: "add", SavedSnippet: &rec}, []int64{int64(u.ID)})
		return nil
	})
	if err != nil {
		return CreateSavedSnippetResult{}, err
	}
	return res, nil
}

// EditSavedSnippetParams are the parameters of PATCH /saved_snippets/{saved_snippet_id}; nil
// fields are unchanged.
type EditSavedSnippetParams struct {
	SavedSnippetID drafts.SnippetID
	Title          *string
	Content        *string
}

// EditSavedSnippetResult is empty.
type EditSavedSnippetResult struct{}

// EditSavedSnippet changes the title and/or content of one of the actor's snippets and sends
// a saved_snippets update event with the whole record. Neither field given changes nothing
// and sends nothing.
func (s *Service) EditSavedSnippet(ctx context.Context, actor engine.Actor, p EditSavedSnippetParams) (EditSavedSnippetResult, error) {
	var title, content string
	var err error
	if p.Title != nil {
		if title, err = drafts.CheckSnippetTitle(*p.Title); err != nil {
			return EditSavedSnippetResult{}, engine.RuleError(err)
		}
	}
	if p.Content != nil {
		if content, err = drafts.CheckSnippetContent(*p.Content); err != nil {
			return EditSavedSnippetResult{}, engine.RuleError(err)
		}
	}
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		sn, err := tx.SavedSnippets().Get(u.ID, p.SavedSnippetID)
		if err != nil {
			return engine.NotFound(err, errSnippetNotFound)
		}
		if p.Title == nil && p.Content == nil {
			return nil
		}
		if p.Title != nil {
			sn.Title = title
		}
		if p.Content != nil {
			sn.Content = content
		}
		if err := tx.SavedSnippets().Update(sn); err != nil {
			return err
		}
		rec := savedSnippetRecord(sn)
		ev.Emit(SavedSnippetsEvent{Type: "saved_snippets", Op: "update", SavedSnippet: &rec}, []int64{int64(u.ID)})
		return nil
	})
	return EditSavedSnippetResult{}, err
}

// DeleteSavedSnippetParams are the parameters of DELETE /saved_snippets/{saved_snippet_id}.
type DeleteSavedSnippetParams struct {
	SavedSnippetID drafts.SnippetID
}

// DeleteSavedSnippetResult is empty.
type DeleteSavedSnippetResult struct{}

// DeleteSavedSnippet removes one of the actor's snippets and sends a saved_snippets remove
// event.
func (s *Service) DeleteSavedSnippet(ctx context.Context, actor engine.Actor, p DeleteSavedSnippetParams) (DeleteSavedSnippetResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		if err := tx.SavedSnippets().Delete(u.ID, p.SavedSnippetID); err != nil {
			return engine.NotFound(err, errSnippetNotFound)
		}
		ev.Emit(SavedSnippetsEvent{Type: "saved_snippets", Op: "remove", SavedSnippetID: p.SavedSnippetID}, []int64{int64(u.ID)})
		return nil
	})
	return DeleteSavedSnippetResult{}, err
}

// registerSavedSnippets lists the viewer's snippets (register's saved_snippets).
func registerSavedSnippets(r storage.SnippetReader, viewer users.User) ([]SavedSnippetRecord, error) {
	out := []SavedSnippetRecord{}
	if viewer.ID == 0 {
		return out, nil
	}
	list, err := r.ListForUser(viewer.ID)
	if err != nil {
		return nil, err
	}
	for _, sn := range list {
		out = append(out, savedSnippetRecord(sn))
	}
	return out, nil
}
