package storage

import (
	"github.com/teamchat/chat/realms"
)

// RealmReader reads the organization record.
type RealmReader interface {
	EmojiReader
	// Get returns the organization; ErrNotFound before one is stored.
	Get() (realms.Realm, error)
}

// RealmWriter stores the organization record.
type RealmWriter interface {
	RealmReader
	EmojiWriter
	// Put creates or replaces the organization.
	Put(realms.Realm) error
}
