package uploads

import (
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// ID identifies an attachment.
type ID int64

// RealmID is the organization's id in upload paths (/user_uploads/{realm_id}/...). A store
// holds one organization; its id is Zulip's development organization's.
const RealmID = 2

// Limits of the server (register's max_file_upload_size_mib and max_avatar_file_size_mib,
// Zulip's defaults).
const (
	DefaultMaxFileUploadSizeMiB = 25
	MaxAvatarFileSizeMiB        = 5
	MaxIconFileSizeMiB          = 5
	MaxLogoFileSizeMiB          = 5
	MaxEmojiFileSizeMiB         = 5
	// MaxNameLength bounds a stored file name, in bytes.
	MaxNameLength = 255
)

// Attachment is one uploaded file.
type Attachment struct {
	ID      ID
	OwnerID users.ID
	// PathID locates the file: "{realm_id}/{xx}/{token}/{name}"; its URL is
	// /user_uploads/{PathID}.
	PathID string
	// Name is the file's name as stored (sanitized).
	Name        string
	Size        int64
	ContentType string
	// CreateTime is when it was uploaded, in milliseconds since the epoch.
	CreateTime int64
	// Width and Height are an image's dimensions (0 for other files and images not
	// thumbnailed).
	Width, Height int
	// Thumbnailed says that the thumbnails of ThumbnailFormats exist.
	Thumbnailed bool
}

// IsImage reports whether the attachment is an image with thumbnails.
func (a Attachment) IsImage() bool { return a.Thumbnailed }

// Link ties an attachment to a message whose content links it.
type Link struct {
	AttachmentID ID
	MessageID    messages.ID
}

// SanitizeName makes a file name safe in a file system path, an S3 key and a URL, as
// Zulip's sanitize_name: NFKC normalization, only letters, digits, "_", ".", "-" and spaces
// kept, runs of spaces and dashes collapsed to one "-", and "uploaded-file" for a name left
// empty, "." or "..". The result is at most MaxNameLength bytes, keeping the extension.
func SanitizeName(name string) string {
	name = norm.NFKC.String(name)
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || r == '_' || r == '.' || r == '-' || unicode.IsSpace(r) {
			b.WriteRune(r)
		}
	}
	s := strings.TrimSpace(b.String())
	var out strings.Builder
	dash := false
	for _, r := range s {
		if r == '-' || unicode.IsSpace(r) {
			if !dash {
				out.WriteByte('-')
			}
			dash = true
			continue
		}
		dash = false
		out.WriteRune(r)
	}
	s = out.String()
	if s == "" || s == "." || s == ".." {
		return "uploaded-file"
	}
	return truncateName(s)
}

// truncateName shortens a name to MaxNameLength bytes on a rune boundary, keeping a short
// extension.
func truncateName(s string) string {
	if len(s) <= MaxNameLength {
		return s
	}
	ext := path.Ext(s)
	if len(ext) > 16 {
		ext = ""
	}
	base := s[:len(s)-len(ext)]
	limit := MaxNameLength - len(ext)
	for limit > 0 && !isRuneStart(base, limit) {
		limit--
	}
	return base[:limit] + ext
}

func isRuneStart(s string, i int) bool { return i >= len(s) || s[i]&0xC0 != 0x80 }

// NewPathID is the path id of a new upload: the organization's id, a shard of one or two hex
// digits, a random token and the sanitized name.
func NewPathID(shard byte, token, name string) string {
	return strconv.Itoa(RealmID) + "/" + strconv.FormatInt(int64(shard), 16) + "/" + token + "/" + name
}

// URL is the path of an attachment's URL: /user_uploads/ and the escaped path id.
func URL(pathID string) string {
	segs := strings.Split(pathID, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return "/user_uploads/" + strings.Join(segs, "/")
}

// ThumbnailURL is the path of a thumbnail of an attachment.
func ThumbnailURL(pathID, format string) string {
	return "/user_uploads/thumbnail/" + strings.TrimPrefix(URL(pathID), "/user_uploads/") + "/" + format
}

// BlobKey is the key of an attachment's bytes in the blob store.
func BlobKey(pathID string) string { return "uploads/" + pathID }

// ThumbnailKey is the key of a thumbnail's bytes in the blob store.
func ThumbnailKey(pathID, format string) string { return "thumbnails/" + pathID + "/" + format }

// uploadLink finds upload URLs in message content, relative or absolute.
var uploadLink = regexp.MustCompile(`/user_uploads/([0-9]+/[^\s()<>\[\]"'?#]+)`)

// MayLink reports whether content could link an upload (a cheap test before LinkedPathIDs).
func MayLink(content string) bool { return strings.Contains(content, "/user_uploads/") }

// LinkedPathIDs lists the path ids of the uploads content links to, each once, in order of
// appearance. Links to thumbnails and temporary URLs are not uploads.
func LinkedPathIDs(content string) []string {
	var out []string
	for _, m := range uploadLink.FindAllStringSubmatch(content, -1) {
		p, err := url.PathUnescape(strings.TrimRight(m[1], ".,;:!*_~`"))
		if err != nil || strings.Count(p, "/") < 3 {
			continue
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// ValidPathID reports whether p has the shape of a path id: the organization's id, then
// three non-empty segments without dot segments.
func ValidPathID(p string) bool {
	segs := strings.Split(p, "/")
	if len(segs) != 4 || segs[0] != strconv.Itoa(RealmID) {
		return false
	}
	for _, s := range segs[1:] {
		if s == "" || s == "." || s == ".." || strings.ContainsAny(s, "\\\x00") {
			return false
		}
	}
	return true
}

// ContentType decides the stored content type of an upload: the one the client declared
// when it is specific, else the one the name's extension suggests, else
// application/octet-stream. Parameters (charset) are kept only for text types.
func ContentType(declared, name string) string {
	media, params, err := mime.ParseMediaType(declared)
	if err != nil || media == "" || media == "application/octet-stream" {
		media, params, err = mime.ParseMediaType(mime.TypeByExtension(strings.ToLower(path.Ext(name))))
		if err != nil || media == "" {
			return "application/octet-stream"
		}
	}
	if cs, ok := params["charset"]; ok && strings.HasPrefix(media, "text/") {
		return mime.FormatMediaType(media, map[string]string{"charset": cs})
	}
	return media
}

// inlineTypes are the content types served inline (shown by the browser) rather than as a
// download, as Zulip's INLINE_MIME_TYPES; everything else is served as an attachment.
var inlineTypes = []string{
	"application/pdf",
	"audio/aac", "audio/flac", "audio/mp4", "audio/mpeg", "audio/ogg", "audio/wav", "audio/webm",
	"image/apng", "image/avif", "image/gif", "image/jpeg", "image/png", "image/webp",
	"text/plain",
	"video/mp4", "video/ogg", "video/quicktime", "video/webm",
}

// ServedInline reports whether a file of the content type is shown inline.
func ServedInline(contentType string) bool {
	media, _, err := mime.ParseMediaType(contentType)
	return err == nil && slices.Contains(inlineTypes, media)
}

// Thumbnailable reports whether images of the content type get thumbnails.
func Thumbnailable(contentType string) bool {
	media, _, _ := mime.ParseMediaType(contentType)
	switch media {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}

// ThumbnailFormat is one entry of register's server_thumbnail_formats.
type ThumbnailFormat struct {
	Name      string `json:"name"`
	MaxWidth  int    `json:"max_width"`
	MaxHeight int    `json:"max_height"`
	Format    string `json:"format"`
	Animated  bool   `json:"animated"`
}

// ThumbnailFormats are the thumbnails made of every uploaded image. Zulip's defaults are
// WebP; this server writes JPEG (the Go image libraries encode no WebP), under the same
// dimensions.
var ThumbnailFormats = []ThumbnailFormat{
	{Name: "840x560.jpg", MaxWidth: 840, MaxHeight: 560, Format: "jpg", Animated: false},
}

// AvatarSize and MediumAvatarSize are the square sizes of avatar images, in pixels.
const (
	AvatarSize       = 100
	MediumAvatarSize = 500
)

// avatarHash names a user's avatar files: a digest of the user id (the files are public, as
// Zulip's; the digest keeps the names from listing users in order).
func avatarHash(user users.ID) string {
	sum := sha256.Sum256([]byte("teamchat-avatar:" + strconv.FormatInt(int64(user), 10)))
	return hex.EncodeToString(sum[:20])
}

// AvatarPath is the path of a user's uploaded avatar under /user_avatars/ and in the blob
// store's avatars/: "{realm_id}/{hash}.png", "{realm_id}/{hash}-medium.png" for the medium
// size.
func AvatarPath(user users.ID, medium bool) string {
	suffix := ".png"
	if medium {
		suffix = "-medium.png"
	}
	return strconv.Itoa(RealmID) + "/" + avatarHash(user) + suffix
}

// AvatarKey is the blob-store key of an avatar path.
func AvatarKey(path string) string { return "avatars/" + path }

// avatarPathShape is what AvatarPath yields.
var avatarPathShape = regexp.MustCompile(`^[0-9]+/[0-9a-f]{40}(-medium)?\.png$`)

// ValidAvatarPath reports whether p has the shape of an avatar path.
func ValidAvatarPath(p string) bool { return avatarPathShape.MatchString(p) }
