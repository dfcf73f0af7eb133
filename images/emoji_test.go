package images

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// animatedGIF is a w×h GIF of n frames, each a differently coloured square.
func animatedGIF(t *testing.T, w, h, n int) []byte {
	t.Helper()
	pal := color.Palette{color.Transparent, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 255, 0, 255}, color.RGBA{0, 0, 255, 255}}
	g := &gif.GIF{}
	for i := range n {
		f := image.NewPaletted(image.Rect(0, 0, w, h), pal)
		for p := range f.Pix {
			f.Pix[p] = uint8(1 + i%3)
		}
		g.Image, g.Delay = append(g.Image, f), append(g.Delay, 10)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestEmoji: every emoji comes out EmojiSize square, in its format (PNG for a WebP); an
// animated GIF keeps its frames and gets a still PNG; a still one gets none.
func TestEmoji(t *testing.T) {
	t.Parallel()
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, noisy(image.NewNRGBA(image.Rect(0, 0, 1, 1)), 300, 200), nil); err != nil {
		t.Fatal(err)
	}
	webpData, err := os.ReadFile(filepath.Join("testdata", "yellow_rose.lossy-with-alpha.webp"))
	if err != nil {
		t.Fatal(err)
	}
	type shape struct {
		Format string
		Frames int
		Still  bool
	}
	for _, tt := range []struct {
		name string
		data []byte
		want shape
	}{
		{"small png, enlarged", encodePNGTest(t, noisy(image.NewNRGBA(image.Rect(0, 0, 1, 1)), 10, 10)), shape{PNG, 1, false}},
		{"wide png", encodePNGTest(t, noisy(image.NewNRGBA(image.Rect(0, 0, 1, 1)), 500, 90)), shape{PNG, 1, false}},
		{"jpeg", jpg.Bytes(), shape{JPEG, 1, false}},
		{"webp", webpData, shape{PNG, 1, false}},
		{"still gif", animatedGIF(t, 80, 80, 1), shape{GIF, 1, false}},
		{"animated gif", animatedGIF(t, 120, 40, 5), shape{GIF, 5, true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, err := New(Config{}).Emoji(t.Context(), tt.data)
			if err != nil {
				t.Fatal(err)
			}
			h, err := ReadHeader(bytes.NewReader(e.Image))
			if err != nil {
				t.Fatal(err)
			}
			got := shape{h.Format, h.Frames, e.Still != nil}
			if diff := cmp.Diff(tt.want, got); diff != "" || e.Format != h.Format || h.Width != EmojiSize || h.Height != EmojiSize {
				t.Errorf("emoji %s %dx%d (-want +got):\n%s", e.Format, h.Width, h.Height, diff)
			}
			if e.Still != nil {
				sh, err := ReadHeader(bytes.NewReader(e.Still))
				if err != nil || sh.Format != PNG || sh.Width != EmojiSize || sh.Height != EmojiSize {
					t.Errorf("still: %+v %v", sh, err)
				}
			}
		})
	}
}

// TestEmojiAnimationComposed: the frames of a resized animation are the frames as shown, and
// a wide animation is centred on a transparent square.
func TestEmojiAnimationComposed(t *testing.T) {
	t.Parallel()
	e, err := New(Config{}).Emoji(t.Context(), animatedGIF(t, 128, 64, 3))
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(e.Image))
	if err != nil {
		t.Fatal(err)
	}
	want := []color.RGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}}
	for i, f := range g.Image {
		if got := color.RGBAModel.Convert(f.At(32, 32)).(color.RGBA); got != want[i] {
			t.Errorf("frame %d centre: %v, want %v", i, got, want[i])
		}
		if _, _, _, a := f.At(32, 2).RGBA(); a != 0 {
			t.Errorf("frame %d: the padding above a wide animation is not transparent", i)
		}
	}
}

// TestEmojiRefusals: past the pixel limit (all frames together) or the budget an emoji is
// refused before decoding; a corrupt one is a bad image.
func TestEmojiRefusals(t *testing.T) {
	t.Parallel()
	// A 10,000×1,000 canvas with 10 (tiny) frames: 100 M pixels together, as libvips counts
	// pages.
	var manyFrames bytes.Buffer
	g := &gif.GIF{Config: image.Config{Width: 10000, Height: 1000, ColorModel: color.Palette{color.Black}}}
	for range 10 {
		g.Image, g.Delay = append(g.Image, image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.Black})), append(g.Delay, 1)
	}
	if err := gif.EncodeAll(&manyFrames, g); err != nil {
		t.Fatal(err)
	}
	vast := append(writePNG(t, 20000, 20000, 1, 0, func(int, []byte) {})[:33], "\x00\x00\x00\x00IDAT"...)
	corrupt := encodePNGTest(t, noisy(image.NewNRGBA(image.Rect(0, 0, 1, 1)), 30, 30))
	corrupt = corrupt[:len(corrupt)-40]
	for _, tt := range []struct {
		name string
		data []byte
		want error
	}{
		{"frames past the pixel limit", manyFrames.Bytes(), ErrTooLarge},
		{"canvas past the pixel limit", vast, ErrTooLarge},
		{"truncated", corrupt, ErrBadImage},
		{"not an image", []byte("GIF89 no"), ErrBadImage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := New(Config{}).Emoji(t.Context(), tt.data); !errors.Is(err, tt.want) {
				t.Errorf("Emoji = %v, want %v", err, tt.want)
			}
		})
	}
	// Within the pixel limit, but the frames alone pass a small budget.
	if _, err := New(Config{MemoryBytes: 1 << 20}).Emoji(t.Context(), animatedGIF(t, 500, 500, 8)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Emoji past the budget = %v, want ErrTooLarge", err)
	}
}
