package chat_test

import (
	"bytes"
	"image"
	_ "image/gif" // the emoji and thumbnails read back
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/imagetest"
	"github.com/teamchat/chat/uploads"
)

// TestHostileImages: the images of the issue, a 7071×7071 PNG at 16 bits per sample (389 KB
// sent, 400 MB decoded: it grew the process by 430-510 MB, four at once by 2 GB) and a
// 20,000×20,000 one-colour PNG, sent four at a time as uploads, avatars and custom emoji,
// grow the heap by less than 64 MB on every backend. The first is thumbnailed, made an
// avatar and an emoji of 64×64; the second is refused with Zulip's error and stores nothing
// (an upload of it stays a file without thumbnail). Not parallel: it measures the heap.
func TestHostileImages(t *testing.T) {
	deep := imagetest.StreamedPNG(t, 7071, 7071, 16, 6, 64, func(y int, b []byte) {
		for x := 0; x < len(b); x += 8 {
			b[x], b[x+6], b[x+7] = byte(y), 0xff, 0xff
		}
	})
	vast := imagetest.StreamedPNG(t, 20000, 20000, 1, 0, 1, func(int, []byte) {})
	emojiSide := 7746
	bigEmoji := imagetest.StreamedPNG(t, emojiSide, emojiSide, 8, 2, 24, func(y int, b []byte) { b[0] = byte(y) })
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			emoji := &memEmojiImages{}
			f := newFixtureOn(t, b.open(t), func(o *chat.Options) { o.EmojiImages = emoji })
			ctx := t.Context()
			who := []string{"owner", "admin", "member", "guest"}

			// Uploads: four of each at once.
			var ups [8]chat.UploadFileResult
			var errs [8]error
			peak := imagetest.HeapPeak(t, func() {
				var wg sync.WaitGroup
				for i := range ups {
					data := map[bool][]byte{true: deep, false: vast}[i%2 == 0]
					wg.Go(func() {
						ups[i], errs[i] = f.svc.UploadFile(ctx, f.actor("member"), chat.UploadFileParams{Filename: "big.png", Content: bytes.NewReader(data)})
					})
				}
				wg.Wait()
			})
			t.Logf("uploads: heap grew by at most %.1f MB", float64(peak)/1e6)
			if peak >= 64<<20 {
				t.Errorf("uploads: heap grew by %d bytes, want less than 64 MiB", peak)
			}
			for i, up := range ups {
				if errs[i] != nil {
					t.Fatalf("upload %d: %v", i, errs[i])
				}
				thumb, err := f.svc.GetUploadedFile(ctx, f.actor("member"), chat.GetUploadedFileParams{PathID: strings.TrimPrefix(up.URL, "/user_uploads/"), Thumbnail: uploads.ThumbnailFormats[0].Name})
				if i%2 == 1 {
					wantStatus(t, "thumbnail of the vast PNG", err, http.StatusNotFound)
					continue
				}
				if err != nil {
					t.Fatalf("thumbnail of the deep PNG: %v", err)
				}
				cfg, format, err := image.DecodeConfig(thumb)
				thumb.Close()
				if err != nil || format != "jpeg" || cfg.Width != 560 || cfg.Height != 560 {
					t.Errorf("thumbnail of the deep PNG: %s %dx%d %v, want a 560x560 JPEG", format, cfg.Width, cfg.Height, err)
				}
			}

			// Avatars: four deep ones at once beside four vast ones, which are refused.
			var avatarErrs [8]error
			peak = imagetest.HeapPeak(t, func() {
				var wg sync.WaitGroup
				for i := range avatarErrs {
					data := map[bool][]byte{true: deep, false: vast}[i%2 == 0]
					wg.Go(func() {
						_, avatarErrs[i] = f.svc.UploadAvatar(ctx, f.actor(who[i/2]), chat.UploadAvatarParams{Content: bytes.NewReader(data)})
					})
				}
				wg.Wait()
			})
			t.Logf("avatars: heap grew by at most %.1f MB", float64(peak)/1e6)
			if peak >= 64<<20 {
				t.Errorf("avatars: heap grew by %d bytes, want less than 64 MiB", peak)
			}
			for i, err := range avatarErrs {
				if i%2 == 1 {
					wantError(t, err, chat.CodeBadImage, http.StatusBadRequest, "Image size exceeds limit.")
				} else if err != nil {
					t.Errorf("avatar of the deep PNG: %v", err)
				}
			}
			for _, medium := range []bool{false, true} {
				img, err := f.svc.GetAvatarImage(ctx, chat.GetAvatarImageParams{Path: uploads.AvatarPath(f.ids["member"], medium)})
				if err != nil {
					t.Fatal(err)
				}
				cfg, _, err := image.DecodeConfig(img)
				img.Close()
				if want := map[bool]int{false: 100, true: 500}[medium]; err != nil || cfg.Width != want || cfg.Height != want {
					t.Errorf("avatar (medium %v): %dx%d %v, want %d square", medium, cfg.Width, cfg.Height, err, want)
				}
			}

			// Emoji: the 7746×7746 PNG of the issue and the deep one are stored at 64×64;
			// the vast one is refused and stores nothing.
			var emojiErrs [8]error
			names := []string{"deep0", "vast0", "deep1", "vast1", "bigone", "vast2", "deep2", "vast3"}
			peak = imagetest.HeapPeak(t, func() {
				var wg sync.WaitGroup
				for i, name := range names {
					data := map[bool][]byte{true: deep, false: vast}[i%2 == 0]
					if name == "bigone" {
						data = bigEmoji
					}
					wg.Go(func() {
						_, emojiErrs[i] = f.svc.UploadCustomEmoji(ctx, f.actor("admin"), chat.UploadCustomEmojiParams{Name: name, Files: 1, Image: data})
					})
				}
				wg.Wait()
			})
			t.Logf("emoji: heap grew by at most %.1f MB", float64(peak)/1e6)
			if peak >= 64<<20 {
				t.Errorf("emoji: heap grew by %d bytes, want less than 64 MiB", peak)
			}
			for i, err := range emojiErrs {
				if i%2 == 1 {
					wantError(t, err, chat.CodeBadImage, http.StatusBadRequest, "Image size exceeds limit.")
				} else if err != nil {
					t.Errorf("emoji %s: %v", names[i], err)
				}
			}
			list, err := f.svc.GetCustomEmoji(ctx, f.actor("admin"))
			if err != nil || len(list.Emoji) != 4 {
				t.Fatalf("emoji after the uploads: %d, %v; want the 4 not refused", len(list.Emoji), err)
			}
			for _, e := range list.Emoji {
				img, err := f.svc.GetCustomEmojiImage(ctx, chat.GetCustomEmojiImageParams{Path: strings.TrimPrefix(e.SourceURL, "/user_avatars/")})
				if err != nil {
					t.Fatal(err)
				}
				cfg, _, err := image.DecodeConfig(img)
				img.Close()
				if err != nil || cfg.Width != 64 || cfg.Height != 64 || e.StillURL != nil {
					t.Errorf("emoji %s: %dx%d %v still %v, want 64x64 without a still", e.Name, cfg.Width, cfg.Height, err, e.StillURL)
				}
			}
			emoji.mu.Lock()
			defer emoji.mu.Unlock()
			if len(emoji.files) != 2 { // deep0..2 share one image (the same bytes), bigone
				t.Errorf("emoji images stored: %d, want 2", len(emoji.files))
			}
		})
	}
}
