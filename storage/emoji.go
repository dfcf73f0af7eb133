package storage

import "github.com/teamchat/chat/emoji"

// EmojiReader reads the organization's custom emoji (part of the realm accessor).
type EmojiReader interface {
	// ListEmoji returns every custom emoji, deactivated ones included, ascending by id.
	ListEmoji() ([]emoji.Custom, error)
}

// EmojiWriter stores custom emoji.
type EmojiWriter interface {
	EmojiReader
	// CreateEmoji stores a new custom emoji (its ID is ignored) and returns its id;
	// ErrConflict when an active emoji has its name.
	CreateEmoji(emoji.Custom) (emoji.ID, error)
	// UpdateEmoji replaces a custom emoji; ErrNotFound for an unknown id, ErrConflict when
	// the change would give two active emoji one name.
	UpdateEmoji(emoji.Custom) error
}
