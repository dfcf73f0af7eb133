package files

import (
	"bytes"
	"context"
	"html"
	"image"
	"image/color"
	stddraw "image/draw"
	_ "image/gif" // decoders of uploaded images
	"image/jpeg"
	_ "image/png"
	"io"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
)

// maxImageBytes bounds the images decoded for thumbnails: larger images keep no preview.
const maxImageBytes = 64 << 20

// makeThumbnails writes the thumbnails of an uploaded image (uploads.ThumbnailFormats) to
// the blob store and returns the image's dimensions and whether the thumbnails exist. An
// image that cannot be decoded, or is too large to decode safely, gets none: it stays a
// plain file.
func (s *Service) makeThumbnails(ctx context.Context, a uploads.Attachment) (width, height int, ok bool) {
	if a.Size > maxImageBytes {
		return 0, 0, false
	}
	img, err := s.decodeBlobImage(ctx, uploads.BlobKey(a.PathID))
	if err != nil {
		s.log.Info("no thumbnail for an upload", "path_id", a.PathID, "err", err)
		return 0, 0, false
	}
	b := img.Bounds()
	for _, f := range uploads.ThumbnailFormats {
		thumb := fitWithin(img, f.MaxWidth, f.MaxHeight)
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, onWhite(thumb), &jpeg.Options{Quality: 85}); err != nil {
			s.log.Warn("encoding a thumbnail", "path_id", a.PathID, "err", err)
			return 0, 0, false
		}
		if _, err := s.cfg.Blobs.Put(ctx, uploads.ThumbnailKey(a.PathID, f.Name), &buf); err != nil {
			s.log.Warn("storing a thumbnail", "path_id", a.PathID, "err", err)
			return 0, 0, false
		}
	}
	return b.Dx(), b.Dy(), true
}

// errImageTooLarge refuses images with more pixels than uploads.MaxImagePixels.
var errImageTooLarge = engine.BadRequest("Image size exceeds limit.")

// decodeBlobImage decodes the image stored under key, after checking from its header that
// its pixel count is within uploads.MaxImagePixels (a small file may claim a huge canvas).
func (s *Service) decodeBlobImage(ctx context.Context, key string) (image.Image, error) {
	o, err := s.cfg.Blobs.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	return decodeBoundedImage(o)
}

// decodeBoundedImage decodes an image from a seekable reader, refusing canvases past
// uploads.MaxImagePixels before decoding the pixels.
func decodeBoundedImage(r io.ReadSeeker) (image.Image, error) {
	cfg, _, err := image.DecodeConfig(r)
	if err != nil {
		return nil, err
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > uploads.MaxImagePixels {
		return nil, errImageTooLarge
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(r)
	return img, err
}

// fitWithin scales img down (never up) to fit within w×h, keeping its aspect ratio.
func fitWithin(img image.Image, w, h int) image.Image {
	b := img.Bounds()
	if b.Dx() <= w && b.Dy() <= h {
		return img
	}
	nw, nh := w, b.Dy()*w/b.Dx()
	if nh > h {
		nw, nh = b.Dx()*h/b.Dy(), h
	}
	dst := image.NewRGBA(image.Rect(0, 0, max(nw, 1), max(nh, 1)))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// squareCrop scales img to a size×size square, cropping the longer side around the centre.
func squareCrop(img image.Image, size int) *image.RGBA {
	b := img.Bounds()
	side := min(b.Dx(), b.Dy())
	x0 := b.Min.X + (b.Dx()-side)/2
	y0 := b.Min.Y + (b.Dy()-side)/2
	dst := image.NewRGBA(image.Rect(0, 0, size, size))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, image.Rect(x0, y0, x0+side, y0+side), draw.Src, nil)
	return dst
}

// onWhite flattens transparency onto white (JPEG has no alpha channel).
func onWhite(img image.Image) image.Image {
	dst := image.NewRGBA(img.Bounds())
	stddraw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, stddraw.Src)
	stddraw.Draw(dst, dst.Bounds(), img, img.Bounds().Min, stddraw.Over)
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
