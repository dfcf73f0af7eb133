package chat_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs"
)

// memEmojiImages keeps custom emoji images in memory.
type memEmojiImages struct {
	mu    sync.Mutex
	files map[string][]byte
	fail  bool
}

func (m *memEmojiImages) PutEmojiImage(_ context.Context, path string, image []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail {
		return errors.New("disk full")
	}
	if m.files == nil {
		m.files = map[string][]byte{}
	}
	m.files[path] = append([]byte{}, image...)
	return nil
}

func (m *memEmojiImages) OpenEmojiImage(_ context.Context, path string) (blobs.Object, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[path]
	if !ok {
		return nil, blobs.ErrNotFound
	}
	return memEmojiObject{bytes.NewReader(b), blobs.Info{Key: path, Size: int64(len(b))}}, nil
}

// memEmojiObject is an image of memEmojiImages, opened.
type memEmojiObject struct {
	*bytes.Reader
	info blobs.Info
}

func (o memEmojiObject) Close() error     { return nil }
func (o memEmojiObject) Info() blobs.Info { return o.info }

// pngImage is a 1×1 PNG image (emoji are decoded and resized).
var pngImage = []byte("\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99\x3d\x1d\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82")

func mustUploadEmoji(t *testing.T, f *fixture, who, name string) {
	t.Helper()
	mustDo(t, "UploadCustomEmoji", errOf(f.svc.UploadCustomEmoji(t.Context(), f.actor(who), chat.UploadCustomEmojiParams{Name: name, Files: 1, Image: pngImage})))
}

func realmEmojiConsistencyCases() []consistencyCase {
	return []consistencyCase{
		{method: "UploadCustomEmoji", name: "by a member", run: func(t *testing.T, f *fixture) {
			mustUploadEmoji(t, f, "member", "green_tick")
		}},
		{method: "DeactivateCustomEmoji", name: "by an administrator", setup: func(t *testing.T, f *fixture) {
			mustUploadEmoji(t, f, "member", "green_tick")
			mustUploadEmoji(t, f, "member", "party")
		}, run: func(t *testing.T, f *fixture) {
			mustDo(t, "DeactivateCustomEmoji", errOf(f.svc.DeactivateCustomEmoji(t.Context(), f.actor("admin"), chat.DeactivateCustomEmojiParams{Name: "green_tick"})))
		}},
	}
}

func goldenRealmEmoji(t *testing.T, f *fixture) {
	mustUploadEmoji(t, f, "member", "green_tick")
	mustDo(t, "DeactivateCustomEmoji", errOf(f.svc.DeactivateCustomEmoji(t.Context(), f.actor("member"), chat.DeactivateCustomEmojiParams{Name: "green_tick"})))
}

func TestCustomEmoji(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	mustUploadEmoji(t, f, "member", "green tick")
	got, err := f.svc.GetCustomEmoji(ctx, f.actor("guest"))
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := got.Emoji["1"]
	if !ok || rec.Name != "green_tick" || rec.Deactivated || rec.AuthorID == nil || *rec.AuthorID != f.ids["member"] ||
		!strings.HasPrefix(rec.SourceURL, "/user_avatars/1/emoji/images/") || !strings.HasSuffix(rec.SourceURL, ".png") || rec.StillURL != nil {
		t.Fatalf("GetCustomEmoji = %+v", got)
	}

	// Reactions with it, by name (the custom emoji comes first) and by code.
	id := mustSendDirect(t, f, "admin", "hi", "member")
	mustDo(t, "AddReaction", errOf(f.svc.AddReaction(ctx, f.actor("member"), chat.AddReactionParams{MessageID: id, EmojiName: "green_tick"})))
	mustDo(t, "AddReaction", errOf(f.svc.AddReaction(ctx, f.actor("admin"), chat.AddReactionParams{MessageID: id, EmojiName: "green_tick", EmojiCode: ptr("1"), ReactionType: ptr("realm_emoji")})))
	want := []chat.ReactionRecord{
		{EmojiName: "green_tick", EmojiCode: "1", ReactionType: "realm_emoji", UserID: f.ids["member"]},
		{EmojiName: "green_tick", EmojiCode: "1", ReactionType: "realm_emoji", UserID: f.ids["admin"]},
	}
	if diff := cmp.Diff(want, reactionsOf(t, f, "member", id)); diff != "" {
		t.Errorf("reactions (-want +got):\n%s", diff)
	}

	// Only its author or an administrator deactivates it; then new reactions refuse it.
	_, err = f.svc.DeactivateCustomEmoji(ctx, f.actor("guest"), chat.DeactivateCustomEmojiParams{Name: "green_tick"})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Must be an organization administrator or emoji author")
	mustDo(t, "DeactivateCustomEmoji", errOf(f.svc.DeactivateCustomEmoji(ctx, f.actor("member"), chat.DeactivateCustomEmojiParams{Name: "green_tick"})))
	_, err = f.svc.DeactivateCustomEmoji(ctx, f.actor("member"), chat.DeactivateCustomEmojiParams{Name: "green_tick"})
	wantError(t, err, chat.CodeBadRequest, http.StatusNotFound, "Emoji 'green_tick' does not exist")
	other := mustSendDirect(t, f, "admin", "again", "member")
	_, err = f.svc.AddReaction(ctx, f.actor("member"), chat.AddReactionParams{MessageID: other, EmojiName: "green_tick", EmojiCode: ptr("1"), ReactionType: ptr("realm_emoji")})
	wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "This custom emoji has been deactivated.")
	// A vote for an existing reaction with it still counts.
	mustDo(t, "RemoveReaction", errOf(f.svc.RemoveReaction(ctx, f.actor("member"), chat.RemoveReactionParams{MessageID: id, EmojiCode: ptr("1"), ReactionType: ptr("realm_emoji")})))
	mustDo(t, "AddReaction", errOf(f.svc.AddReaction(ctx, f.actor("member"), chat.AddReactionParams{MessageID: id, EmojiName: "x", EmojiCode: ptr("1"), ReactionType: ptr("realm_emoji")})))
	if got := reactionsOf(t, f, "member", id); len(got) != 2 || got[1].EmojiName != "green_tick" {
		t.Errorf("after the vote: %v", got)
	}
	// Its name is free again.
	mustUploadEmoji(t, f, "member", "green_tick")
}

func TestUploadCustomEmojiRefusals(t *testing.T) {
	t.Parallel()
	images := &memEmojiImages{}
	f := newFixture(t, func(o *chat.Options) { o.EmojiImages = images })
	ctx := t.Context()
	mustUploadEmoji(t, f, "member", "taken")
	big := append(append([]byte{}, pngImage...), make([]byte, chat.MaxEmojiFileSize)...)
	for _, tt := range []struct {
		name, who string
		p         chat.UploadCustomEmojiParams
		msg       string
	}{
		{"a guest", "guest", chat.UploadCustomEmojiParams{Name: "my_tick", Files: 1, Image: pngImage}, "Insufficient permission"},
		{"a taken name", "admin", chat.UploadCustomEmojiParams{Name: "taken", Files: 1, Image: pngImage}, "A custom emoji with this name already exists."},
		{"a unicode emoji's name", "member", chat.UploadCustomEmojiParams{Name: "octopus", Files: 1, Image: pngImage}, "Only administrators can override default emoji."},
		{"an invalid name", "member", chat.UploadCustomEmojiParams{Name: "Tick!", Files: 1, Image: pngImage}, "Emoji names must contain only lowercase alphanumeric characters, dashes, and underscores."},
		{"a name ending with an underscore", "member", chat.UploadCustomEmojiParams{Name: "tick_", Files: 1, Image: pngImage}, "Emoji names must end with either a letter or digit."},
		{"no file", "member", chat.UploadCustomEmojiParams{Name: "my_tick"}, "You must upload exactly one file."},
		{"two files", "member", chat.UploadCustomEmojiParams{Name: "my_tick", Files: 2, Image: pngImage}, "You must upload exactly one file."},
		{"a file too large", "member", chat.UploadCustomEmojiParams{Name: "my_tick", Files: 1, Image: big}, "Uploaded file is larger than the allowed limit of 5 MiB"},
		{"no image", "member", chat.UploadCustomEmojiParams{Name: "my_tick", Files: 1, Image: []byte("plain text")}, "Invalid image format"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.UploadCustomEmoji(ctx, f.actor(tt.who), tt.p)
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, tt.msg)
		})
	}
	got, err := f.svc.GetCustomEmoji(ctx, f.actor("admin"))
	if err != nil || len(got.Emoji) != 1 {
		t.Errorf("emoji after the refusals: %v, %v", got, err)
	}
	if len(images.files) != 1 {
		t.Errorf("images stored: %d, want the one emoji's", len(images.files))
	}
	images.fail = true
	_, err = f.svc.UploadCustomEmoji(ctx, f.actor("member"), chat.UploadCustomEmojiParams{Name: "lost", Files: 1, Image: []byte("\x47\x49\x46\x38\x39\x61\x01\x00\x01\x00\x80\x00\x00\x00\x00\xff\xff\xff\x21\xf9\x04\x01\x00\x00\x00\x00\x2c\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02\x44\x01\x00\x3b")})
	if err == nil {
		t.Error("an upload whose image could not be stored succeeded")
	}
	if got, _ := f.svc.GetCustomEmoji(ctx, f.actor("admin")); len(got.Emoji) != 1 {
		t.Errorf("a failed image store left an emoji: %v", got)
	}
}

func TestRegisterEmojiState(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	mustUploadEmoji(t, f, "member", "green_tick")
	res, err := f.svc.RegisterQueue(t.Context(), f.actor("guest"), chat.RegisterQueueParams{FetchEventTypes: []string{"realm", "realm_emoji"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.EmojiState == nil || res.RealmEmoji == nil || (*res.RealmEmoji)["1"].Name != "green_tick" {
		t.Errorf("realm_emoji = %+v", res.EmojiState)
	}
	if res.ServerEmojiDataURL == nil || *res.ServerEmojiDataURL != "https://chat.example.com"+chat.ServerEmojiDataPath {
		t.Errorf("server_emoji_data_url = %v", res.ServerEmojiDataURL)
	}
	data := f.svc.GetServerEmojiData()
	if names := data.CodeToNames["1f419"]; len(names) == 0 || names[0] != "octopus" {
		t.Errorf("code_to_names[1f419] = %v", names)
	}
}

// applyRealmEmoji applies a realm_emoji event: the whole list (update), one new emoji (add) or
// a change of one (update_one).
func applyRealmEmoji(t *testing.T, state, ev map[string]any) {
	t.Helper()
	cur, ok := state["realm_emoji"].(map[string]any)
	if !ok {
		return
	}
	switch ev["op"] {
	case "update":
		state["realm_emoji"] = ev["realm_emoji"]
	case "add":
		e := ev["emoji"].(map[string]any)
		cur[e["id"].(string)] = e
	case "update_one":
		e := cur[ev["emoji_id"].(string)].(map[string]any)
		for k, v := range ev["data"].(map[string]any) {
			e[k] = v
		}
	default:
		t.Fatalf("unknown realm_emoji op in %v", ev)
	}
}
