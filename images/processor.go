package images

import (
	"context"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"runtime"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"
	"golang.org/x/sync/semaphore"
)

// DefaultMemoryBytes is the default budget of the decodes in flight of a Processor: a few
// phone photographs (a 12-megapixel baseline JPEG decodes to 18 MB) at a time, and far from
// what a single hostile header can claim.
const DefaultMemoryBytes = 40 << 20

// streamAbove is the decode size past which a PNG that can stream does: a streamed decode
// holds two rows, not the image.
const streamAbove = 4 << 20

// Config sizes a Processor.
type Config struct {
	// MemoryBytes bounds the memory of the decodes in flight together (default
	// DefaultMemoryBytes); an image whose decode alone needs more is refused.
	MemoryBytes int64
	// Workers bounds the decodes in flight (default: runtime.GOMAXPROCS).
	Workers int
}

// Processor decodes and resizes images within its budget. It is safe for concurrent use;
// decodes past its budget or its workers wait (or end with their context).
type Processor struct {
	budget  int64
	memory  *semaphore.Weighted
	workers *semaphore.Weighted
}

// New returns a Processor sized by c.
func New(c Config) *Processor {
	if c.MemoryBytes <= 0 {
		c.MemoryBytes = DefaultMemoryBytes
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	return &Processor{budget: c.MemoryBytes, memory: semaphore.NewWeighted(c.MemoryBytes), workers: semaphore.NewWeighted(int64(c.Workers))}
}

// acquire reserves n bytes of the budget and a worker; release gives them back.
func (p *Processor) acquire(ctx context.Context, n int64) (release func(), err error) {
	if n > p.budget {
		return nil, ErrTooLarge
	}
	if err := p.workers.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	if err := p.memory.Acquire(ctx, n); err != nil {
		p.workers.Release(1)
		return nil, err
	}
	return func() { p.memory.Release(n); p.workers.Release(1) }, nil
}

// Fit decodes the first frame of the image in r and shrinks it to fit within maxW×maxH,
// keeping its aspect ratio (never enlarging it), as Zulip's thumbnails. Past Zulip's pixel
// limits for thumbnails (MaxPixels; MaxAnimatedPixels for three frames of an animation) it
// returns ErrTooLarge without decoding.
func (p *Processor) Fit(ctx context.Context, r io.ReadSeeker, maxW, maxH int) (*image.RGBA, Header, error) {
	h, err := readHeaderAt(r)
	if err != nil {
		return nil, Header{}, err
	}
	if h.Pixels() > MaxPixels || (h.Animated() && h.Pixels()*int64(min(3, h.Frames)) > MaxAnimatedPixels) {
		return nil, h, ErrTooLarge
	}
	w, ht := h.Width, h.Height
	if w > maxW || ht > maxH {
		w, ht = maxW, int(int64(h.Height)*int64(maxW)/int64(h.Width))
		if ht > maxH {
			w, ht = int(int64(h.Width)*int64(maxH)/int64(h.Height)), maxH
		}
	}
	img, err := p.render(ctx, r, h, image.Rect(0, 0, h.Width, h.Height), max(w, 1), max(ht, 1))
	return img, h, err
}

// Square decodes the first frame of the image in r, crops it to a centred square and
// scales that to size×size (enlarging a smaller one), as Zulip's resize_avatar. Past
// MaxPixels (all frames together) it returns ErrTooLarge without decoding.
func (p *Processor) Square(ctx context.Context, r io.ReadSeeker, size int) (*image.RGBA, Header, error) {
	h, err := readHeaderAt(r)
	if err != nil {
		return nil, Header{}, err
	}
	if h.Pixels()*int64(h.Frames) > MaxPixels {
		return nil, h, ErrTooLarge
	}
	img, err := p.render(ctx, r, h, centredSquare(image.Rect(0, 0, h.Width, h.Height)), size, size)
	return img, h, err
}

// centredSquare is the largest square centred in b.
func centredSquare(b image.Rectangle) image.Rectangle {
	side := min(b.Dx(), b.Dy())
	x0, y0 := b.Min.X+(b.Dx()-side)/2, b.Min.Y+(b.Dy()-side)/2
	return image.Rect(x0, y0, x0+side, y0+side)
}

// readHeaderAt reads the header of the image in r from its start.
func readHeaderAt(r io.ReadSeeker) (Header, error) {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return Header{}, fmt.Errorf("images: %w", err)
	}
	return ReadHeader(r)
}

// render decodes the rectangle src of the image's first frame scaled to w×h: streamed when
// the image can stream and is large, decoded whole within the budget otherwise.
func (p *Processor) render(ctx context.Context, r io.ReadSeeker, h Header, src image.Rectangle, w, ht int) (*image.RGBA, error) {
	out := 4 * int64(w) * int64(ht)
	whole := h.DecodeBytes() + 2*out
	if h.Streamable() && whole > streamAbove {
		return p.stream(ctx, r, h, src, w, ht)
	}
	release, err := p.acquire(ctx, whole)
	if err != nil {
		return nil, err
	}
	defer release()
	img, err := decodeFirst(r, h)
	if err != nil {
		return nil, err
	}
	sr := src.Add(img.Bounds().Min).Intersect(img.Bounds())
	if sr.Empty() {
		return nil, ErrBadImage
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, ht))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, sr, draw.Src, nil)
	return dst, nil
}

// stream shrinks src while the PNG decodes (to at most its own size), then scales that to
// w×h when it differs (an enlargement, for a small square).
func (p *Processor) stream(ctx context.Context, r io.ReadSeeker, h Header, src image.Rectangle, w, ht int) (*image.RGBA, error) {
	iw, ih := min(w, src.Dx()), min(ht, src.Dy())
	release, err := p.acquire(ctx, h.StreamBytes(iw)+4*int64(iw)*int64(ih)+4*int64(w)*int64(ht))
	if err != nil {
		return nil, err
	}
	defer release()
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	s := newShrinker(src.Dx(), src.Dy(), iw, ih)
	if err := streamPNG(ctx, r, h, src, s); err != nil {
		return nil, err
	}
	img := s.image()
	if iw == w && ih == ht {
		return img, nil
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, ht))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
	return dst, nil
}

// decodeFirst decodes the first frame of the image, after checking that the decoder reads
// the same canvas from the header as ReadHeader did.
func decodeFirst(r io.ReadSeeker, h Header) (image.Image, error) {
	var decode func(io.Reader) (image.Image, error)
	var config func(io.Reader) (image.Config, error)
	switch h.Format {
	case PNG:
		decode, config = png.Decode, png.DecodeConfig
	case JPEG:
		decode, config = jpeg.Decode, jpeg.DecodeConfig
	case GIF:
		decode, config = gif.Decode, gif.DecodeConfig
	case WebP:
		decode, config = webp.Decode, webp.DecodeConfig
	default:
		return nil, ErrBadImage
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	cfg, err := config(r)
	if err != nil || cfg.Width != h.Width || cfg.Height != h.Height {
		return nil, ErrBadImage
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("images: %w", err)
	}
	img, err := decode(r)
	if err != nil || img.Bounds().Dx() <= 0 || img.Bounds().Dy() <= 0 {
		return nil, ErrBadImage
	}
	return img, nil
}
