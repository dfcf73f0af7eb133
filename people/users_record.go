package people

import (
	"crypto/md5"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// UserRecord is a user as the API shows it to one viewer (GET /users/{id}, register's
// realm_users, realm_user add events).
type UserRecord struct {
	Email         string     `json:"email"`
	UserID        users.ID   `json:"user_id"`
	AvatarVersion int        `json:"avatar_version"`
	IsAdmin       bool       `json:"is_admin"`
	IsOwner       bool       `json:"is_owner"`
	IsGuest       bool       `json:"is_guest"`
	Role          users.Role `json:"role"`
	IsBot         bool       `json:"is_bot"`
	FullName      string     `json:"full_name"`
	Timezone      string     `json:"timezone"`
	IsActive      *bool      `json:"is_active,omitempty"`
	DateJoined    string     `json:"date_joined"`
	DeliveryEmail *string    `json:"delivery_email"`
	AvatarURL     *string    `json:"avatar_url"`
	// BotType and BotOwnerID are present for bots only (an ownerless bot's owner is null).
	BotType        *users.BotType `json:"bot_type,omitempty"`
	BotOwnerID     *BotOwner      `json:"bot_owner_id,omitempty"`
	IsImportedStub bool           `json:"is_imported_stub"`
	IsDeleted      bool           `json:"is_deleted,omitempty"`
	// IsSystemBot is set in register's cross_realm_bots.
	IsSystemBot bool `json:"is_system_bot,omitempty"`
	// ProfileData is present only for humans when custom profile fields were requested.
	ProfileData *ProfileData `json:"profile_data,omitempty"`
}

// ProfileData maps custom profile field ids (as strings) to a user's values.
type ProfileData map[string]ProfileDataValue

// ProfileDataValue is one custom profile field value of a user; RenderedValue is set for the
// Markdown-capable field types.
type ProfileDataValue struct {
	Value         string  `json:"value"`
	RenderedValue *string `json:"rendered_value,omitempty"`
}

// recordOptions select the variant of a user record.
type recordOptions struct {
	// clientGravatar lets the client compute Gravatar URLs itself: avatar_url is null for
	// Gravatar avatars of users whose email the viewer may see.
	clientGravatar bool
	// omitIsActive drops is_active (register's realm_users lists imply it).
	omitIsActive bool
}

// dateJoinedLayout is Zulip's ISO 8601 form with microseconds and offset.
const dateJoinedLayout = "2006-01-02T15:04:05.000000-07:00"

// userRecord renders u for viewer.
func userRecord(domain string, viewer, u users.User, o recordOptions) UserRecord {
	rec := UserRecord{
		Email:          world.APIEmail(domain, u),
		UserID:         u.ID,
		AvatarVersion:  u.AvatarVersion,
		IsAdmin:        u.Role.IsAdmin(),
		IsOwner:        u.Role == users.RoleOwner,
		IsGuest:        u.Role == users.RoleGuest,
		Role:           u.Role,
		IsBot:          u.IsBot(),
		FullName:       u.FullName,
		Timezone:       u.Timezone,
		DateJoined:     u.DateJoined.UTC().Format(dateJoinedLayout),
		IsImportedStub: u.IsImportedStub,
		IsDeleted:      u.IsDeleted,
	}
	if !o.omitIsActive {
		active := u.IsActive
		rec.IsActive = &active
	}
	visible := users.CanSeeEmail(viewer, u)
	if visible {
		email := u.Email
		rec.DeliveryEmail = &email
	}
	if !(o.clientGravatar && visible && u.AvatarSource == users.AvatarGravatar) {
		url := AvatarURL(u)
		rec.AvatarURL = &url
	}
	if u.IsBot() {
		bt := u.BotType
		rec.BotType = &bt
		rec.BotOwnerID = &BotOwner{ID: u.BotOwnerID}
	}
	return rec
}

// MemberRecord is the user record of GET /users and GET /users/{id} (or {email}): the spec's,
// where bot_type and bot_owner_id are always present, null for humans. GET /users/me, register
// and events keep Zulip's form, which leaves them out for humans (UserRecord).
type MemberRecord struct {
	UserRecord
	BotType    *users.BotType `json:"bot_type"`
	BotOwnerID *BotOwner      `json:"bot_owner_id"`
}

// memberRecord is rec in the form of MemberRecord.
func memberRecord(rec UserRecord) MemberRecord {
	return MemberRecord{UserRecord: rec, BotType: rec.BotType, BotOwnerID: rec.BotOwnerID}
}

// BotOwner is a bot's bot_owner_id: the owner's id, or null for a bot without one.
type BotOwner struct{ ID users.ID }

// MarshalJSON writes the id, or null.
func (o BotOwner) MarshalJSON() ([]byte, error) {
	if o.ID == 0 {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(o.ID), 10), nil
}

// UnmarshalJSON reads an id or null.
func (o *BotOwner) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		o.ID = 0
		return nil
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	o.ID = users.ID(n)
	return err
}

// AvatarURL is the URL of a user's avatar, versioned for cache busting: the uploaded image
// (/user_avatars/...) or the Gravatar identicon.
func AvatarURL(u users.User) string {
	if u.AvatarSource == users.AvatarUploaded {
		return "/user_avatars/" + uploads.AvatarPath(u.ID, false) + "?version=" + strconv.Itoa(u.AvatarVersion)
	}
	sum := md5.Sum([]byte(strings.ToLower(u.Email)))
	return "https://secure.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?d=identicon&version=" + strconv.Itoa(u.AvatarVersion)
}

// AvatarMediumURL is the URL of the medium size of a user's avatar.
func AvatarMediumURL(u users.User) string {
	if u.AvatarSource == users.AvatarUploaded {
		return "/user_avatars/" + uploads.AvatarPath(u.ID, true) + "?version=" + strconv.Itoa(u.AvatarVersion)
	}
	return AvatarURL(u) + "&s=500"
}
