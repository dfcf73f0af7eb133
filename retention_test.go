package chat_test

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/storagetest"
	"github.com/teamchat/chat/uploads"
)

// TestMessageRetention: a pass archives exactly the expired messages of a channel with 30
// days of retention and keeps those of a channel with unlimited retention and the direct
// messages (the organization keeps everything); their attachments, unread counts and search
// follow; a restore brings them back; the purge after the grace period removes the archive
// and frees the uploads nothing links.
func TestMessageRetention(t *testing.T) {
	t.Parallel()
	for _, b := range testBackends() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			bs := blobmemory.New()
			f := newFixtureOn(t, b.open(t), func(o *chat.Options) { o.Blobs = bs })
			retentionLifecycle(t, f, bs)
		})
	}
}

func retentionLifecycle(t *testing.T, f *fixture, bs *blobmemory.Store) {
	ctx := t.Context()
	thirty, unlimited := `30`, `"unlimited"`
	short := mustChannel(t, f, "short", chat.NewChannelSettings{MessageRetentionDays: &thirty}, "owner", "member")
	long := mustChannel(t, f, "long", chat.NewChannelSettings{MessageRetentionDays: &unlimited}, "owner", "member")
	own := mustUpload(t, f, "owner", "own.txt", "only the short channel links me")
	shared := mustUpload(t, f, "owner", "shared.txt", "both channels link me")
	old := mustSendToChannel(t, f, "owner", short, "t", "old walrus [a]("+own.URL+") [b]("+shared.URL+")")
	keep := mustSendToChannel(t, f, "owner", long, "t", "kept walrus [b]("+shared.URL+")")
	dm := mustSendDirect(t, f, "owner", "direct walrus", "member")
	expired := fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(short)})
	if !slices.Contains(expired, old) {
		t.Fatalf("channel short holds %v, want %d among them", expired, old)
	}
	f.clock.Advance(31 * 24 * time.Hour)
	fresh := mustSendToChannel(t, f, "owner", short, "t", "fresh walrus")
	longIDs := fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(long)})

	unread := func() []messages.ID {
		return fetchIDs(t, f, "member", chat.NarrowTerm{Operator: "is", Operand: "unread"})
	}
	search := func() []messages.ID {
		return fetchIDs(t, f, "member", chat.NarrowTerm{Operator: "search", Operand: "walrus"})
	}
	unreadBefore, searchBefore := unread(), search()
	if !slices.Contains(unreadBefore, old) || !slices.Contains(searchBefore, old) {
		t.Fatalf("before the pass: unread %v, search %v, want %d in both", unreadBefore, searchBefore, old)
	}
	without := func(l []messages.ID) []messages.ID {
		return slices.DeleteFunc(slices.Clone(l), func(id messages.ID) bool { return slices.Contains(expired, id) })
	}

	queue := f.register(t, "member")
	res, err := f.svc.ArchiveMessages(ctx, chat.ArchiveMessagesParams{})
	if err != nil {
		t.Fatalf("ArchiveMessages: %v", err)
	}
	if res.Archived != len(expired) || len(res.Archives) != 1 || res.Purged != 0 {
		t.Fatalf("ArchiveMessages = %+v, want %d archived in one archive", res, len(expired))
	}
	after := []struct {
		what      string
		got, want []messages.ID
	}{
		{"channel short", fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(short)}), []messages.ID{fresh}},
		{"channel long", fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(long)}), longIDs},
		{"unread", unread(), without(unreadBefore)},
		{"search", search(), without(searchBefore)},
	}
	for _, a := range after {
		if diff := cmp.Diff(a.want, a.got); diff != "" {
			t.Errorf("%s after the pass (-want +got):\n%s", a.what, diff)
		}
	}
	if !slices.Contains(search(), keep) || !slices.Contains(search(), dm) {
		t.Errorf("search after the pass lost the kept messages %d, %d", keep, dm)
	}
	_, err = readUpload(t, f, "owner", own.URL)
	wantStatus(t, "the upload only an archived message linked", err, 404)
	if got, err := readUpload(t, f, "member", shared.URL); err != nil || got != "both channels link me" {
		t.Errorf("shared upload after the pass: %q, %v", got, err)
	}
	if !slices.Contains(blobKeys(t, bs), uploads.BlobKey(pathOf(own.URL))) {
		t.Errorf("the archived upload's bytes are gone before the purge: %v", blobKeys(t, bs))
	}
	// A second pass finds nothing more.
	if res, err := f.svc.ArchiveMessages(ctx, chat.ArchiveMessagesParams{}); err != nil || res.Archived != 0 {
		t.Fatalf("second pass = %+v, %v, want nothing archived", res, err)
	}

	// The restore brings everything back.
	restored, err := f.svc.RestoreArchive(ctx, chat.RestoreArchiveParams{ArchiveID: res.Archives[0]})
	if err != nil || restored.Messages != len(expired) {
		t.Fatalf("RestoreArchive = %+v, %v", restored, err)
	}
	if diff := cmp.Diff(append(slices.Clone(expired), fresh), fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(short)})); diff != "" {
		t.Errorf("channel short after the restore (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(unreadBefore, unread()); diff != "" {
		t.Errorf("unread after the restore (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(searchBefore, search()); diff != "" {
		t.Errorf("search after the restore (-want +got):\n%s", diff)
	}
	if got, err := readUpload(t, f, "member", own.URL); err != nil || got != "only the short channel links me" {
		t.Errorf("restored upload: %q, %v", got, err)
	}
	_, err = f.svc.RestoreArchive(ctx, chat.RestoreArchiveParams{ArchiveID: res.Archives[0]})
	wantError(t, err, chat.CodeBadRequest, 400, "No such archive")
	// Zulip sends no event for retention deletions and restores (zerver/lib/retention.py).
	if evs := f.poll(t, "member", queue, -1, true); len(evs) != 0 {
		t.Errorf("the pass and the restore sent %d events, want none: %v", len(evs), evs)
	}

	// Archived again, then purged once the grace period is over.
	again, err := f.svc.ArchiveMessages(ctx, chat.ArchiveMessagesParams{})
	if err != nil || again.Archived != len(expired) {
		t.Fatalf("pass after the restore = %+v, %v", again, err)
	}
	f.clock.Advance(chat.DefaultRetentionGracePeriod + time.Hour)
	purge, err := f.svc.ArchiveMessages(ctx, chat.ArchiveMessagesParams{})
	if err != nil || purge.Purged != len(expired) || purge.PurgedArchives != 1 {
		t.Fatalf("pass after the grace period = %+v, %v, want %d purged", purge, err, len(expired))
	}
	keys := blobKeys(t, bs)
	if slices.Contains(keys, uploads.BlobKey(pathOf(own.URL))) || !slices.Contains(keys, uploads.BlobKey(pathOf(shared.URL))) {
		t.Errorf("blobs after the purge: %v, want %s gone and %s kept", keys, pathOf(own.URL), pathOf(shared.URL))
	}
	_, err = f.svc.RestoreArchive(ctx, chat.RestoreArchiveParams{ArchiveID: again.Archives[0]})
	wantError(t, err, chat.CodeBadRequest, 400, "No such archive")
}

// pathOf is the path id of an upload's URL.
func pathOf(url string) string { return strings.TrimPrefix(url, "/user_uploads/") }

// TestMessageRetentionFailedBatchChangesNothing: a batch whose write fails (at each of its
// writes in turn) rolls back whole: the messages, their attachment and the archives are as
// before, and the next pass archives them.
func TestMessageRetentionFailedBatchChangesNothing(t *testing.T) {
	t.Parallel()
	for n := range 4 {
		t.Run("after "+strconv.Itoa(n)+" writes", func(t *testing.T) {
			t.Parallel()
			faulty := storagetest.NewFaulty(memory.New())
			f := newFixtureOn(t, faulty)
			days := `30`
			c := mustChannel(t, f, "short", chat.NewChannelSettings{MessageRetentionDays: &days}, "owner", "member")
			up := mustUpload(t, f, "owner", "f.txt", "bytes")
			old := mustSendToChannel(t, f, "owner", c, "t", "old ["+up.URL+"]("+up.URL+")")
			f.clock.Advance(31 * 24 * time.Hour)
			before := fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(c)})
			faulty.FailWritesAfter(n, errors.New("disk full"))
			_, err := f.svc.ArchiveMessages(t.Context(), chat.ArchiveMessagesParams{})
			faulty.FailWritesAfter(-1, nil)
			if err == nil {
				t.Fatal("ArchiveMessages succeeded with failing writes")
			}
			if diff := cmp.Diff(before, fetchIDs(t, f, "owner", chat.NarrowTerm{Operator: "channel", Operand: float64(c)})); diff != "" {
				t.Fatalf("a failed pass changed the channel (-before +after):\n%s", diff)
			}
			if got, err := readUpload(t, f, "member", up.URL); err != nil || got != "bytes" {
				t.Fatalf("upload after the failed pass: %q, %v", got, err)
			}
			res, err := f.svc.ArchiveMessages(t.Context(), chat.ArchiveMessagesParams{})
			if err != nil || res.Archived != len(before) || !slices.Contains(before, old) {
				t.Fatalf("pass after the failure = %+v, %v, want %d archived", res, err, len(before))
			}
		})
	}
}

// TestMessageRetentionOrganization: with the organization's message_retention_days at 30,
// direct messages and the channels that inherit it lose their expired messages; a channel
// with unlimited retention keeps its own.
func TestMessageRetentionOrganization(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		if _, err := f.svc.UpdateRealm(ctx, f.actor("owner"), chat.UpdateRealmParams{Settings: map[string]any{"message_retention_days": int64(30)}}); err != nil {
			t.Fatalf("UpdateRealm: %v", err)
		}
		unlimited := `"unlimited"`
		inherits := mustChannel(t, f, "inherits", chat.NewChannelSettings{}, "owner", "member")
		keeps := mustChannel(t, f, "keeps", chat.NewChannelSettings{MessageRetentionDays: &unlimited}, "owner", "member")
		mustSendToChannel(t, f, "owner", inherits, "t", "old")
		kept := mustSendToChannel(t, f, "owner", keeps, "t", "old but kept")
		dm := mustSendDirect(t, f, "owner", "old direct", "member")
		f.clock.Advance(31 * 24 * time.Hour)
		freshDM := mustSendDirect(t, f, "owner", "new direct", "member")
		before := fetchIDs(t, f, "member")
		if _, err := f.svc.ArchiveMessages(ctx, chat.ArchiveMessagesParams{}); err != nil {
			t.Fatalf("ArchiveMessages: %v", err)
		}
		for _, c := range []struct {
			what string
			got  []messages.ID
			want []messages.ID
		}{
			{"channel inherits", fetchIDs(t, f, "member", chat.NarrowTerm{Operator: "channel", Operand: float64(inherits)}), []messages.ID{}},
			{"direct messages", fetchIDs(t, f, "member", chat.NarrowTerm{Operator: "is", Operand: "dm"}), []messages.ID{freshDM}},
		} {
			if diff := cmp.Diff(c.want, c.got); diff != "" {
				t.Errorf("%s after the pass (-want +got):\n%s", c.what, diff)
			}
		}
		after := fetchIDs(t, f, "member")
		if !slices.Contains(after, kept) || slices.Contains(after, dm) || len(after) >= len(before) {
			t.Errorf("member sees %v after the pass (before %v): want %d kept, %d gone", after, before, kept, dm)
		}
	})
}
