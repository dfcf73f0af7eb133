package memory

import (
	"github.com/teamchat/chat/emoji"
)

func (a realmTx) ListEmoji() ([]emoji.Custom, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return sortedValues(a.t.d.emoji, func(c emoji.Custom) emoji.Custom { return c }), nil
}

// activeNameTaken reports whether an active emoji other than id has the name.
func (a realmTx) activeNameTaken(name string, id emoji.ID) bool {
	for _, c := range a.t.d.emoji {
		if c.ID != id && !c.Deactivated && c.Name == name {
			return true
		}
	}
	return false
}

func (a realmTx) CreateEmoji(c emoji.Custom) (emoji.ID, error) {
	if err := a.t.live(); err != nil {
		return 0, err
	}
	if !c.Deactivated && a.activeNameTaken(c.Name, 0) {
		return 0, conflict("emoji " + c.Name)
	}
	c.ID = nextID(a.j, &a.t.d.emojiSeq)
	setKey(a.j, a.t.d.emoji, c.ID, c)
	return c.ID, nil
}

func (a realmTx) UpdateEmoji(c emoji.Custom) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.t.d.emoji[c.ID]; !ok {
		return notFound("emoji", c.ID)
	}
	if !c.Deactivated && a.activeNameTaken(c.Name, c.ID) {
		return conflict("emoji " + c.Name)
	}
	setKey(a.j, a.t.d.emoji, c.ID, c)
	return nil
}
