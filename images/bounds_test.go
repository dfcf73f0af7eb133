package images

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"sync"
	"testing"

	"github.com/teamchat/chat/internal/imagetest"
)

// hostilePNGs are the images of the issue: a 7071×7071 PNG at 16 bits per sample (400 MB
// decoded, well under Zulip's pixel limit) and a 20,000×20,000 one-colour PNG (past it).
func hostilePNGs(t testing.TB) (deep, vast []byte) {
	t.Helper()
	deep = writePNG(t, 7071, 7071, 16, 6, func(y int, b []byte) {
		for x := 0; x < len(b); x += 8 {
			b[x], b[x+6], b[x+7] = byte(y), 0xff, 0xff // a red gradient, opaque
		}
	})
	vast = writePNG(t, 20000, 20000, 1, 0, func(int, []byte) {})
	return deep, vast
}

// TestHostileImagesWithinHeap: four of each hostile image at once, through every operation
// (thumbnail, both avatar sizes, emoji), grow the heap by less than 64 MB; the deep one is
// shrunk as it streams, the vast one refused from its header.
func TestHostileImagesWithinHeap(t *testing.T) {
	deep, vast := hostilePNGs(t)
	t.Logf("deep PNG: %d bytes, vast PNG: %d bytes", len(deep), len(vast))
	p := New(Config{})
	ops := map[string]func(ctx context.Context, data []byte) opResult{
		"fit": func(ctx context.Context, data []byte) opResult {
			img, _, err := p.Fit(ctx, bytes.NewReader(data), 840, 560)
			return sizeOf(img, err)
		},
		"square 500": func(ctx context.Context, data []byte) opResult {
			img, _, err := p.Square(ctx, bytes.NewReader(data), MediumAvatarSize)
			return sizeOf(img, err)
		},
		"emoji": func(ctx context.Context, data []byte) opResult {
			e, err := p.Emoji(ctx, data)
			if err != nil {
				return opResult{err: err}
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(e.Image))
			return opResult{size: image.Pt(cfg.Width, cfg.Height), err: err}
		},
	}
	want := map[string]image.Point{"fit": {560, 560}, "square 500": {500, 500}, "emoji": {64, 64}}
	for name, op := range ops {
		var results [8]opResult
		peak := imagetest.HeapPeak(t, func() {
			var wg sync.WaitGroup
			for i := range results {
				data := deep
				if i%2 == 1 {
					data = vast
				}
				wg.Go(func() { results[i] = op(t.Context(), data) })
			}
			wg.Wait()
		})
		t.Logf("%s: four deep and four vast at once: heap grew by at most %.1f MB", name, float64(peak)/1e6)
		if peak >= 64<<20 {
			t.Errorf("%s: the heap grew by %d bytes, want less than 64 MiB", name, peak)
		}
		for i, r := range results {
			switch {
			case i%2 == 0 && (r.err != nil || r.size != want[name]):
				t.Errorf("%s of the deep PNG: %v, %v; want %v", name, r.size, r.err, want[name])
			case i%2 == 1 && !errors.Is(r.err, ErrTooLarge):
				t.Errorf("%s of the vast PNG: %v, %v; want ErrTooLarge", name, r.size, r.err)
			}
		}
	}
}

// opResult is the size of an operation's image, or its error.
type opResult struct {
	size image.Point
	err  error
}

func sizeOf(img *image.RGBA, err error) opResult {
	if err != nil {
		return opResult{err: err}
	}
	return opResult{size: img.Rect.Size()}
}
