package memory

import (
	"cmp"
	"slices"

	"github.com/teamchat/chat/linkifiers"
)

// linkifierTx is the linkifiers accessor; j is nil in a read-only transaction.
type linkifierTx struct {
	t *readTx
	j *journal
}

func cloneLinkifier(l linkifiers.Linkifier) linkifiers.Linkifier { return l.Clone() }

func (a linkifierTx) Get(id linkifiers.ID) (linkifiers.Linkifier, error) {
	if err := a.t.live(); err != nil {
		return linkifiers.Linkifier{}, err
	}
	l, ok := a.t.d.linkifiers[id]
	if !ok {
		return linkifiers.Linkifier{}, notFound("linkifier", id)
	}
	return l.Clone(), nil
}

func (a linkifierTx) List() ([]linkifiers.Linkifier, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	out := sortedValues(a.t.d.linkifiers, cloneLinkifier)
	slices.SortStableFunc(out, func(x, y linkifiers.Linkifier) int {
		return cmp.Or(cmp.Compare(x.Order, y.Order), cmp.Compare(x.ID, y.ID))
	})
	return out, nil
}

// patternTaken reports whether a linkifier other than self has the pattern.
func (a linkifierTx) patternTaken(pattern string, self linkifiers.ID) bool {
	for id, l := range a.t.d.linkifiers {
		if id != self && l.Pattern == pattern {
			return true
		}
	}
	return false
}

func (a linkifierTx) Create(l linkifiers.Linkifier) (linkifiers.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if a.patternTaken(l.Pattern, 0) {
		return 0, conflict("linkifier pattern")
	}
	l = l.Clone()
	l.Order = 0
	for _, x := range a.t.d.linkifiers {
		l.Order = max(l.Order, x.Order+1)
	}
	l.ID = nextID(a.j, &a.t.d.linkifierSeq)
	setKey(a.j, a.t.d.linkifiers, l.ID, l)
	return l.ID, nil
}

func (a linkifierTx) Update(l linkifiers.Linkifier) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.linkifiers[l.ID]
	if !ok {
		return notFound("linkifier", l.ID)
	}
	if a.patternTaken(l.Pattern, l.ID) {
		return conflict("linkifier pattern")
	}
	l = l.Clone()
	l.Order = old.Order
	setKey(a.j, a.t.d.linkifiers, l.ID, l)
	return nil
}

func (a linkifierTx) Delete(id linkifiers.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.linkifiers[id]; !ok {
		return notFound("linkifier", id)
	}
	deleteKey(a.j, a.t.d.linkifiers, id)
	return nil
}

func (a linkifierTx) Reorder(ids []linkifiers.ID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	for _, id := range ids {
		if _, ok := a.t.d.linkifiers[id]; !ok {
			return notFound("linkifier", id)
		}
	}
	for i, id := range ids {
		l := a.t.d.linkifiers[id].Clone()
		l.Order = i
		setKey(a.j, a.t.d.linkifiers, id, l)
	}
	return nil
}

// playgroundTx is the code-playgrounds accessor; j is nil in a read-only transaction.
type playgroundTx struct {
	t *readTx
	j *journal
}

func (a playgroundTx) Get(id linkifiers.PlaygroundID) (linkifiers.Playground, error) {
	if err := a.t.live(); err != nil {
		return linkifiers.Playground{}, err
	}
	p, ok := a.t.d.playgrounds[id]
	if !ok {
		return linkifiers.Playground{}, notFound("playground", id)
	}
	return p, nil
}

func (a playgroundTx) List() ([]linkifiers.Playground, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.playgrounds, same), nil
}

func (a playgroundTx) Create(p linkifiers.Playground) (linkifiers.PlaygroundID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	for _, x := range a.t.d.playgrounds {
		if x.Language == p.Language && x.Name == p.Name {
			return 0, conflict("playground language and name")
		}
	}
	p.ID = nextID(a.j, &a.t.d.playgroundSeq)
	setKey(a.j, a.t.d.playgrounds, p.ID, p)
	return p.ID, nil
}

func (a playgroundTx) Delete(id linkifiers.PlaygroundID) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.playgrounds[id]; !ok {
		return notFound("playground", id)
	}
	deleteKey(a.j, a.t.d.playgrounds, id)
	return nil
}
