package transfer_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/chattest"
	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/transfer"
	"github.com/teamchat/chat/users"
)

func ptr[T any](v T) *T { return &v }

// testPNG is a small image: an avatar, an emoji.
func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 32, 32))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sourceOrg is the development organization on the memory store, with messages of every kind,
// reactions, flags, an upload and the seed's drafts, groups and settings.
func sourceOrg(t *testing.T) (*chattest.Fixture, blobs.Store) {
	t.Helper()
	bl := blobmemory.New()
	f := chattest.New(t, chattest.Dev(), chattest.Configure(func(o *chat.Options) { o.Blobs = bl }))
	ctx := t.Context()
	iago, hamlet, othello := f.Actor("iago@zulip.com"), f.Actor("hamlet@zulip.com"), f.Actor("othello@zulip.com")
	up, err := f.Service.UploadFile(ctx, iago, chat.UploadFileParams{Filename: "plan.txt", ContentType: "text/plain", Content: strings.NewReader("the plan")})
	if err != nil {
		t.Fatal(err)
	}
	sends := []struct {
		actor chat.Actor
		p     chat.SendMessageParams
	}{
		{iago, chat.SendMessageParams{Type: "stream", ChannelName: "Denmark", Topic: ptr("export"), Content: "see [the plan](" + up.URL + ") @**King Hamlet**"}},
		{hamlet, chat.SendMessageParams{Type: "stream", ChannelName: "Verona", Topic: ptr("roundtrip"), Content: "**bold** and `code`"}},
		{hamlet, chat.SendMessageParams{Type: "direct", Emails: []string{"iago@zulip.com"}, Content: "a direct message"}},
		{othello, chat.SendMessageParams{Type: "direct", Emails: []string{"iago@zulip.com", "hamlet@zulip.com"}, Content: "a group message"}},
		{iago, chat.SendMessageParams{Type: "direct", Emails: []string{"iago@zulip.com"}, Content: "a note to self"}},
		{f.Actor("desdemona@zulip.com"), chat.SendMessageParams{Type: "stream", ChannelName: "core team", Topic: ptr("private"), Content: "in the private channel"}},
		{othello, chat.SendMessageParams{Type: "stream", ChannelName: "Rome", Topic: ptr("public"), Content: "on the web-public channel"}},
	}
	var ids []messages.ID
	for _, s := range sends {
		res, err := f.Service.SendMessage(ctx, s.actor, s.p)
		if err != nil {
			t.Fatalf("send %+v: %v", s.p, err)
		}
		ids = append(ids, res.ID)
	}
	if _, err := f.Service.UpdateMessage(ctx, hamlet, chat.UpdateMessageParams{MessageID: ids[1], Content: ptr("**bold** and `code`, edited"), Topic: ptr("round trip")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Service.UploadAvatar(ctx, hamlet, chat.UploadAvatarParams{Content: bytes.NewReader(testPNG(t))}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Service.UploadCustomEmoji(ctx, iago, chat.UploadCustomEmojiParams{Name: "party", Files: 1, Image: testPNG(t)}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Service.AddReaction(ctx, othello, chat.AddReactionParams{MessageID: ids[1], EmojiName: "party", ReactionType: ptr("realm_emoji"), EmojiCode: ptr("1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Service.AddReaction(ctx, hamlet, chat.AddReactionParams{MessageID: ids[0], EmojiName: "octopus"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Service.AddReaction(ctx, iago, chat.AddReactionParams{MessageID: ids[3], EmojiName: "+1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Service.UpdateMessageFlags(ctx, hamlet, chat.UpdateMessageFlagsParams{Messages: ids[:2], Op: "add", Flag: "starred"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Service.UpdateMessageFlags(ctx, iago, chat.UpdateMessageFlagsParams{Messages: ids[2:4], Op: "add", Flag: "read"}); err != nil {
		t.Fatal(err)
	}
	extras := []func() error{
		func() error {
			_, err := f.Service.AddLinkifier(ctx, iago, chat.AddLinkifierParams{Pattern: `#(?P<id>[0-9]+)`, URLTemplate: "https://github.com/zulip/zulip/issues/{id}"})
			return err
		},
		func() error {
			_, err := f.Service.AddCodePlayground(ctx, iago, chat.AddCodePlaygroundParams{Name: "Python", HighlighterLanguage: "python", URLTemplate: "https://python.example/?code={code}"})
			return err
		},
		func() error {
			_, err := f.Service.AddAlertWords(ctx, hamlet, chat.AlertWordsParams{AlertWords: []string{"export", "import"}})
			return err
		},
		func() error {
			folder, err := f.Service.CreateChannelFolder(ctx, iago, chat.CreateChannelFolderParams{Name: "Places", Description: "Where things are"})
			if err != nil {
				return err
			}
			verona, err := f.Service.GetStreamID(ctx, iago, chat.GetStreamIDParams{Stream: "Verona"})
			if err != nil {
				return err
			}
			_, err = f.Service.UpdateStream(ctx, iago, chat.UpdateStreamParams{StreamID: verona.StreamID, FolderID: &folder.ChannelFolderID})
			return err
		},
		func() error {
			return errOf(f.Service.MuteUser(ctx, hamlet, chat.MuteUserParams{MutedUserID: othello.UserID}))
		},
		func() error { // is_deleted, carried as teamchat_is_deleted
			return errOf(f.Service.DeactivateUser(ctx, iago, chat.DeactivateUserParams{UserID: f.Actor("aaron@zulip.com").UserID,
				Actions: &chat.DeactivateUserActions{DeleteProfile: true}}))
		},
		func() error { // default_push_notifications, carried as teamchat_default_push_notifications
			denmark, err := f.Service.GetStreamID(ctx, iago, chat.GetStreamIDParams{Stream: "Denmark"})
			if err != nil {
				return err
			}
			return errOf(f.Service.UpdateStream(ctx, iago, chat.UpdateStreamParams{StreamID: denmark.StreamID, DefaultPushNotifications: ptr(true)}))
		},
		func() error {
			return errOf(f.Service.UpdateStatus(ctx, othello, chat.UpdateStatusParams{StatusText: ptr("moving house"), EmojiName: ptr("car")}))
		},
	}
	for i, add := range extras {
		if err := add(); err != nil {
			t.Fatalf("extra %d: %v", i, err)
		}
	}
	return f, bl
}

// TestRoundTrip exports the source organization (memory store), imports it into an empty
// SQLite store, exports that and imports it into an empty PostgreSQL store (when
// configured), exports that and imports it into another empty SQLite store, and compares every user's register state and every message (content,
// rendered HTML, flags, reactions) through the Services of the stores with the source's. The
// import gives users their old ids (and the other rows come out in the old order), so the
// states compare equal as they are.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	src, srcBlobs := sourceOrg(t)
	dir := t.TempDir()
	res, err := transfer.ExportDir(t.Context(), src.Store, srcBlobs, dir, transfer.ExportOptions{Type: transfer.ExportFull, Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Messages == 0 || res.Users == 0 || res.Files == 0 {
		t.Fatalf("export wrote %+v", res)
	}
	lite, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	liteBlobs := importAndCompare(t, "memory to SQLite", src, srcBlobs, lite, dir, res)

	t.Run("SQLite to PostgreSQL", func(t *testing.T) {
		pg, err := sqlstore.Open(t.Context(), pgtest.Schema(t))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Close() })
		dir := t.TempDir()
		res2, err := transfer.ExportDir(t.Context(), lite, liteBlobs, dir, transfer.ExportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pgBlobs := importAndCompare(t, "SQLite to PostgreSQL", src, srcBlobs, pg, dir, res2)

		t.Run("PostgreSQL to SQLite", func(t *testing.T) {
			back, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "back.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { back.Close() })
			dir := t.TempDir()
			res3, err := transfer.ExportDir(t.Context(), pg, pgBlobs, dir, transfer.ExportOptions{Batch: 3})
			if err != nil {
				t.Fatal(err)
			}
			importAndCompare(t, "PostgreSQL to SQLite", src, srcBlobs, back, dir, res3)
		})
	})
}

// importAndCompare imports the export in dir into st and compares the result with src.
func importAndCompare(t *testing.T, name string, src *chattest.Fixture, srcBlobs blobs.Store, st storage.Storage, dir string, exported transfer.ExportResult) blobs.Store {
	t.Helper()
	bl := blobmemory.New()
	got, err := transfer.ImportDir(t.Context(), st, bl, dir, transfer.ImportOptions{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got.Messages != exported.Messages || got.Users != exported.Users || got.Channels != exported.Channels || got.Files != exported.Files {
		t.Errorf("%s: imported %+v, exported %+v", name, got, exported)
	}
	svc, err := chat.New(chat.Options{Store: st, Blobs: bl, Now: src.Clock.Now, Dev: true}) // Dev: a server option of the source, not data
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	compareOrgs(t, src.Service, svc, activeUsers(t, src))
	want := storeFlags(t, src.Store)
	if !want["user aaron@zulip.com is_deleted"] || !want["channel Denmark default_push_notifications"] {
		t.Fatalf("the source lacks the deleted user or the channel with default push notifications: %v", want)
	}
	if diff := cmp.Diff(want, storeFlags(t, st)); diff != "" {
		t.Errorf("%s: users' is_deleted and channels' default_push_notifications (-exported +imported):\n%s", name, diff)
	}
	if diff := cmp.Diff(blobKeys(t, srcBlobs), blobKeys(t, bl)); diff != "" {
		t.Errorf("%s: files (-exported +imported):\n%s", name, diff)
	}
	return bl
}

// unexported are register keys whose state Zulip's export leaves out too, or that name the
// queue.
var unexported = []string{"queue_id", "last_event_id", "presences", "presence_last_update_id", "server_timestamp"}

func compareOrgs(t *testing.T, want, got *chat.Service, people []chattest.User) {
	t.Helper()
	for _, u := range people {
		if u.BotType != users.NotBot {
			continue
		}
		actor := chat.Actor{UserID: u.ID}
		w, err := want.RegisterQueue(t.Context(), actor, chat.RegisterQueueParams{})
		if err != nil {
			t.Fatal(err)
		}
		g, err := got.RegisterQueue(t.Context(), actor, chat.RegisterQueueParams{})
		if err != nil {
			t.Fatalf("register as %s after the import: %v", u.Email, err)
		}
		if diff := cmp.Diff(jsonOf(t, w), jsonOf(t, g), ignoreKeys(unexported...)); diff != "" {
			t.Errorf("register as %s (-exported +imported):\n%s", u.Email, diff)
		}
		get := chat.GetMessagesParams{Anchor: "oldest", NumAfter: 1000}
		wm, err := want.GetMessages(t.Context(), actor, get)
		if err != nil {
			t.Fatal(err)
		}
		gm, err := got.GetMessages(t.Context(), actor, get)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(jsonOf(t, wm), jsonOf(t, gm)); diff != "" {
			t.Errorf("messages of %s (-exported +imported):\n%s", u.Email, diff)
		}
	}
}

// activeUsers are the users of f who may register: the deactivated show in the others'
// realm_non_active_users.
func activeUsers(t *testing.T, f *chattest.Fixture) []chattest.User {
	t.Helper()
	inactive := map[users.ID]bool{}
	err := f.Store.View(t.Context(), func(tx storage.ReadTx) error {
		list, err := tx.Users().List()
		for _, u := range list {
			inactive[u.ID] = !u.IsActive
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []chattest.User
	for _, u := range f.Users() {
		if !inactive[u.ID] {
			out = append(out, u)
		}
	}
	return out
}

// storeFlags are the fields of the store that no register state shows to every user: which
// users are deleted (delete_profile) and which channels turn push notifications on for new
// subscribers, by email and by name.
func storeFlags(t *testing.T, st storage.Storage) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := st.View(t.Context(), func(tx storage.ReadTx) error {
		people, err := tx.Users().List()
		if err != nil {
			return err
		}
		for _, u := range people {
			out["user "+strings.ToLower(u.Email)+" is_deleted"] = u.IsDeleted
		}
		list, err := tx.Channels().List()
		if err != nil {
			return err
		}
		for _, c := range list {
			out["channel "+c.Name+" default_push_notifications"] = c.DefaultPushNotifications
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func jsonOf(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func ignoreKeys(keys ...string) cmp.Option {
	return cmpopts.IgnoreMapEntries(func(k string, _ any) bool {
		for _, x := range keys {
			if k == x {
				return true
			}
		}
		return false
	})
}

// errOf is the error of an operation's answer.
func errOf[T any](_ T, err error) error { return err }
