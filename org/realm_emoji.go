package org

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/emoji"
	"github.com/teamchat/chat/images"
	"github.com/teamchat/chat/internal/clients"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// EmojiImageStore keeps the image files of custom emoji (Options.EmojiImages). The blob store
// of uploads can stand behind it; Put writes the file at path (relative to /user_avatars/),
// whole or not at all; Open reads it back (blobs.ErrNotFound when there is none).
type EmojiImageStore interface {
	PutEmojiImage(ctx context.Context, path string, image []byte) error
	OpenEmojiImage(ctx context.Context, path string) (blobs.Object, error)
}

// BlobEmojiImages keeps custom emoji images in the blob store of uploads, under emoji/.
type BlobEmojiImages struct{ store blobs.Store }

// NewBlobEmojiImages keeps custom emoji images in store.
func NewBlobEmojiImages(store blobs.Store) BlobEmojiImages { return BlobEmojiImages{store} }

// PutEmojiImage stores an emoji's image at path.
func (b BlobEmojiImages) PutEmojiImage(ctx context.Context, path string, image []byte) error {
	_, err := b.store.Put(ctx, "emoji/"+path, bytes.NewReader(image))
	return err
}

// OpenEmojiImage opens the emoji image at path.
func (b BlobEmojiImages) OpenEmojiImage(ctx context.Context, path string) (blobs.Object, error) {
	return b.store.Open(ctx, "emoji/"+path)
}

// MaxEmojiFileSize bounds a custom emoji's image (Zulip's MAX_EMOJI_FILE_SIZE_MIB, 5 MiB).
const MaxEmojiFileSize = 5 << 20

// ServerEmojiDataPath is where the server emoji data file (register's server_emoji_data_url)
// is served, relative to the organization's URL.
const ServerEmojiDataPath = "/static/generated/emoji/emoji_api.json"

// RealmEmojiRecord is a custom emoji as the API shows it.
type RealmEmojiRecord struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	SourceURL   string    `json:"source_url"`
	StillURL    *string   `json:"still_url"`
	Deactivated bool      `json:"deactivated"`
	AuthorID    *users.ID `json:"author_id"`
}

// EmojiState is register's realm_emoji (fetch type realm_emoji) and server_emoji_data_url
// (fetch type realm).
type EmojiState struct {
	RealmEmoji         *map[string]RealmEmojiRecord `json:"realm_emoji,omitempty"`
	ServerEmojiDataURL *string                      `json:"server_emoji_data_url,omitempty"`
}

// GetCustomEmojiResult lists every custom emoji of the organization by id.
type GetCustomEmojiResult struct {
	Emoji map[string]RealmEmojiRecord `json:"emoji"`
}

// UploadCustomEmojiParams are the parameters of POST /realm/emoji/{emoji_name}.
type UploadCustomEmojiParams struct {
	Name string
	// Files is how many files the request carried; Image is the one file's bytes.
	Files int
	Image []byte
}

// DeactivateCustomEmojiParams are the parameters of DELETE /realm/emoji/{emoji_name}.
type DeactivateCustomEmojiParams struct {
	Name string
}

// ServerEmojiData is the server emoji data file: every unicode emoji's names by code, the
// canonical name first.
type ServerEmojiData struct {
	CodeToNames map[string][]string `json:"code_to_names"`
}

// RealmEmojiEvent is a realm_emoji event: op update with every custom emoji for clients
// without the individual_emoji_changes capability; op add (Emoji) or update_one (EmojiID and
// Data) for those with it.
type RealmEmojiEvent struct {
	Type       string                       `json:"type"`
	Op         string                       `json:"op"`
	RealmEmoji *map[string]RealmEmojiRecord `json:"realm_emoji,omitempty"`
	Emoji      *RealmEmojiRecord            `json:"emoji,omitempty"`
	EmojiID    string                       `json:"emoji_id,omitempty"`
	Data       map[string]any               `json:"data,omitempty"`
}

// Errors of custom emoji; their text is Zulip's.
var (
	errEmojiNameTaken     = engine.BadRequest("A custom emoji with this name already exists.")
	errOneFile            = engine.BadRequest("You must upload exactly one file.")
	errOverrideDefault    = engine.BadRequest("Only administrators can override default emoji.")
	errEmojiTooLarge      = engine.BadRequest("Uploaded file is larger than the allowed limit of 5 MiB")
	errInvalidImage       = engine.BadRequest("Invalid image format")
	errNoEmojiImages      = engine.BadRequest("Custom emoji uploads are not available on this server")
	errEmojiRemoveDenied  = engine.BadRequest("Must be an organization administrator or emoji author")
	imageTypes            = map[string]string{"image/png": ".png", "image/gif": ".gif", "image/jpeg": ".jpeg", "image/webp": ".webp"}
	emojiImageRealmPrefix = "1/emoji/images/"
)

func errCustomEmojiNotFound(name string) *engine.Error {
	e := engine.BadRequest("Emoji '%s' does not exist", name)
	e.Status = http.StatusNotFound
	return e
}

// emojiRecordOf shows a custom emoji.
func emojiRecordOf(c emoji.Custom) RealmEmojiRecord {
	r := RealmEmojiRecord{
		ID: c.ID.String(), Name: c.Name, SourceURL: "/user_avatars/" + emojiImageRealmPrefix + c.FileName,
		Deactivated: c.Deactivated,
	}
	if c.StillFileName != "" {
		u := "/user_avatars/" + emojiImageRealmPrefix + c.StillFileName
		r.StillURL = &u
	}
	if c.AuthorID != 0 {
		id := c.AuthorID
		r.AuthorID = &id
	}
	return r
}

// realmEmojiRecords shows every custom emoji by id.
func realmEmojiRecords(list []emoji.Custom) map[string]RealmEmojiRecord {
	out := make(map[string]RealmEmojiRecord, len(list))
	for _, c := range list {
		out[c.ID.String()] = emojiRecordOf(c)
	}
	return out
}

// GetCustomEmoji lists the organization's custom emoji, deactivated ones included.
func (s *Service) GetCustomEmoji(ctx context.Context, actor engine.Actor) (GetCustomEmojiResult, error) {
	var res GetCustomEmojiResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		list, err := o.Tx.Realm().ListEmoji()
		res.Emoji = realmEmojiRecords(list)
		return err
	})
	return res, err
}

// UploadCustomEmojiResult is UploadCustomEmoji's answer: nothing beyond success.
type UploadCustomEmojiResult struct{}

// UploadCustomEmoji adds a custom emoji with the uploaded image, resized to at most
// images.EmojiSize pixels square (an animated GIF also gets a still PNG, its still_url) and
// stored through Options.EmojiImages before the emoji's row is written.
func (s *Service) UploadCustomEmoji(ctx context.Context, actor engine.Actor, p UploadCustomEmojiParams) (UploadCustomEmojiResult, error) {
	name := strings.ReplaceAll(strings.TrimSpace(p.Name), " ", "_")
	if err := emoji.CheckName(name); err != nil {
		return UploadCustomEmojiResult{}, engine.RuleError(err)
	}
	if err := s.checkEmojiUpload(ctx, actor, name, p); err != nil {
		return UploadCustomEmojiResult{}, err
	}
	// Resized before anything is stored, as Zulip's resize_emoji: a refusal stores nothing.
	img, err := s.images.Emoji(ctx, p.Image)
	if err != nil {
		return UploadCustomEmojiResult{}, ImageError(err)
	}
	sum := sha256.Sum256(p.Image)
	file, still := hex.EncodeToString(sum[:12])+"."+img.Format, ""
	if img.Still != nil {
		still = hex.EncodeToString(sum[:12]) + "-still.png"
		if err := s.cfg.EmojiImages.PutEmojiImage(ctx, emojiImageRealmPrefix+still, img.Still); err != nil {
			return UploadCustomEmojiResult{}, engine.InternalError(err)
		}
	}
	if err := s.cfg.EmojiImages.PutEmojiImage(ctx, emojiImageRealmPrefix+file, img.Image); err != nil {
		return UploadCustomEmojiResult{}, engine.InternalError(err)
	}
	err = s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me, w := o.Tx, o.Ev, o.Me, o.World()
		list, err := tx.Realm().ListEmoji()
		if err != nil {
			return err
		}
		if err := s.mayAddEmoji(w, me, list, name); err != nil {
			return err
		}
		c := emoji.Custom{Name: name, AuthorID: me.ID, FileName: file, StillFileName: still}
		if c.ID, err = tx.Realm().CreateEmoji(c); err != nil {
			if errors.Is(err, storage.ErrConflict) {
				return errEmojiNameTaken
			}
			return err
		}
		rec := emojiRecordOf(c)
		return notifyRealmEmoji(tx, ev, append(list, c), RealmEmojiEvent{Type: "realm_emoji", Op: "add", Emoji: &rec})
	})
	return UploadCustomEmojiResult{}, err
}

// checkEmojiUpload checks an upload before its image is decoded: permission and name (read
// again when the emoji is written), file count, size and image type.
func (s *Service) checkEmojiUpload(ctx context.Context, actor engine.Actor, name string, p UploadCustomEmojiParams) error {
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		list, err := o.Tx.Realm().ListEmoji()
		if err != nil {
			return err
		}
		return s.mayAddEmoji(o.World(), o.Me, list, name)
	})
	switch {
	case err != nil:
		return err
	case p.Files != 1:
		return errOneFile
	case len(p.Image) > MaxEmojiFileSize:
		return errEmojiTooLarge
	case s.cfg.EmojiImages == nil:
		return errNoEmojiImages
	}
	if _, ok := imageTypes[http.DetectContentType(p.Image)]; !ok {
		return errInvalidImage
	}
	return nil
}

// mayAddEmoji applies can_add_custom_emoji_group (default: members, not guests), the name's
// uniqueness among active emoji, and the administrators' privilege of overriding a unicode
// emoji's name.
func (s *Service) mayAddEmoji(w *world.World, me users.User, list []emoji.Custom, name string) error {
	allowed := me.Role != users.RoleGuest
	if setting := w.Org().CanAddCustomEmojiGroup; !channels.IsZeroSetting(setting) {
		allowed = w.Membership().Allows(setting, me.ID)
	}
	if !allowed {
		return engine.BadRequest(engine.MsgInsufficientPerm)
	}
	for _, c := range list {
		if c.Name == name && !c.Deactivated {
			return errEmojiNameTaken
		}
	}
	if _, unicode := s.cfg.Emoji().Code(name); unicode && !me.Role.IsAdmin() {
		return errOverrideDefault
	}
	return nil
}

// DeactivateCustomEmojiResult is DeactivateCustomEmoji's answer: nothing beyond success.
type DeactivateCustomEmojiResult struct{}

// DeactivateCustomEmoji deactivates an active custom emoji: administrators any, others their
// own. Reactions with it stay.
func (s *Service) DeactivateCustomEmoji(ctx context.Context, actor engine.Actor, p DeactivateCustomEmojiParams) (DeactivateCustomEmojiResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		tx, ev, me := o.Tx, o.Ev, o.Me
		list, err := tx.Realm().ListEmoji()
		if err != nil {
			return err
		}
		i := -1
		for j, c := range list {
			if c.Name == p.Name && !c.Deactivated {
				i = j
			}
		}
		if i < 0 {
			return errCustomEmojiNotFound(p.Name)
		}
		if !me.Role.IsAdmin() && list[i].AuthorID != me.ID {
			return errEmojiRemoveDenied
		}
		list[i].Deactivated = true
		if err := tx.Realm().UpdateEmoji(list[i]); err != nil {
			return err
		}
		e := RealmEmojiEvent{Type: "realm_emoji", Op: "update_one", EmojiID: list[i].ID.String(), Data: map[string]any{"deactivated": true}}
		return notifyRealmEmoji(tx, ev, list, e)
	})
	return DeactivateCustomEmojiResult{}, err
}

// notifyRealmEmoji queues a change of the custom emoji for every active user: the change
// itself for clients with the individual_emoji_changes capability, every emoji (list) for the
// others.
func notifyRealmEmoji(tx storage.Tx, ev *engine.Events, list []emoji.Custom, change RealmEmojiEvent) error {
	to, err := engine.ActiveUserIDs(tx.Users())
	if err != nil {
		return err
	}
	all := realmEmojiRecords(list)
	legacy := RealmEmojiEvent{Type: "realm_emoji", Op: "update", RealmEmoji: &all}
	ev.Emit(clients.Gated{Payload: legacy, Capability: "individual_emoji_changes", Declared: false}, to)
	ev.Emit(clients.Gated{Payload: change, Capability: "individual_emoji_changes", Declared: true}, to)
	return nil
}

// GetServerEmojiData returns the server emoji data file.
func (s *Service) GetServerEmojiData() ServerEmojiData {
	return ServerEmojiData{CodeToNames: s.cfg.Emoji().CodeToNames()}
}

// EmojiStateOf fills register's realm_emoji and server_emoji_data_url.
func EmojiStateOf(tx storage.ReadTx, realmURL string, p clients.Register) (*EmojiState, error) {
	st := &EmojiState{}
	if p.Fetches("realm_emoji") {
		list, err := tx.Realm().ListEmoji()
		if err != nil {
			return nil, err
		}
		m := realmEmojiRecords(list)
		st.RealmEmoji = &m
	}
	if p.Fetches("realm") {
		u := strings.TrimSuffix(realmURL, "/") + ServerEmojiDataPath
		st.ServerEmojiDataURL = &u
	}
	if st.RealmEmoji == nil && st.ServerEmojiDataURL == nil {
		return nil, nil
	}
	return st, nil
}

// CheckEmojiFields bounds the emoji name and code of a request.
func CheckEmojiFields(name string, code *string) error {
	if len(name) > MaxEmojiFieldLength {
		return errInvalidEmojiName
	}
	if code != nil && len(*code) > MaxEmojiFieldLength {
		return errInvalidEmojiCode
	}
	return nil
}

// EmojiByName finds the emoji a name stands for: an active custom emoji first, then Zulip's
// extra emoji, then the unicode emoji (Zulip's get_emoji_data).
func (s *Service) EmojiByName(custom []emoji.Custom, name string) (string, emoji.ReactionType, error) {
	for _, c := range custom {
		if c.Name == name && !c.Deactivated {
			return c.ID.String(), emoji.Realm, nil
		}
	}
	if name == emoji.ZulipEmoji {
		return emoji.ZulipEmoji, emoji.ZulipExtra, nil
	}
	if code, ok := s.cfg.Emoji().Code(name); ok {
		return code, emoji.Unicode, nil
	}
	return "", "", errEmojiDoesNotExist(name)
}

// CheckEmojiRequest checks that a new reaction's name, code and type name a current emoji
// (Zulip's check_emoji_request).
func (s *Service) CheckEmojiRequest(custom []emoji.Custom, r messages.Reaction) error {
	switch emoji.ReactionType(r.ReactionType) {
	case emoji.Realm:
		i := slices.IndexFunc(custom, func(c emoji.Custom) bool { return c.ID.String() == r.EmojiCode })
		switch {
		case i < 0:
			return errInvalidCustomEmoji
		case custom[i].Name != r.EmojiName:
			return errInvalidCustomName
		case custom[i].Deactivated:
			return errDeactivatedEmoji
		}
	case emoji.ZulipExtra:
		if r.EmojiCode != emoji.ZulipEmoji {
			return errInvalidEmojiCode
		}
		if r.EmojiName != r.EmojiCode {
			return errInvalidEmojiName
		}
	case emoji.Unicode:
		if _, ok := s.cfg.Emoji().Name(r.EmojiCode); !ok {
			return errInvalidEmojiCode
		}
		if code, ok := s.cfg.Emoji().Code(r.EmojiName); !ok || code != r.EmojiCode {
			return errInvalidEmojiName
		}
	default:
		return errInvalidEmojiType
	}
	return nil
}

// MaxEmojiFieldLength bounds emoji_name and emoji_code.
const MaxEmojiFieldLength = 100

// Errors of emoji named in requests (reactions, statuses); their text is Zulip's.
var (
	errInvalidEmojiCode   = engine.BadRequest("Invalid emoji code.")
	errInvalidEmojiName   = engine.BadRequest("Invalid emoji name.")
	errInvalidEmojiType   = engine.BadRequest("Invalid emoji type.")
	errInvalidCustomEmoji = engine.BadRequest("Invalid custom emoji.")
	errInvalidCustomName  = engine.BadRequest("Invalid custom emoji name.")
	errDeactivatedEmoji   = engine.BadRequest("This custom emoji has been deactivated.")
)

func errEmojiDoesNotExist(name string) *engine.Error {
	return engine.BadRequest("Emoji '%s' does not exist", name)
}

// ImageError is the refusal of an image that package images would not decode, as Zulip
// words it; other errors (a cancelled context) pass through.
func ImageError(err error) error {
	switch {
	case errors.Is(err, images.ErrTooLarge):
		return errImageTooLarge
	case errors.Is(err, images.ErrEncodedTooLarge):
		return errResizedTooLarge
	case errors.Is(err, images.ErrBadImage):
		return errBadImage
	}
	return err
}

// Refusals of images, as Zulip words them (libvips_check_image and upload_emoji_image);
// here, below the uploads area, so that emoji and avatars share them.
var (
	errImageTooLarge   = &engine.Error{Code: engine.CodeBadImage, Msg: "Image size exceeds limit."}
	errResizedTooLarge = &engine.Error{Code: engine.CodeBadImage, Msg: "Image size exceeds limit"}
	errBadImage        = &engine.Error{Code: engine.CodeBadImage, Msg: "Could not decode image; did you upload an image file?"}
)
