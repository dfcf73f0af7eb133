package images

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	_ "image/jpeg" // image.DecodeConfig's formats
	"image/png"
	"os"
	"path/filepath"
	"testing"

	_ "golang.org/x/image/webp"
)

// fuzzSeeds are small images of every format and kind the package reads.
func fuzzSeeds(f *testing.F) [][]byte {
	f.Helper()
	var seeds [][]byte
	r := image.Rect(0, 0, 1, 1)
	for _, like := range []image.Image{image.NewGray(r), image.NewGray16(r), image.NewNRGBA(r), image.NewRGBA64(r), image.NewPaletted(r, color.Palette{color.Black, color.Transparent})} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, noisy(like, 5, 3)); err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, buf.Bytes())
	}
	var g bytes.Buffer
	pal := color.Palette{color.Black, color.White}
	if err := gif.EncodeAll(&g, &gif.GIF{Image: []*image.Paletted{image.NewPaletted(image.Rect(0, 0, 4, 4), pal), image.NewPaletted(image.Rect(1, 1, 3, 3), pal)}, Delay: []int{2, 2}}); err != nil {
		f.Fatal(err)
	}
	seeds = append(seeds, g.Bytes(), []byte("\xff\xd8\xff\xc0\x00\x11\x08\x00\x02\x00\x03\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"))
	files, _ := filepath.Glob(filepath.Join("testdata", "*.webp"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	return seeds
}

// FuzzReadHeader: ReadHeader never panics; what it accepts has a canvas and frames, and the
// canvas is the one the standard decoders read from the same header.
func FuzzReadHeader(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ReadHeader(bytes.NewReader(data))
		if err != nil {
			return
		}
		if h.Width <= 0 || h.Height <= 0 || h.Frames <= 0 || h.DecodeBytes() <= 0 {
			t.Fatalf("accepted header %+v", h)
		}
		if cfg, format, err := image.DecodeConfig(bytes.NewReader(data)); err == nil && format == h.Format && (cfg.Width != h.Width || cfg.Height != h.Height) {
			t.Fatalf("%s: decoder reads %dx%d, ReadHeader %dx%d", format, cfg.Width, cfg.Height, h.Width, h.Height)
		}
	})
}

// FuzzStreamPNG: a small PNG that image/png decodes streams to the same pixels; the stream
// never panics on anything else.
func FuzzStreamPNG(f *testing.F) {
	for _, s := range fuzzSeeds(f)[:5] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ReadHeader(bytes.NewReader(data))
		if err != nil || !h.Streamable() || h.Pixels() > 1<<16 {
			return
		}
		got, streamErr := streamed(t, data)
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			return
		}
		if streamErr != nil {
			t.Fatalf("image/png decodes it, the stream fails: %v", streamErr)
		}
		want := image.NewRGBA(img.Bounds())
		for y := range want.Rect.Dy() {
			for x := range want.Rect.Dx() {
				want.Set(x, y, img.At(img.Bounds().Min.X+x, img.Bounds().Min.Y+y))
			}
		}
		if d := maxDiff(want, got); d > 1 {
			t.Fatalf("streamed pixels differ from image/png's by up to %d", d)
		}
	})
}

// FuzzProcessor: the operations on untrusted bytes never panic and return an image of the
// size asked for or an error.
func FuzzProcessor(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	p := New(Config{MemoryBytes: 8 << 20, Workers: 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if h, err := ReadHeader(bytes.NewReader(data)); err != nil || h.Pixels() > 1<<20 {
			return // large canvases are slow to fuzz, not unsafe
		}
		if img, _, err := p.Fit(t.Context(), bytes.NewReader(data), 16, 16); err == nil && (img.Rect.Dx() > 16 || img.Rect.Dy() > 16) {
			t.Fatalf("Fit gave %v", img.Rect)
		}
		if img, _, err := p.Square(t.Context(), bytes.NewReader(data), 8); err == nil && img.Rect.Size() != image.Pt(8, 8) {
			t.Fatalf("Square gave %v", img.Rect)
		}
		if e, err := p.Emoji(t.Context(), data); err == nil {
			cfg, _, err := image.DecodeConfig(bytes.NewReader(e.Image))
			if err != nil || cfg.Width != EmojiSize || cfg.Height != EmojiSize {
				t.Fatalf("emoji image: %+v %v", cfg, err)
			}
		}
	})
}
