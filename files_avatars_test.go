package chat_test

import (
	"bytes"
	"image"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
)

func TestAvatars(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	q := f.register(t, "admin")
	res, err := f.svc.UploadAvatar(ctx, f.actor("member"), chat.UploadAvatarParams{Content: bytes.NewReader(testPNG(t, 640, 480))})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.AvatarURL, "/user_avatars/2/") || !strings.HasSuffix(res.AvatarURL, ".png?version=2") {
		t.Fatalf("avatar_url %q", res.AvatarURL)
	}
	me, err := f.svc.GetOwnUser(ctx, f.actor("member"), chat.UserQueryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if me.AvatarURL == nil || *me.AvatarURL != res.AvatarURL || me.AvatarVersion != 2 {
		t.Fatalf("own user: %v %d", me.AvatarURL, me.AvatarVersion)
	}
	for _, medium := range []string{".png", "-medium.png"} {
		path := strings.TrimPrefix(strings.Split(res.AvatarURL, "?")[0], "/user_avatars/")
		path = strings.TrimSuffix(path, ".png") + medium
		img, err := f.svc.GetAvatarImage(ctx, chat.GetAvatarImageParams{Path: path})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		cfg, _, err := image.DecodeConfig(img)
		img.Close()
		want := 100
		if medium != ".png" {
			want = 500
		}
		if err != nil || cfg.Width != want || cfg.Height != want {
			t.Fatalf("%s: %dx%d %v", path, cfg.Width, cfg.Height, err)
		}
	}
	evs := eventJSON(t, f.poll(t, "admin", q, -1, true))
	if len(evs) != 1 || evs[0]["type"] != "realm_user" || evs[0]["person"].(map[string]any)["avatar_source"] != "U" {
		t.Fatalf("events: %v", evs)
	}
	// Refusals.
	_, err = f.svc.UploadAvatar(ctx, f.actor("member"), chat.UploadAvatarParams{Content: strings.NewReader("not an image")})
	if e := chat.AsError(err); e == nil || e.Code != chat.CodeBadImage {
		t.Errorf("not an image: %v", err)
	}
	_, err = f.svc.UploadAvatar(ctx, f.actor("member"), chat.UploadAvatarParams{Content: bytes.NewReader(make([]byte, 5<<20+1))})
	if e := chat.AsError(err); e == nil || e.Msg != "Uploaded file is larger than the allowed limit of 5 MiB" {
		t.Errorf("too large: %v", err)
	}
	// Back to Gravatar.
	del, err := f.svc.DeleteAvatar(ctx, f.actor("member"))
	if err != nil || !strings.HasPrefix(del.AvatarURL, "https://secure.gravatar.com/avatar/") || !strings.HasSuffix(del.AvatarURL, "version=3") {
		t.Fatalf("DeleteAvatar: %+v %v", del, err)
	}
	path := strings.TrimPrefix(strings.Split(res.AvatarURL, "?")[0], "/user_avatars/")
	if _, err := f.svc.GetAvatarImage(ctx, chat.GetAvatarImageParams{Path: path}); err == nil {
		t.Error("avatar image still served after DeleteAvatar")
	}
	if _, err := f.svc.GetAvatarImage(ctx, chat.GetAvatarImageParams{Path: "../../etc/passwd"}); err == nil {
		t.Error("hostile avatar path served")
	}
}
