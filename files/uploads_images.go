package files

import (
	"bytes"
	"context"
	"html"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"strconv"
	"strings"

	"github.com/teamchat/chat/images"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
)

// maxImageBytes bounds the files read for thumbnails: larger images keep no preview.
const maxImageBytes = 64 << 20

// makeThumbnails writes the thumbnails of an uploaded image (uploads.ThumbnailFormats) to
// the blob store and returns the image's dimensions and whether the thumbnails exist. An
// image that cannot be decoded, or is too large to decode within the bounds of package
// images (its header is read first), gets none: it stays a plain file.
func (s *Service) makeThumbnails(ctx context.Context, a uploads.Attachment) (width, height int, ok bool) {
	if a.Size > maxImageBytes {
		return 0, 0, false
	}
	for _, f := range uploads.ThumbnailFormats {
		thumb, h, err := s.thumbnail(ctx, a, f)
		if err != nil {
			s.log.Info("no thumbnail for an upload", "path_id", a.PathID, "err", err)
			return 0, 0, false
		}
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, onWhite(thumb), &jpeg.Options{Quality: 85}); err != nil {
			s.log.Warn("encoding a thumbnail", "path_id", a.PathID, "err", err)
			return 0, 0, false
		}
		if _, err := s.cfg.Blobs.Put(ctx, uploads.ThumbnailKey(a.PathID, f.Name), &buf); err != nil {
			s.log.Warn("storing a thumbnail", "path_id", a.PathID, "err", err)
			return 0, 0, false
		}
		width, height = h.Width, h.Height
	}
	return width, height, true
}

// thumbnail decodes the stored upload within bounds and shrinks it to the format's box.
func (s *Service) thumbnail(ctx context.Context, a uploads.Attachment, f uploads.ThumbnailFormat) (image.Image, images.Header, error) {
	o, err := s.cfg.Blobs.Open(ctx, uploads.BlobKey(a.PathID))
	if err != nil {
		return nil, images.Header{}, err
	}
	defer o.Close()
	return s.images.Fit(ctx, o, f.MaxWidth, f.MaxHeight)
}

// onWhite flattens transparency onto white (JPEG has no alpha channel).
func onWhite(img image.Image) image.Image {
	dst := image.NewRGBA(img.Bounds())
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(dst, dst.Bounds(), img, img.Bounds().Min, draw.Over)
	return dst
}

// UploadPreviews is the HTML Zulip appends to a rendered message for each uploaded image
// its content links (a thumbnailed attachment): a message_inline_image block linking the
// original, showing the first thumbnail format, with the original's dimensions and type.
func UploadPreviews(ar storage.AttachmentReader, content string) (string, error) {
	found, err := ar.GetByPaths(uploads.LinkedPathIDs(content))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, a := range found {
		if !a.Thumbnailed || len(uploads.ThumbnailFormats) == 0 {
			continue
		}
		b.WriteString(`<div class="message_inline_image"><a href="`)
		b.WriteString(html.EscapeString(uploads.URL(a.PathID)))
		b.WriteString(`" title="`)
		b.WriteString(html.EscapeString(a.Name))
		b.WriteString(`"><img data-original-content-type="`)
		b.WriteString(html.EscapeString(a.ContentType))
		b.WriteString(`" data-original-dimensions="`)
		b.WriteString(strconv.Itoa(a.Width) + "x" + strconv.Itoa(a.Height))
		b.WriteString(`" src="`)
		b.WriteString(html.EscapeString(uploads.ThumbnailURL(a.PathID, uploads.ThumbnailFormats[0].Name)))
		b.WriteString(`"></a></div>`)
	}
	return b.String(), nil
}
