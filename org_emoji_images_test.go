package chat_test

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/teamchat/chat"
)

// TestCustomEmojiResized: custom emoji are stored 64×64 in their format; an animated GIF
// keeps its frames and gets a still PNG of its first frame (still_url), a still image none;
// an undecodable image is refused with Zulip's error and stores nothing.
func TestCustomEmojiResized(t *testing.T) {
	t.Parallel()
	pal := color.Palette{color.Transparent, color.RGBA{255, 0, 0, 255}, color.RGBA{0, 0, 255, 255}}
	anim := &gif.GIF{}
	for i := range 3 {
		f := image.NewPaletted(image.Rect(0, 0, 100, 50), pal)
		for p := range f.Pix {
			f.Pix[p] = uint8(1 + i%2)
		}
		anim.Image, anim.Delay = append(anim.Image, f), append(anim.Delay, 20)
	}
	var animated bytes.Buffer
	if err := gif.EncodeAll(&animated, anim); err != nil {
		t.Fatal(err)
	}
	emoji := &memEmojiImages{}
	f := newFixture(t, func(o *chat.Options) { o.EmojiImages = emoji })
	ctx := t.Context()
	for name, data := range map[string][]byte{"party": animated.Bytes(), "tick": testPNG(t, 300, 120)} {
		mustDo(t, "UploadCustomEmoji "+name, errOf(f.svc.UploadCustomEmoji(ctx, f.actor("member"), chat.UploadCustomEmojiParams{Name: name, Files: 1, Image: data})))
	}
	// A PNG signature over garbage: the right type, not an image.
	broken := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), make([]byte, 40)...)
	_, err := f.svc.UploadCustomEmoji(ctx, f.actor("member"), chat.UploadCustomEmojiParams{Name: "broken", Files: 1, Image: broken})
	wantError(t, err, chat.CodeBadImage, http.StatusBadRequest, "Could not decode image; did you upload an image file?")

	list, err := f.svc.GetCustomEmoji(ctx, f.actor("member"))
	if err != nil || len(list.Emoji) != 2 {
		t.Fatalf("GetCustomEmoji: %v, %v; want party and tick", list, err)
	}
	open := func(url string) []byte {
		t.Helper()
		o, err := f.svc.GetCustomEmojiImage(ctx, chat.GetCustomEmojiImageParams{Path: strings.TrimPrefix(url, "/user_avatars/")})
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		defer o.Close()
		b, err := io.ReadAll(o)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, e := range list.Emoji {
		data := open(e.SourceURL)
		cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
		if err != nil || cfg.Width != 64 || cfg.Height != 64 {
			t.Errorf("%s: %s %dx%d %v, want 64x64", e.Name, format, cfg.Width, cfg.Height, err)
		}
		switch e.Name {
		case "party":
			g, err := gif.DecodeAll(bytes.NewReader(data))
			if err != nil || len(g.Image) != 3 || !strings.HasSuffix(e.SourceURL, ".gif") || e.StillURL == nil || !strings.HasSuffix(*e.StillURL, "-still.png") {
				t.Fatalf("party: %s, still %v, %v", e.SourceURL, e.StillURL, err)
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(open(*e.StillURL)))
			if err != nil || format != "png" || cfg.Width != 64 || cfg.Height != 64 {
				t.Errorf("party's still: %s %dx%d %v", format, cfg.Width, cfg.Height, err)
			}
		case "tick":
			if e.StillURL != nil || format != "png" {
				t.Errorf("tick: %s, still %v", format, e.StillURL)
			}
		}
	}
	emoji.mu.Lock()
	defer emoji.mu.Unlock()
	if len(emoji.files) != 3 {
		t.Errorf("images stored: %d, want party, its still and tick", len(emoji.files))
	}
}
