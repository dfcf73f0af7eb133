package chat_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/blobs/disk"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/internal/s3server"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/storage/storagetest"
	"github.com/teamchat/chat/users"
)

// uploadBackend is one pairing of a row store and a blob store.
type uploadBackend struct {
	name  string
	store func(t *testing.T) storage.Storage
	blobs func(t *testing.T) blobs.Store
}

// uploadBackends pairs memory, SQLite and (with CHAT_TEST_POSTGRES_URL) PostgreSQL with the
// memory, the disk and the S3 blob stores (S3: versitygw, skipped when it is not installed).
func uploadBackends() []uploadBackend {
	stores := []struct {
		name string
		open func(t *testing.T) storage.Storage
	}{
		{"memory", func(*testing.T) storage.Storage { return memory.New() }},
		{"sqlite", func(t *testing.T) storage.Storage {
			s, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
	}
	if base := os.Getenv("CHAT_TEST_POSTGRES_URL"); base != "" {
		stores = append(stores, struct {
			name string
			open func(t *testing.T) storage.Storage
		}{"postgres", func(t *testing.T) storage.Storage {
			s, err := sqlstore.Open(t.Context(), benchSchema(t, base))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}})
	}
	var out []uploadBackend
	for _, s := range stores {
		out = append(out,
			uploadBackend{s.name + "+memory-blobs", s.open, func(*testing.T) blobs.Store { return blobmemory.New() }},
			uploadBackend{s.name + "+disk-blobs", s.open, func(t *testing.T) blobs.Store {
				d, err := disk.Open(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				return d
			}},
			uploadBackend{s.name + "+s3-blobs", s.open, func(t *testing.T) blobs.Store { return s3server.Open(t) }})
	}
	return out
}

func mustUpload(t *testing.T, f *fixture, who, name, content string) chat.UploadFileResult {
	t.Helper()
	res, err := f.svc.UploadFile(t.Context(), f.actor(who), chat.UploadFileParams{Filename: name, Content: strings.NewReader(content)})
	if err != nil {
		t.Fatalf("UploadFile(%s) as %s: %v", name, who, err)
	}
	return res
}

// readUpload reads an upload as who: its bytes, or the error.
func readUpload(t *testing.T, f *fixture, who, url string) (string, error) {
	t.Helper()
	file, err := f.svc.GetUploadedFile(t.Context(), f.actor(who), chat.GetUploadedFileParams{PathID: strings.TrimPrefix(url, "/user_uploads/")})
	if err != nil {
		return "", err
	}
	defer file.Close()
	b, err := io.ReadAll(file)
	return string(b), err
}

func wantStatus(t *testing.T, what string, err error, status int) {
	t.Helper()
	var e *chat.Error
	if !errors.As(err, &e) || e.HTTPStatus() != status {
		t.Fatalf("%s: error %v, want status %d", what, err, status)
	}
}

func blobKeys(t *testing.T, b blobs.Store) []string {
	t.Helper()
	keys := []string{}
	if err := b.List(t.Context(), "", func(i blobs.Info) error { keys = append(keys, i.Key); return nil }); err != nil {
		t.Fatal(err)
	}
	return keys
}

func sendTo(t *testing.T, f *fixture, who string, p chat.SendMessageParams) messages.ID {
	t.Helper()
	res, err := f.svc.SendMessage(t.Context(), f.actor(who), p)
	if err != nil {
		t.Fatalf("SendMessage as %s: %v", who, err)
	}
	return res.ID
}

// TestUploadLifecycle uploads, reads, references and deletes files on every pairing of row
// store and blob store.
func TestUploadLifecycle(t *testing.T) {
	t.Parallel()
	for _, b := range uploadBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bs := b.blobs(t)
			f := newFixtureOn(t, b.store(t), func(o *chat.Options) { o.Blobs = bs })
			uploadLifecycle(t, f, bs)
		})
	}
}

func uploadLifecycle(t *testing.T, f *fixture, bs blobs.Store) {
	ctx := t.Context()
	up := mustUpload(t, f, "member", "notes for Q3.txt", "the plan")
	if up.URL != up.URI || !strings.HasPrefix(up.URL, "/user_uploads/2/") || !strings.HasSuffix(up.URL, "/notes-for-Q3.txt") || up.Filename != "notes-for-Q3.txt" {
		t.Fatalf("UploadFile = %+v", up)
	}
	// Only the owner reads it until a message links it.
	if got, err := readUpload(t, f, "member", up.URL); err != nil || got != "the plan" {
		t.Fatalf("owner reads %q, %v", got, err)
	}
	_, err := readUpload(t, f, "admin", up.URL)
	wantStatus(t, "admin before any message", err, 403)
	_, err = readUpload(t, f, "member", "/user_uploads/2/00/nothing/here.txt")
	wantStatus(t, "unknown file", err, 404)

	// A direct message to the admin shares it with the admin, not with the guest.
	dm := sendTo(t, f, "member", chat.SendMessageParams{Type: "direct", UserIDs: []users.ID{f.ids["admin"]}, Content: "see [notes](" + up.URL + ")"})
	if got, err := readUpload(t, f, "admin", up.URL); err != nil || got != "the plan" {
		t.Fatalf("recipient reads %q, %v", got, err)
	}
	_, err = readUpload(t, f, "guest", up.URL)
	wantStatus(t, "guest", err, 403)

	// A public channel shares it with members who are not subscribed, not with guests.
	ch, err := f.svc.CreateChannel(ctx, f.actor("admin"), chat.CreateChannelParams{Name: "files", Subscribers: []users.ID{f.ids["admin"], f.ids["member"]}})
	if err != nil {
		t.Fatal(err)
	}
	pic := mustUpload(t, f, "admin", "diagram.txt", "boxes and arrows")
	msg := sendTo(t, f, "admin", chat.SendMessageParams{Type: "stream", ChannelID: &ch.ID, Topic: ptr("t"), Content: "[diagram](" + pic.URL + ")"})
	if got, err := readUpload(t, f, "owner", pic.URL); err != nil || got != "boxes and arrows" {
		t.Fatalf("unsubscribed member reads %q, %v", got, err)
	}
	_, err = readUpload(t, f, "guest", pic.URL)
	wantStatus(t, "guest of a public channel", err, 403)

	// GET /attachments lists the owner's files with their messages.
	list, err := f.svc.GetAttachments(ctx, f.actor("member"), chat.GetAttachmentsParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Attachments) != 1 || list.UploadSpaceUsed != int64(len("the plan")+len("boxes and arrows")) ||
		len(list.Attachments[0].Messages) != 1 || list.Attachments[0].Messages[0].ID != dm || list.Attachments[0].Size != 8 {
		t.Fatalf("GetAttachments = %+v", list)
	}
	// A sender cannot share what they cannot read: the guest's link ties nothing.
	guestDM := sendTo(t, f, "guest", chat.SendMessageParams{Type: "direct", UserIDs: []users.ID{f.ids["owner"]}, Content: "stolen " + pic.URL})
	_, err = readUpload(t, f, "guest", pic.URL)
	wantStatus(t, "guest after linking a file they cannot read", err, 403)
	_ = guestDM

	// An edit that drops the link unties the message; the file stays (its owner may delete it).
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: msg, Content: ptr("no more diagram")})
	_, err = readUpload(t, f, "owner", pic.URL)
	wantStatus(t, "after the edit dropped the link", err, 403)
	mustEdit(t, f, "admin", chat.UpdateMessageParams{MessageID: msg, Content: ptr("diagram again: " + pic.URL)})
	if _, err := readUpload(t, f, "owner", pic.URL); err != nil {
		t.Fatalf("after the edit restored the link: %v", err)
	}

	// Deleting the last message that links a file deletes the file.
	if _, err := f.svc.DeleteMessage(ctx, f.actor("admin"), chat.DeleteMessageParams{MessageID: msg}); err != nil {
		t.Fatal(err)
	}
	_, err = readUpload(t, f, "admin", pic.URL)
	wantStatus(t, "after its message was deleted", err, 404)

	// RemoveAttachment: only the owner; the bytes go too.
	id := list.Attachments[0].ID
	_, err = f.svc.RemoveAttachment(ctx, f.actor("admin"), chat.RemoveAttachmentParams{AttachmentID: id})
	wantStatus(t, "RemoveAttachment by someone else", err, 400)
	if _, err := f.svc.RemoveAttachment(ctx, f.actor("member"), chat.RemoveAttachmentParams{AttachmentID: id}); err != nil {
		t.Fatal(err)
	}
	_, err = readUpload(t, f, "admin", up.URL)
	wantStatus(t, "after RemoveAttachment", err, 404)
	if keys := blobKeys(t, bs); len(keys) != 0 {
		t.Fatalf("bytes left after every file was deleted: %v", keys)
	}
	// The message keeps its content.
	got, err := f.svc.GetMessage(ctx, f.actor("admin"), chat.GetMessageParams{MessageID: dm, ApplyMarkdown: ptr(false)})
	if err != nil || !strings.Contains(got.Message.Content, up.URL) {
		t.Fatalf("message after its file was removed: %+v, %v", got, err)
	}
}

// TestUploadRefusals: every refused upload answers Zulip's error and stores nothing: no row,
// no bytes, no event.
func TestUploadRefusals(t *testing.T) {
	t.Parallel()
	bs := blobmemory.New()
	f := newFixture(t, func(o *chat.Options) { o.Blobs = bs; o.MaxFileUploadSizeMiB = 1; o.UploadQuotaMiB = 2 })
	ctx := t.Context()
	q := f.register(t, "member")
	broken := errors.New("connection reset")
	for _, c := range []struct {
		name    string
		p       chat.UploadFileParams
		wantMsg string
	}{
		{"no file", chat.UploadFileParams{Filename: "x"}, "You must specify a file to upload"},
		{"empty file", chat.UploadFileParams{Filename: "empty.txt", Content: strings.NewReader("")}, "Uploaded file is empty"},
		{"too large", chat.UploadFileParams{Filename: "big.bin", Content: bytes.NewReader(make([]byte, 1<<20+1))},
			"File is larger than this server's configured maximum upload size (1 MiB)."},
		{"client went away", chat.UploadFileParams{Filename: "half.bin", Content: io.MultiReader(strings.NewReader("some"), errReader{broken})}, ""},
	} {
		_, err := f.svc.UploadFile(ctx, f.actor("member"), c.p)
		if c.wantMsg == "" {
			if !errors.Is(err, broken) && err == nil {
				t.Errorf("%s: error %v", c.name, err)
			}
		} else if e := chat.AsError(err); e == nil || e.Msg != c.wantMsg || e.HTTPStatus() != 400 {
			t.Errorf("%s: error %v, want %q", c.name, err, c.wantMsg)
		}
	}
	// Exactly the limit is accepted; the quota (2 MiB) then refuses the next megabyte.
	mustUpload(t, f, "member", "a.bin", string(make([]byte, 1<<20)))
	mustUpload(t, f, "member", "b.bin", string(make([]byte, 1<<20-10)))
	_, err := f.svc.UploadFile(ctx, f.actor("member"), chat.UploadFileParams{Filename: "c.bin", Content: bytes.NewReader(make([]byte, 100))})
	if e := chat.AsError(err); e == nil || e.Code != chat.CodeRealmUploadQuota || e.Msg != "Upload would exceed your organization's upload quota." {
		t.Fatalf("over quota: %v", err)
	}
	if keys := blobKeys(t, bs); len(keys) != 2 {
		t.Errorf("objects after refusals: %v", keys)
	}
	list, err := f.svc.GetAttachments(ctx, f.actor("member"), chat.GetAttachmentsParams{})
	if err != nil || len(list.Attachments) != 2 {
		t.Fatalf("attachments after refusals: %+v, %v", list, err)
	}
	if evs := eventJSON(t, f.poll(t, "member", q, -1, true)); len(evs) != 2 || evs[0]["op"] != "add" || evs[1]["op"] != "add" {
		t.Errorf("events: %v", evs)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestUploadHostileNames: names are sanitized into one safe path segment.
func TestUploadHostileNames(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, name := range []string{"../../etc/passwd", "..", "a/b\\c.txt", "<script>alert(1)</script>.html", "\x00\x01.txt", "", strings.Repeat("é", 400) + ".txt", "名前 with spaces.pdf"} {
		res := mustUpload(t, f, "member", name, "x")
		segs := strings.Split(strings.TrimPrefix(res.URL, "/user_uploads/"), "/")
		if len(segs) != 4 || segs[3] == "" || segs[3] == "." || segs[3] == ".." || strings.ContainsAny(res.Filename, "/\\<>\x00") || len(res.Filename) > 255 {
			t.Errorf("%q stored as %q at %q", name, res.Filename, res.URL)
		}
		if got, err := readUpload(t, f, "member", strings.ReplaceAll(res.URL, segs[3], res.Filename)); err != nil || got != "x" {
			t.Errorf("%q: read back %q, %v", name, got, err)
		}
	}
}

// TestUploadFailedCommit: when the attachment's row cannot be written, the bytes written
// before are removed and nothing is announced.
func TestUploadFailedCommit(t *testing.T) {
	t.Parallel()
	faulty := storagetest.NewFaulty(memory.New())
	bs := blobmemory.New()
	f := newFixtureOn(t, faulty, func(o *chat.Options) { o.Blobs = bs })
	q := f.register(t, "member")
	boom := errors.New("disk full")
	faulty.FailWritesAfter(0, boom)
	_, err := f.svc.UploadFile(t.Context(), f.actor("member"), chat.UploadFileParams{Filename: "x.txt", Content: strings.NewReader("bytes")})
	faulty.FailWritesAfter(-1, nil)
	if err == nil {
		t.Fatal("upload succeeded on a failing store")
	}
	if keys := blobKeys(t, bs); len(keys) != 0 {
		t.Errorf("bytes left: %v", keys)
	}
	if evs := f.poll(t, "member", q, -1, true); len(evs) != 0 {
		t.Errorf("events: %v", wireEvents(t, evs))
	}
}

// TestSweepUploads: bytes without a row (an upload killed before its commit) are removed once
// older than the grace period; referenced files and recent writes stay.
func TestSweepUploads(t *testing.T) {
	t.Parallel()
	bs := blobmemory.New()
	f := newFixture(t, func(o *chat.Options) { o.Blobs = bs })
	bs.SetClock(f.clock.Now)
	ctx := t.Context()
	kept := mustUpload(t, f, "member", "kept.txt", "kept")
	for _, k := range []string{"uploads/2/aa/killed/upload.bin", "thumbnails/2/aa/killed/upload.bin/840x560.jpg"} {
		if _, err := bs.Put(ctx, k, strings.NewReader("orphan")); err != nil {
			t.Fatal(err)
		}
	}
	res, err := f.svc.SweepUploads(ctx, chat.SweepUploadsParams{Grace: time.Hour})
	if err != nil || res.Orphans != 0 {
		t.Fatalf("sweep within the grace period: %+v, %v", res, err)
	}
	f.clock.Advance(2 * time.Hour)
	if _, err := bs.Put(ctx, "uploads/2/bb/running/new.bin", strings.NewReader("under way")); err != nil {
		t.Fatal(err)
	}
	res, err = f.svc.SweepUploads(ctx, chat.SweepUploadsParams{Grace: time.Hour})
	if err != nil || res.Orphans != 2 {
		t.Fatalf("sweep after the grace period: %+v, %v", res, err)
	}
	want := []string{"uploads/2/bb/running/new.bin", "uploads/" + strings.TrimPrefix(kept.URL, "/user_uploads/")}
	slices.Sort(want)
	if diff := cmp.Diff(want, blobKeys(t, bs)); diff != "" {
		t.Errorf("objects after the sweep (-want +got):\n%s", diff)
	}
}

// TestTemporaryURL: a temporary URL serves the file without credentials until it expires.
func TestTemporaryURL(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	up := mustUpload(t, f, "member", "report.pdf", "%PDF-1.4")
	pathID := strings.TrimPrefix(up.URL, "/user_uploads/")
	_, err := f.svc.GetFileTemporaryURL(ctx, f.actor("admin"), chat.GetFileTemporaryURLParams{PathID: pathID})
	wantStatus(t, "temporary URL for someone who may not read the file", err, 403)
	tmp, err := f.svc.GetFileTemporaryURL(ctx, f.actor("member"), chat.GetFileTemporaryURLParams{PathID: pathID})
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(tmp.URL, "/user_uploads/temporary/")
	token, name, _ := strings.Cut(rest, "/")
	if !ok || name != "report.pdf" {
		t.Fatalf("temporary URL %q", tmp.URL)
	}
	file, err := f.svc.GetUploadedFileByToken(ctx, chat.GetUploadedFileByTokenParams{Token: token, Filename: name})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(file)
	file.Close()
	if string(b) != "%PDF-1.4" || file.ContentType != "application/pdf" || !file.Inline {
		t.Fatalf("by token: %q %+v", b, file)
	}
	_, err = f.svc.GetUploadedFileByToken(ctx, chat.GetUploadedFileByTokenParams{Token: token, Filename: "other.pdf"})
	if e := chat.AsError(err); e == nil || e.Msg != "Invalid filename" {
		t.Errorf("wrong name: %v", err)
	}
	_, err = f.svc.GetUploadedFileByToken(ctx, chat.GetUploadedFileByTokenParams{Token: token[:len(token)-2] + "xx", Filename: name})
	if e := chat.AsError(err); e == nil || e.Msg != "Invalid token" {
		t.Errorf("forged token: %v", err)
	}
	f.clock.Advance(chat.TemporaryURLLifetime + time.Second)
	_, err = f.svc.GetUploadedFileByToken(ctx, chat.GetUploadedFileByTokenParams{Token: token, Filename: name})
	if e := chat.AsError(err); e == nil || e.Msg != "Invalid token" {
		t.Errorf("expired token: %v", err)
	}
}

// testPNG is a w×h PNG image.
func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestImageThumbnails: an uploaded image gets its thumbnail, scaled within the format's box.
func TestImageThumbnails(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	up := mustUpload(t, f, "member", "photo.png", string(testPNG(t, 1680, 600)))
	thumb, err := f.svc.GetUploadedFile(ctx, f.actor("member"), chat.GetUploadedFileParams{PathID: strings.TrimPrefix(up.URL, "/user_uploads/"), Thumbnail: "840x560.jpg"})
	if err != nil {
		t.Fatal(err)
	}
	defer thumb.Close()
	cfg, format, err := image.DecodeConfig(thumb)
	if err != nil || format != "jpeg" || cfg.Width != 840 || cfg.Height != 300 || thumb.ContentType != "image/jpeg" {
		t.Fatalf("thumbnail: %s %dx%d %v", format, cfg.Width, cfg.Height, err)
	}
	_, err = f.svc.GetUploadedFile(ctx, f.actor("member"), chat.GetUploadedFileParams{PathID: strings.TrimPrefix(up.URL, "/user_uploads/"), Thumbnail: "9x9.gif"})
	wantStatus(t, "unknown thumbnail format", err, 404)
	// A file that only claims to be an image stays a plain file.
	fake := mustUpload(t, f, "member", "fake.png", "not an image")
	_, err = f.svc.GetUploadedFile(ctx, f.actor("member"), chat.GetUploadedFileParams{PathID: strings.TrimPrefix(fake.URL, "/user_uploads/"), Thumbnail: "840x560.jpg"})
	wantStatus(t, "thumbnail of a broken image", err, 404)
}

// TestRegisterUploadLimits: register shows the limits the Service applies.
func TestRegisterUploadLimits(t *testing.T) {
	t.Parallel()
	f := newFixture(t, func(o *chat.Options) { o.MaxFileUploadSizeMiB = 7; o.UploadQuotaMiB = 100 })
	res, err := f.svc.RegisterQueue(t.Context(), f.actor("member"), chat.RegisterQueueParams{})
	if err != nil {
		t.Fatal(err)
	}
	state := toJSONMap(t, res)
	want := map[string]any{
		"max_file_upload_size_mib": 7.0, "realm_upload_quota_mib": 100.0, "max_avatar_file_size_mib": 5.0,
		"max_icon_file_size_mib": 5.0, "max_logo_file_size_mib": 5.0,
		"server_thumbnail_formats": []any{map[string]any{"name": "840x560.jpg", "max_width": 840.0, "max_height": 560.0, "format": "jpg", "animated": false}},
	}
	for k, v := range want {
		if diff := cmp.Diff(v, state[k]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
	plain := toJSONMap(t, errOf2(newFixture(t).svc.RegisterQueue(t.Context(), chat.Actor{UserID: f.ids["member"]}, chat.RegisterQueueParams{})))
	if v, ok := plain["realm_upload_quota_mib"]; !ok || v != nil {
		t.Errorf("realm_upload_quota_mib without a quota = %v (present %v), want null", v, ok)
	}
}

func errOf2[T any](v T, _ error) T { return v }

// TestImagePreview: a message linking an uploaded image renders Zulip's inline preview.
func TestImagePreview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	up := mustUpload(t, f, "member", "photo.png", string(testPNG(t, 1000, 400)))
	id := sendTo(t, f, "member", chat.SendMessageParams{Type: "direct", UserIDs: []users.ID{f.ids["admin"]}, Content: "[photo.png](" + up.URL + ")"})
	got, err := f.svc.GetMessage(ctx, f.actor("admin"), chat.GetMessageParams{MessageID: id})
	if err != nil {
		t.Fatal(err)
	}
	want := `<div class="message_inline_image"><a href="` + up.URL + `" title="photo.png"><img data-original-content-type="image/png" data-original-dimensions="1000x400" src="/user_uploads/thumbnail/` +
		strings.TrimPrefix(up.URL, "/user_uploads/") + `/840x560.jpg"></a></div>`
	if !strings.HasSuffix(got.Message.Content, want) || !strings.HasPrefix(got.Message.Content, "<p>") {
		t.Fatalf("rendered:\n%s\nwant it to end with\n%s", got.Message.Content, want)
	}
	mustEdit(t, f, "member", chat.UpdateMessageParams{MessageID: id, Content: ptr("no picture")})
	got, _ = f.svc.GetMessage(ctx, f.actor("admin"), chat.GetMessageParams{MessageID: id})
	if strings.Contains(got.Message.Content, "message_inline_image") {
		t.Fatalf("preview kept after the edit: %s", got.Message.Content)
	}
}
