package compose

import (
	"context"
	"errors"

	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// NavigationViewRecord is a navigation view as the API returns it; Name is omitted for
// built-in views.
type NavigationViewRecord struct {
	Fragment string  `json:"fragment"`
	IsPinned bool    `json:"is_pinned"`
	Name     *string `json:"name,omitempty"`
}

func navigationViewRecord(v drafts.NavigationView) NavigationViewRecord {
	v = v.Clone()
	return NavigationViewRecord{Fragment: v.Fragment, IsPinned: v.IsPinned, Name: v.Name}
}

// NavigationViewUpdate is the data of a navigation_view update event: the changed properties.
type NavigationViewUpdate struct {
	Name     *string `json:"name,omitempty"`
	IsPinned *bool   `json:"is_pinned,omitempty"`
}

// NavigationViewEvent is a navigation_view event: op add (NavigationView), update (Fragment
// and Data) or remove (Fragment).
type NavigationViewEvent struct {
	Type           string                `json:"type"`
	Op             string                `json:"op"`
	NavigationView *NavigationViewRecord `json:"navigation_view,omitempty"`
	Fragment       string                `json:"fragment,omitempty"`
	Data           *NavigationViewUpdate `json:"data,omitempty"`
}

// errNavigationViewNotFound is Zulip's answer for an unknown fragment.
func errNavigationViewNotFound() *engine.Error {
	return engine.Errorf(engine.CodeNotFound, "Navigation view does not exist.")
}

// GetNavigationViewsParams are the parameters of GET /navigation_views (none).
type GetNavigationViewsParams struct{}

// GetNavigationViewsResult lists the actor's views in the order they were added.
type GetNavigationViewsResult struct {
	NavigationViews []NavigationViewRecord `json:"navigation_views"`
}

// GetNavigationViews returns the actor's navigation views.
func (s *Service) GetNavigationViews(ctx context.Context, actor engine.Actor, _ GetNavigationViewsParams) (GetNavigationViewsResult, error) {
	var res GetNavigationViewsResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		var err error
		res.NavigationViews, err = registerNavigationViews(o.Tx.NavigationViews(), o.Me)
		return err
	})
	return res, err
}

// AddNavigationViewParams are the parameters of POST /navigation_views. Name must be nil for a
// built-in view and set for a custom one.
type AddNavigationViewParams struct {
	Fragment string
	IsPinned bool
	Name     *string
}

// AddNavigationViewResult is empty.
type AddNavigationViewResult struct{}

// AddNavigationView configures a built-in view or adds a custom one for the actor, and sends
// a navigation_view add event to the actor. Fragments and names are unique per user.
func (s *Service) AddNavigationView(ctx context.Context, actor engine.Actor, p AddNavigationViewParams) (AddNavigationViewResult, error) {
	fragment, err := drafts.CheckFragment(p.Fragment)
	if err != nil {
		return AddNavigationViewResult{}, engine.RuleError(err)
	}
	v := drafts.NavigationView{Fragment: fragment, IsPinned: p.IsPinned}
	if p.Name != nil {
		name, err := drafts.CheckViewName(*p.Name)
		if err != nil {
			return AddNavigationViewResult{}, engine.RuleError(err)
		}
		v.Name = &name
	}
	if err := drafts.CheckNewView(v); err != nil {
		return AddNavigationViewResult{}, engine.RuleError(err)
	}
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		v.UserID = u.ID
		mine, err := tx.NavigationViews().ListForUser(u.ID)
		if err != nil {
			return err
		}
		if len(mine) >= drafts.MaxNavigationViews {
			return engine.BadRequest("Too many navigation views (limit: %d)", drafts.MaxNavigationViews)
		}
		if err := tx.NavigationViews().Create(v); errors.Is(err, storage.ErrConflict) {
			return engine.RuleError(drafts.ErrViewAlreadyExists)
		} else if err != nil {
			return err
		}
		rec := navigationViewRecord(v)
		ev.Emit(NavigationViewEvent{Type: "navigation_view", Op: "add", NavigationView: &rec}, []int64{int64(u.ID)})
		return nil
	})
	return AddNavigationViewResult{}, err
}

// EditNavigationViewParams are the parameters of PATCH /navigation_views/{fragment}; nil
// fields are unchanged.
type EditNavigationViewParams struct {
	Fragment string
	IsPinned *bool
	Name     *string
}

// EditNavigationViewResult is empty.
type EditNavigationViewResult struct{}

// EditNavigationView changes whether one of the actor's views is pinned and/or a custom
// view's name, and sends a navigation_view update event with the changed properties.
func (s *Service) EditNavigationView(ctx context.Context, actor engine.Actor, p EditNavigationViewParams) (EditNavigationViewResult, error) {
	fragment, err := drafts.CheckFragment(p.Fragment)
	if err != nil {
		return EditNavigationViewResult{}, engine.RuleError(err)
	}
	var name string
	if p.Name != nil {
		if drafts.IsBuiltInView(fragment) {
			return EditNavigationViewResult{}, engine.RuleError(drafts.ErrBuiltInViewName)
		}
		if name, err = drafts.CheckViewName(*p.Name); err != nil {
			return EditNavigationViewResult{}, engine.RuleError(err)
		}
	}
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		v, err := tx.NavigationViews().Get(u.ID, fragment)
		if err != nil {
			return engine.NotFound(err, errNavigationViewNotFound)
		}
		if p.Name == nil && p.IsPinned == nil {
			return nil
		}
		var data NavigationViewUpdate
		if p.Name != nil {
			v.Name = &name
			data.Name = &name
		}
		if p.IsPinned != nil {
			pinned := *p.IsPinned
			v.IsPinned = pinned
			data.IsPinned = &pinned
		}
		if err := tx.NavigationViews().Update(v); errors.Is(err, storage.ErrConflict) {
			return engine.RuleError(drafts.ErrViewAlreadyExists)
		} else if err != nil {
			return err
		}
		ev.Emit(NavigationViewEvent{Type: "navigation_view", Op: "update", Fragment: fragment, Data: &data}, []int64{int64(u.ID)})
		return nil
	})
	return EditNavigationViewResult{}, err
}

// RemoveNavigationViewParams are the parameters of DELETE /navigation_views/{fragment}.
type RemoveNavigationViewParams struct {
	Fragment string
}

// RemoveNavigationViewResult is empty.
type RemoveNavigationViewResult struct{}

// RemoveNavigationView removes one of the actor's views (a built-in view returns to its
// defaults) and sends a navigation_view remove event.
func (s *Service) RemoveNavigationView(ctx context.Context, actor engine.Actor, p RemoveNavigationViewParams) (RemoveNavigationViewResult, error) {
	fragment, err := drafts.CheckFragment(p.Fragment)
	if err != nil {
		return RemoveNavigationViewResult{}, engine.RuleError(err)
	}
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, u := o.Tx, o.Ev, o.Me
		if err := tx.NavigationViews().Delete(u.ID, fragment); err != nil {
			return engine.NotFound(err, errNavigationViewNotFound)
		}
		ev.Emit(NavigationViewEvent{Type: "navigation_view", Op: "remove", Fragment: fragment}, []int64{int64(u.ID)})
		return nil
	})
	return RemoveNavigationViewResult{}, err
}

// registerNavigationViews lists the viewer's views (register's navigation_views).
func registerNavigationViews(r storage.NavigationViewReader, viewer users.User) ([]NavigationViewRecord, error) {
	out := []NavigationViewRecord{}
	if viewer.ID == 0 {
		return out, nil
	}
	list, err := r.ListForUser(viewer.ID)
	if err != nil {
		return nil, err
	}
	for _, v := range list {
		out = append(out, navigationViewRecord(v))
	}
	return out, nil
}
