package files

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"mime"
	"regexp"
	"strconv"
	"strings"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/org"
	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// UploadAvatarParams are the parameters of POST /users/me/avatar: the image's bytes.
type UploadAvatarParams struct {
	// Content is read to its end (at most max_avatar_file_size_mib).
	Content io.Reader
}

// AvatarResult is the actor's avatar URL after the change.
type AvatarResult struct {
	AvatarURL string `json:"avatar_url"`
}

// Errors of avatars, as Zulip words them.
var (
	errOneAvatar = engine.BadRequest("You must upload exactly one avatar.")
)

// ErrOneAvatar is the refusal of an avatar request without exactly one file.
func ErrOneAvatar() *engine.Error { return errOneAvatar }

// UploadAvatar makes an uploaded image the actor's avatar: it is cropped to a square and
// stored at uploads.AvatarSize and uploads.MediumAvatarSize as PNG, then avatar_source
// becomes "U" and avatar_version grows by one; everyone gets a realm_user update.
func (s *Service) UploadAvatar(ctx context.Context, actor engine.Actor, p UploadAvatarParams) (AvatarResult, error) {
	if s.cfg.Blobs == nil {
		return AvatarResult{}, errUploadsDisabled
	}
	if p.Content == nil {
		return AvatarResult{}, errOneAvatar
	}
	limit := int64(uploads.MaxAvatarFileSizeMiB) << 20
	raw, err := io.ReadAll(io.LimitReader(p.Content, limit+1))
	if err != nil {
		var e *engine.Error
		if errors.As(err, &e) {
			return AvatarResult{}, e
		}
		return AvatarResult{}, engine.InternalError(err)
	}
	if int64(len(raw)) > limit {
		return AvatarResult{}, engine.BadRequest("Uploaded file is larger than the allowed limit of %d MiB", uploads.MaxAvatarFileSizeMiB)
	}
	// Both sizes are made before either is stored: a refused image stores nothing.
	var sized [2]bytes.Buffer
	for i, size := range []int{uploads.AvatarSize, uploads.MediumAvatarSize} {
		img, _, err := s.images.Square(ctx, bytes.NewReader(raw), size)
		if err != nil {
			return AvatarResult{}, org.ImageError(err)
		}
		if err := png.Encode(&sized[i], img); err != nil {
			return AvatarResult{}, engine.InternalError(err)
		}
	}
	for i, medium := range []bool{false, true} {
		// The files are replaced in place: clients load the new one through the new version.
		if _, err := s.cfg.Blobs.Put(ctx, uploads.AvatarKey(uploads.AvatarPath(actor.UserID, medium)), &sized[i]); err != nil {
			return AvatarResult{}, engine.StorageError(s.log, err)
		}
	}
	return s.setAvatarSource(ctx, actor, users.AvatarUploaded)
}

// DeleteAvatar returns the actor to the Gravatar avatar (avatar_version grows by one) and
// removes the uploaded images.
func (s *Service) DeleteAvatar(ctx context.Context, actor engine.Actor) (AvatarResult, error) {
	res, err := s.setAvatarSource(ctx, actor, users.AvatarGravatar)
	if err != nil || s.cfg.Blobs == nil {
		return res, err
	}
	for _, medium := range []bool{false, true} {
		if err := s.cfg.Blobs.Delete(ctx, uploads.AvatarKey(uploads.AvatarPath(actor.UserID, medium))); err != nil {
			s.log.Warn("deleting an avatar", "user", actor.UserID, "err", err)
		}
	}
	return res, nil
}

// setAvatarSource records the actor's avatar source and tells everyone.
func (s *Service) setAvatarSource(ctx context.Context, actor engine.Actor, source string) (AvatarResult, error) {
	var res AvatarResult
	err := s.eng.Mutate(ctx, actor, engine.SignedIn, func(o *engine.WriteOp) error {
		u := o.Me
		if disabled, _ := o.World().Org().Settings["avatar_changes_disabled"].(bool); disabled && !u.Role.IsAdmin() {
			return engine.BadRequest("Avatar changes are disabled in this organization.")
		}
		u.AvatarSource = source
		u.AvatarVersion++
		if err := o.Tx.Users().Update(u); err != nil {
			return err
		}
		res.AvatarURL = people.AvatarURL(u)
		return people.AnnounceAvatarChange(o.Tx.Users(), o.Ev, u)
	})
	return res, err
}

// GetAvatarImageParams name an uploaded avatar image by its path under /user_avatars/.
type GetAvatarImageParams struct {
	Path string
}

// GetAvatarImage opens an uploaded avatar image. Avatars are public, as in Zulip: no
// credentials are needed.
func (s *Service) GetAvatarImage(ctx context.Context, p GetAvatarImageParams) (UploadedFile, error) {
	if s.cfg.Blobs == nil || !uploads.ValidAvatarPath(p.Path) {
		return UploadedFile{}, errFileNotFound
	}
	o, err := s.cfg.Blobs.Open(ctx, uploads.AvatarKey(p.Path))
	if errors.Is(err, blobs.ErrNotFound) {
		return UploadedFile{}, errFileNotFound
	}
	if err != nil {
		return UploadedFile{}, engine.StorageError(s.log, err)
	}
	return UploadedFile{Object: o, Name: "avatar.png", ContentType: "image/png", Inline: true}, nil
}

// GetAvatarURLParams name a user by id or email, as /avatar/{email_or_id} does.
type GetAvatarURLParams struct {
	UserIDOrEmail string
	Medium        bool
}

// GetAvatarURL is the URL /avatar/{email_or_id} redirects to: the user's avatar (medium
// size with Medium). An unknown user gets 404.
func (s *Service) GetAvatarURL(ctx context.Context, actor engine.Actor, p GetAvatarURLParams) (string, error) {
	var url string
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		w := o.World()
		var (
			u  users.User
			ok bool
		)
		if id, err := strconv.ParseInt(p.UserIDOrEmail, 10, 64); err == nil {
			u, ok = w.Lookup(users.ID(id))
		} else {
			u, ok = w.UserByEmail(p.UserIDOrEmail)
		}
		if !ok {
			return errFileNotFound
		}
		url = people.AvatarURL(u)
		if p.Medium {
			url = people.AvatarMediumURL(u)
		}
		return nil
	})
	return url, err
}

// emojiImagePath is the shape of the path of a custom emoji's image under /user_avatars/: the
// organization's emoji folder, a hash, and the extension of one of imageTypes (a still
// version of an animated image ends in -still.png).
var emojiImagePath = regexp.MustCompile(`^1/emoji/images/[0-9a-f]{24}(\.png|\.gif|\.jpeg|\.webp|-still\.png)$`)

// GetCustomEmojiImageParams name a custom emoji's image by its path under /user_avatars/
// (its source_url or still_url without that prefix).
type GetCustomEmojiImageParams struct {
	Path string
}

// GetCustomEmojiImage opens the image of a custom emoji, with the content type its extension
// says. Emoji images are public, as in Zulip (clients load them without credentials); an
// unknown path is 404.
func (s *Service) GetCustomEmojiImage(ctx context.Context, p GetCustomEmojiImageParams) (UploadedFile, error) {
	m := emojiImagePath.FindStringSubmatch(p.Path)
	if s.cfg.EmojiImages == nil || m == nil {
		return UploadedFile{}, errFileNotFound
	}
	o, err := s.cfg.EmojiImages.OpenEmojiImage(ctx, p.Path)
	if errors.Is(err, blobs.ErrNotFound) {
		return UploadedFile{}, errFileNotFound
	}
	if err != nil {
		return UploadedFile{}, engine.StorageError(s.log, err)
	}
	ext := strings.TrimPrefix(m[1], "-still")
	return UploadedFile{Object: o, Name: "emoji" + ext, ContentType: mime.TypeByExtension(ext), Inline: true}, nil
}
