package memory

import (
	"slices"

	"github.com/teamchat/chat/users"
)

// groupTx is the user-groups accessor; j is nil in a read-only transaction.
type groupTx struct {
	t *readTx
	j *journal
}

func cloneGroup(g users.Group) users.Group { return g.Clone() }

func (a groupTx) Get(id users.GroupID) (users.Group, error) {
	if err := a.t.live(); err != nil {
		return users.Group{}, err
	}
	g, ok := a.t.d.groups[id]
	if !ok {
		return users.Group{}, notFound("group", id)
	}
	return cloneGroup(g), nil
}

func (a groupTx) GetByName(name string) (users.Group, error) {
	if err := a.t.live(); err != nil {
		return users.Group{}, err
	}
	id, ok := a.t.d.groupByName[name]
	if !ok {
		return users.Group{}, notFound("group named", name)
	}
	return cloneGroup(a.t.d.groups[id]), nil
}

func (a groupTx) List() ([]users.Group, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.groups, cloneGroup), nil
}

func (a groupTx) ListShared() ([]users.Group, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	// Stored groups are never modified in place (put stores a copy), so the list can hold
	// them as they are.
	return keptSorted(&a.t.d.groupList, a.t.d.groups), nil
}

func (a groupTx) ListForUser(u users.ID) ([]users.Group, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	mine := map[users.GroupID]users.Group{}
	for id, g := range a.t.d.groups {
		if _, ok := slices.BinarySearch(g.Members, u); ok {
			mine[id] = g
		}
	}
	return sortedValues(mine, cloneGroup), nil
}

func (a groupTx) Create(g users.Group) (users.GroupID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if _, ok := a.t.d.groupByName[g.Name]; ok {
		return 0, conflict("group name")
	}
	g.ID = nextID(a.j, &a.t.d.groupSeq)
	a.put(normalizeGroup(g))
	return g.ID, nil
}

func (a groupTx) Update(g users.Group) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old, ok := a.t.d.groups[g.ID]
	if !ok {
		return notFound("group", g.ID)
	}
	if id, ok := a.t.d.groupByName[g.Name]; ok && id != g.ID {
		return conflict("group name")
	}
	deleteKey(a.j, a.t.d.groupByName, old.Name)
	a.put(normalizeGroup(g))
	return nil
}

func (a groupTx) AddMembers(id users.GroupID, members []users.ID) error {
	return a.change(id, func(g *users.Group) { g.Members = append(g.Members, members...) })
}

func (a groupTx) RemoveMembers(id users.GroupID, members []users.ID) error {
	drop := make(map[users.ID]bool, len(members))
	for _, m := range members {
		drop[m] = true
	}
	return a.change(id, func(g *users.Group) {
		g.Members = slices.DeleteFunc(g.Members, func(m users.ID) bool { return drop[m] })
	})
}

// change applies edit to a copy of the group and stores it.
func (a groupTx) change(id users.GroupID, edit func(*users.Group)) error {
	if err := a.t.live(); err != nil {
		return err
	}
	g, ok := a.t.d.groups[id]
	if !ok {
		return notFound("group", id)
	}
	g = cloneGroup(g)
	edit(&g)
	a.put(normalizeGroup(g))
	return nil
}

func (a groupTx) put(g users.Group) {
	// The shared list goes with any write, and again when the write is undone.
	a.t.d.groupList.Store(nil)
	a.j.undo = append(a.j.undo, func() { a.t.d.groupList.Store(nil) })
	setKey(a.j, a.t.d.groups, g.ID, g)
	setKey(a.j, a.t.d.groupByName, g.Name, g.ID)
}

// normalizeGroup copies the lists, sorted and without duplicates.
func normalizeGroup(g users.Group) users.Group {
	g = cloneGroup(g)
	slices.Sort(g.Members)
	g.Members = slices.Compact(g.Members)
	slices.Sort(g.Subgroups)
	g.Subgroups = slices.Compact(g.Subgroups)
	return g
}
