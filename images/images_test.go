package images

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/teamchat/chat/internal/imagetest"
	"golang.org/x/image/webp"
)

// writePNG writes a PNG row by row (filter none), so that tests can make images far larger
// than memory would hold decoded.
func writePNG(t testing.TB, w, h int, depth, colorType byte, row func(y int, b []byte)) []byte {
	t.Helper()
	return imagetest.StreamedPNG(t, w, h, depth, colorType, pngBitsPerPixel(colorType, depth), row)
}

// noisy is a w×h image of type like's with varied pixels (so that the PNG encoder uses
// every filter) and, where it has alpha, varied transparency.
func noisy(like image.Image, w, h int) image.Image {
	r := image.Rect(0, 0, w, h)
	var dst draw.Image
	switch like := like.(type) {
	case *image.Gray:
		dst = image.NewGray(r)
	case *image.Gray16:
		dst = image.NewGray16(r)
	case *image.RGBA64:
		dst = image.NewRGBA64(r)
	case *image.NRGBA64:
		dst = image.NewNRGBA64(r)
	case *image.Paletted:
		dst = image.NewPaletted(r, like.Palette)
	default:
		dst = image.NewNRGBA(r)
	}
	for y := range h {
		for x := range w {
			v := uint16(x*7919 + y*104729 + x*y*31)
			dst.Set(x, y, color.NRGBA64{v, v * 3, v * 5, 0xffff - uint16(x*y*977)})
		}
	}
	return dst
}

func encodePNGTest(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadHeader(t *testing.T) {
	t.Parallel()
	jpg := func(img image.Image) []byte {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, nil); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	pal := color.Palette{color.Black, color.White, color.Transparent}
	var anim bytes.Buffer
	g := &gif.GIF{Image: []*image.Paletted{image.NewPaletted(image.Rect(0, 0, 30, 20), pal), image.NewPaletted(image.Rect(5, 5, 15, 10), pal), image.NewPaletted(image.Rect(0, 0, 30, 20), pal)}, Delay: []int{1, 1, 1}}
	if err := gif.EncodeAll(&anim, g); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		data []byte
		want Header
	}{
		{"grey png", encodePNGTest(t, image.NewGray(image.Rect(0, 0, 7, 3))), Header{Format: PNG, Width: 7, Height: 3, Frames: 1, FramePixels: 21, MaxFrameArea: 21}},
		{"rgba64 png", encodePNGTest(t, noisy(image.NewNRGBA64(image.Rect(0, 0, 1, 1)), 9, 4)), Header{Format: PNG, Width: 9, Height: 4, Frames: 1, FramePixels: 36, MaxFrameArea: 36}},
		{"huge png header", writePNG(t, 20000, 20000, 1, 0, func(int, []byte) {})[:33], Header{Format: PNG, Width: 20000, Height: 20000, Frames: 1, FramePixels: 4e8, MaxFrameArea: 4e8}},
		{"jpeg", jpg(image.NewRGBA(image.Rect(0, 0, 33, 17))), Header{Format: JPEG, Width: 33, Height: 17, Frames: 1, FramePixels: 561, MaxFrameArea: 561}},
		{"grey jpeg", jpg(image.NewGray(image.Rect(0, 0, 8, 8))), Header{Format: JPEG, Width: 8, Height: 8, Frames: 1, FramePixels: 64, MaxFrameArea: 64}},
		{"animated gif", anim.Bytes(), Header{Format: GIF, Width: 30, Height: 20, Frames: 3, FramePixels: 600 + 50 + 600, MaxFrameArea: 600}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The huge header is cut after IHDR: reading it must not need the rest.
			data := tt.data
			if tt.name == "huge png header" {
				data = append(data, "\x00\x00\x00\x00IDAT"...)
			}
			got, err := ReadHeader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b Header) bool {
				return a.Format == b.Format && a.Width == b.Width && a.Height == b.Height && a.Frames == b.Frames && a.FramePixels == b.FramePixels && a.MaxFrameArea == b.MaxFrameArea
			})); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			if cfg, _, err := image.DecodeConfig(bytes.NewReader(tt.data)); err == nil && (cfg.Width != got.Width || cfg.Height != got.Height) {
				t.Errorf("image.DecodeConfig reads %dx%d, ReadHeader %dx%d", cfg.Width, cfg.Height, got.Width, got.Height)
			}
		})
	}
}

// TestReadHeaderWebP reads WebP files of golang.org/x/image's test data: lossy (VP8),
// lossless (VP8L) and lossy with alpha (VP8X).
func TestReadHeaderWebP(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"blue-purple-pink.lossy.webp", "blue-purple-pink.lossless.webp", "yellow_rose.lossy-with-alpha.webp"} {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadHeader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		cfg, err := webp.DecodeConfig(bytes.NewReader(data))
		if err != nil || got.Format != WebP || got.Width != cfg.Width || got.Height != cfg.Height || got.Frames != 1 {
			t.Errorf("%s: header %+v, webp.DecodeConfig %+v %v", file, got, cfg, err)
		}
	}
}

func TestReadHeaderRefuses(t *testing.T) {
	t.Parallel()
	good := encodePNGTest(t, image.NewGray(image.Rect(0, 0, 2, 2)))
	badDepth := bytes.Clone(good)
	badDepth[24] = 3
	zero := bytes.Clone(good)
	copy(zero[16:20], []byte{0, 0, 0, 0})
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"text", []byte("hello, world")},
		{"png signature only", good[:8]},
		{"png cut in IHDR", good[:20]},
		{"png bit depth 3", badDepth},
		{"png zero width", zero},
		{"jpeg without frame header", []byte("\xff\xd8\xff\xd9")},
		{"jpeg arithmetic coding", []byte("\xff\xd8\xff\xc9\x00\x0b\x08\x00\x01\x00\x01\x01\x01\x11\x00")},
		{"gif without frames", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")},
		{"webp without frame", []byte("RIFF\x04\x00\x00\x00WEBP")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if h, err := ReadHeader(bytes.NewReader(tt.data)); err == nil {
				t.Errorf("ReadHeader = %+v, want an error", h)
			}
		})
	}
}

// decodeRGBA is the image as the standard decoder reads it, in premultiplied 8-bit RGBA.
func decodeRGBA(t testing.TB, data []byte) *image.RGBA {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}

// streamed is the PNG streamed through a shrinker of its own size: the conversion alone.
func streamed(t testing.TB, data []byte) (*image.RGBA, error) {
	t.Helper()
	h, err := ReadHeader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	s := newShrinker(h.Width, h.Height, h.Width, h.Height)
	if err := streamPNG(t.Context(), bytes.NewReader(data), h, image.Rect(0, 0, h.Width, h.Height), s); err != nil {
		return nil, err
	}
	return s.image(), nil
}

// TestStreamMatchesDecode: every colour type and depth the PNG encoder writes streams to the
// pixels image/png decodes.
func TestStreamMatchesDecode(t *testing.T) {
	t.Parallel()
	r := image.Rect(0, 0, 1, 1)
	for _, tt := range []struct {
		name string
		like image.Image
	}{
		{"grey 8", image.NewGray(r)},
		{"grey 16", image.NewGray16(r)},
		{"rgba 8", image.NewNRGBA(r)},
		{"rgba 16", image.NewNRGBA64(r)},
		{"rgb 16", image.NewRGBA64(r)},
		{"paletted 1 bit", image.NewPaletted(r, color.Palette{color.Black, color.White})},
		{"paletted 2 bits with alpha", image.NewPaletted(r, color.Palette{color.Black, color.White, color.Transparent, color.NRGBA{200, 10, 10, 128}})},
		{"paletted 8 bits", image.NewPaletted(r, paletteOf(200))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data := encodePNGTest(t, noisy(tt.like, 37, 23))
			got, err := streamed(t, data)
			if err != nil {
				t.Fatal(err)
			}
			want := decodeRGBA(t, data)
			if diff := maxDiff(want, got); diff > 1 {
				t.Errorf("streamed pixels differ from image/png's by up to %d", diff)
			}
		})
	}
}

func paletteOf(n int) color.Palette {
	p := make(color.Palette, n)
	for i := range p {
		p[i] = color.NRGBA{uint8(i), uint8(255 - i), uint8(i * 7), uint8(255 - i/4)}
	}
	return p
}

// maxDiff is the largest difference of a sample of a and b (255 when their sizes differ).
func maxDiff(a, b *image.RGBA) int {
	if a.Rect.Size() != b.Rect.Size() {
		return 255
	}
	d := 0
	for i := range a.Pix {
		d = max(d, abs(int(a.Pix[i])-int(b.Pix[i])))
	}
	return d
}

// TestShrinkAverages: a shrunk image is the mean of the pixels each output pixel covers.
func TestShrinkAverages(t *testing.T) {
	t.Parallel()
	// Left half black, right half white, 8×4: shrunk to 2×1 it is one black, one white pixel;
	// to 1×1 mid grey.
	data := writePNG(t, 8, 4, 8, 0, func(_ int, b []byte) {
		for x := range b {
			b[x] = map[bool]byte{true: 0, false: 255}[x < 4]
		}
	})
	h, err := ReadHeader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		w, h int
		want []uint8
	}{
		{2, 1, []uint8{0, 0, 0, 255, 255, 255, 255, 255}},
		{1, 1, []uint8{127, 127, 127, 255}},
	} {
		s := newShrinker(8, 4, tt.w, tt.h)
		if err := streamPNG(t.Context(), bytes.NewReader(data), h, image.Rect(0, 0, 8, 4), s); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, s.image().Pix); diff != "" {
			t.Errorf("%dx%d (-want +got):\n%s", tt.w, tt.h, diff)
		}
	}
}

// TestStreamRefusesCorruptData: a wrong CRC, a bad filter type and a short image data end
// the stream with ErrBadImage.
func TestStreamRefusesCorruptData(t *testing.T) {
	t.Parallel()
	good := encodePNGTest(t, noisy(image.NewNRGBA(image.Rect(0, 0, 1, 1)), 16, 16))
	idat := bytes.Index(good, []byte("IDAT"))
	badCRC := bytes.Clone(good)
	badCRC[idat+4+int(binary.BigEndian.Uint32(good[idat-4:]))] ^= 0xff
	short := writePNG(t, 4, 4, 8, 0, func(int, []byte) {})
	short = append(short[:bytes.Index(short, []byte("IDAT"))-4], 0, 0, 0, 0)
	badFilter := withRows(t, 4, 4, []byte{9, 0, 0, 0, 0})
	for name, data := range map[string][]byte{"crc": badCRC, "short": short, "filter": badFilter} {
		if _, err := streamed(t, data); err == nil {
			t.Errorf("%s: streamed a corrupt PNG", name)
		}
	}
}

// withRows is a w×h grey PNG whose image data is raw (filter bytes included), repeated.
func withRows(t *testing.T, w, h int, raw []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 8
	imagetest.WriteChunk(&out, "IHDR", ihdr[:])
	var data bytes.Buffer
	zw := zlib.NewWriter(&data)
	for range h {
		zw.Write(raw)
	}
	zw.Close()
	imagetest.WriteChunk(&out, "IDAT", data.Bytes())
	imagetest.WriteChunk(&out, "IEND", nil)
	return out.Bytes()
}
