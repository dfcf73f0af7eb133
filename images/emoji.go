package images

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/draw"
)

// Emoji is a custom emoji's image after resizing.
type Emoji struct {
	// Image is the emoji's image, EmojiSize×EmojiSize, in Format.
	Image []byte
	// Format is the image's format: the upload's (PNG for a WebP, which Go does not encode).
	Format string
	// Still is a PNG of the first frame of an animated emoji, nil for a still one.
	Still []byte
}

// Emoji resizes an uploaded emoji image as Zulip's resize_emoji: a still image is cropped
// to a centred square of EmojiSize; an animated GIF keeps its frames, each fit within
// EmojiSize and centred on a transparent square, and gets a still PNG of its first frame.
// Past MaxPixels (all frames together) it returns ErrTooLarge without decoding; a result
// larger than MaxEmojiBytes (the still image of an animated emoji, or the image of a still
// one) gives ErrEncodedTooLarge.
func (p *Processor) Emoji(ctx context.Context, data []byte) (Emoji, error) {
	r := bytes.NewReader(data)
	h, err := ReadHeader(r)
	if err != nil {
		return Emoji{}, err
	}
	if h.Pixels()*int64(h.Frames) > MaxPixels || h.FramePixels > MaxPixels {
		return Emoji{}, ErrTooLarge
	}
	var e Emoji
	if h.Format == GIF && h.Animated() {
		e, err = p.gifEmoji(ctx, r, h)
	} else {
		e, err = p.stillEmoji(ctx, r)
	}
	if err != nil {
		return Emoji{}, err
	}
	check := e.Image
	if e.Still != nil {
		check = e.Still
	}
	if len(check) > MaxEmojiBytes {
		return Emoji{}, ErrEncodedTooLarge
	}
	return e, nil
}

// stillEmoji crops and scales a still image, and encodes it in its format (a GIF in Plan 9's
// palette and a transparent colour).
func (p *Processor) stillEmoji(ctx context.Context, r io.ReadSeeker) (Emoji, error) {
	img, h, err := p.Square(ctx, r, EmojiSize)
	if err != nil {
		return Emoji{}, err
	}
	var buf bytes.Buffer
	e := Emoji{Format: h.Format}
	switch h.Format {
	case JPEG:
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	case GIF:
		pal := append(color.Palette{}, palette.Plan9[:255]...)
		err = gif.Encode(&buf, toPaletted(img, append(pal, color.RGBA{})), nil)
	default:
		e.Format = PNG
		err = png.Encode(&buf, img)
	}
	if err != nil {
		return Emoji{}, err
	}
	e.Image = buf.Bytes()
	return e, nil
}

// gifEmoji decodes every frame of a GIF (within the budget), composes them on the canvas as
// a browser shows them, and encodes them at EmojiSize.
func (p *Processor) gifEmoji(ctx context.Context, r io.ReadSeeker, h Header) (Emoji, error) {
	release, err := p.acquire(ctx, h.AllFramesBytes()+int64(h.Frames)*(EmojiSize*EmojiSize+frameOverhead))
	if err != nil {
		return Emoji{}, err
	}
	defer release()
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return Emoji{}, err
	}
	g, err := gif.DecodeAll(r)
	if err != nil || len(g.Image) == 0 || g.Config.Width != h.Width || g.Config.Height != h.Height {
		return Emoji{}, ErrBadImage
	}
	pal := emojiPalette(g)
	canvas := image.NewRGBA(image.Rect(0, 0, h.Width, h.Height))
	var saved *image.RGBA
	out := &gif.GIF{LoopCount: g.LoopCount, Config: image.Config{ColorModel: pal, Width: EmojiSize, Height: EmojiSize}, BackgroundIndex: uint8(len(pal) - 1)}
	var still []byte
	for i, frame := range g.Image {
		if i%16 == 0 && ctx.Err() != nil {
			return Emoji{}, ctx.Err()
		}
		disposal := byte(0)
		if i < len(g.Disposal) {
			disposal = g.Disposal[i]
		}
		if disposal == gif.DisposalPrevious {
			if saved == nil {
				saved = image.NewRGBA(canvas.Rect)
			}
			copy(saved.Pix, canvas.Pix)
		}
		draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Over)
		if i == 0 {
			if still, err = encodePNG(squareOf(canvas, EmojiSize)); err != nil {
				return Emoji{}, err
			}
		}
		out.Image = append(out.Image, toPaletted(fitCentred(canvas, EmojiSize), pal))
		out.Delay = append(out.Delay, delayOf(g, i))
		out.Disposal = append(out.Disposal, gif.DisposalBackground)
		switch disposal {
		case gif.DisposalBackground:
			draw.Draw(canvas, frame.Bounds(), image.Transparent, image.Point{}, draw.Src)
		case gif.DisposalPrevious:
			copy(canvas.Pix, saved.Pix)
		}
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, out); err != nil {
		return Emoji{}, err
	}
	e := Emoji{Image: buf.Bytes(), Format: GIF}
	if len(g.Image) > 1 {
		e.Still = still
	}
	return e, nil
}

func delayOf(g *gif.GIF, i int) int {
	if i < len(g.Delay) {
		return g.Delay[i]
	}
	return 0
}

// emojiPalette is the GIF's global palette (or its first frame's) with a transparent entry
// last.
func emojiPalette(g *gif.GIF) color.Palette {
	src, _ := g.Config.ColorModel.(color.Palette)
	if len(src) == 0 {
		src = g.Image[0].Palette
	}
	pal := make(color.Palette, 0, 256)
	for _, c := range src[:min(len(src), 255)] {
		if _, _, _, a := c.RGBA(); a == 0xffff {
			pal = append(pal, c)
		}
	}
	return append(pal, color.RGBA{})
}

// squareOf crops img to its centred square scaled to size×size.
func squareOf(img *image.RGBA, size int) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, size, size))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, centredSquare(img.Rect), draw.Src, nil)
	return dst
}

// fitCentred scales img to fit within size×size (up or down), centred on a transparent
// square.
func fitCentred(img *image.RGBA, size int) *image.RGBA {
	b := img.Rect
	w, h := size, max(1, b.Dy()*size/b.Dx())
	if b.Dy() > b.Dx() {
		w, h = max(1, b.Dx()*size/b.Dy()), size
	}
	dst := image.NewRGBA(image.Rect(0, 0, size, size))
	at := image.Rect((size-w)/2, (size-h)/2, (size-w)/2+w, (size-h)/2+h)
	draw.CatmullRom.Scale(dst, at, img, b, draw.Src, nil)
	return dst
}

// toPaletted maps img to the palette whose last entry is transparent: pixels less than half
// opaque become transparent, the others their nearest opaque colour.
func toPaletted(img *image.RGBA, pal color.Palette) *image.Paletted {
	out := image.NewPaletted(img.Rect, pal)
	opaque := pal[:len(pal)-1]
	memo := make(map[color.RGBA]uint8)
	for i := 0; i < len(img.Pix); i += 4 {
		c := color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3]}
		if c.A < 0x80 || len(opaque) == 0 {
			out.Pix[i/4] = uint8(len(pal) - 1)
			continue
		}
		idx, ok := memo[c]
		if !ok {
			idx = uint8(opaque.Index(unpremultiply(c)))
			memo[c] = idx
		}
		out.Pix[i/4] = idx
	}
	return out
}

func unpremultiply(c color.RGBA) color.NRGBA {
	return color.NRGBAModel.Convert(c).(color.NRGBA)
}

func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	err := png.Encode(&buf, img)
	return buf.Bytes(), err
}
