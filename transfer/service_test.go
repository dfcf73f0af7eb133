package transfer_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/transfer"
)

// waitExport polls GET /export/realm until the export is no longer pending.
func waitExport(t *testing.T, svc *chat.Service, admin chat.Actor, id int64) chat.ExportRecord {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		res, err := svc.GetRealmExports(t.Context(), admin)
		must(t, err)
		for _, e := range res.Exports {
			if e.ID == id && !e.Pending {
				return e
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("export %d still pending after 30s", id)
	return chat.ExportRecord{}
}

// TestRealmExportAPI runs the export endpoints' operations: an administrator starts an
// export, receives realm_export events (pending, then done), downloads the tarball and
// imports it; then deletes it. Non-administrators, bad types and bad ids are refused.
func TestRealmExportAPI(t *testing.T) {
	t.Parallel()
	f, _ := sourceOrg(t)
	ctx := t.Context()
	admin, member := f.Actor("iago@zulip.com"), f.Actor("hamlet@zulip.com")
	reg, err := f.Service.RegisterQueue(ctx, admin, chat.RegisterQueueParams{EventTypes: []string{"realm_export", "realm_export_consent"}})
	must(t, err)
	must(t, errOf(f.Service.UpdateSettings(ctx, member, chat.UpdateSettingsParams{Values: map[string]any{"allow_private_data_export": true}})))

	if _, err := f.Service.ExportRealm(ctx, member, chat.ExportRealmParams{}); !isCode(err, "UNAUTHORIZED_PRINCIPAL") {
		t.Errorf("export by a member: got %v, want UNAUTHORIZED_PRINCIPAL", err)
	}
	if _, err := f.Service.ExportRealm(ctx, admin, chat.ExportRealmParams{ExportType: 3}); !isMsg(err, "Invalid export type.") {
		t.Errorf("export of type 3: got %v", err)
	}
	res, err := f.Service.ExportRealm(ctx, admin, chat.ExportRealmParams{ExportType: 2})
	must(t, err)
	done := waitExport(t, f.Service, admin, res.ID)
	if done.ExportURL == nil || done.FailedTimestamp != nil || done.ExportType != 2 || done.ActingUserID != admin.UserID {
		t.Fatalf("finished export: %+v", done)
	}

	evs, err := f.Service.GetEvents(ctx, admin, chat.GetEventsParams{QueueID: *reg.QueueID, LastEventID: ptr(int64(-1)), DontBlock: true})
	must(t, err)
	var pending []bool
	for _, ev := range evs.Events {
		if ev.Type == "realm_export_consent" {
			want := chat.RealmExportConsentEvent{Type: "realm_export_consent", UserID: member.UserID, Consented: true}
			if diff := cmp.Diff(want, ev.Payload); diff != "" {
				t.Errorf("realm_export_consent (-want +got):\n%s", diff)
			}
			pending = append(pending, true) // before the export's events
		}
		if ev.Type == "realm_export" {
			list := ev.Payload.(chat.RealmExportEvent).Exports
			pending = append(pending, list[len(list)-1].Pending)
		}
	}
	if diff := cmp.Diff([]bool{true, true, false}, pending); diff != "" {
		t.Errorf("realm_export_consent, then realm_export events' pending (-want +got):\n%s", diff)
	}

	path := (*done.ExportURL)[len(f.URL)+len("/user_avatars/"):]
	if _, err := f.Service.GetRealmExportFile(ctx, member, chat.GetRealmExportFileParams{Path: path}); err == nil {
		t.Error("a member downloaded the export")
	}
	file, err := f.Service.GetRealmExportFile(ctx, admin, chat.GetRealmExportFileParams{Path: path})
	must(t, err)
	tarball := filepath.Join(t.TempDir(), file.Name)
	body, err := io.ReadAll(file)
	must(t, err)
	file.Close()
	must(t, os.WriteFile(tarball, body, 0o600))
	imported, err := transfer.ImportPath(ctx, memory.New(), blobmemory.New(), tarball, transfer.ImportOptions{})
	must(t, err)
	if imported.Users == 0 || imported.Messages == 0 {
		t.Errorf("the downloaded export imported %+v", imported)
	}

	consents, err := f.Service.GetRealmExportConsents(ctx, admin)
	must(t, err)
	if len(consents.ExportConsents) == 0 {
		t.Error("no consents listed")
	}
	for _, tc := range []struct {
		name string
		id   int64
		want string
	}{
		{"unknown id", res.ID + 100, "Invalid data export ID"},
		{"the export", res.ID, ""},
		{"again", res.ID, "Export already deleted"},
	} {
		_, err := f.Service.DeleteRealmExport(ctx, admin, chat.DeleteRealmExportParams{ExportID: tc.id})
		if (tc.want == "" && err != nil) || (tc.want != "" && !isMsg(err, tc.want)) {
			t.Errorf("delete %s: got %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := f.Service.GetRealmExportFile(ctx, admin, chat.GetRealmExportFileParams{Path: path}); err == nil {
		t.Error("the deleted export is still downloadable")
	}
	for range transfer.ExportsPerWeek - 1 {
		r, err := f.Service.ExportRealm(ctx, admin, chat.ExportRealmParams{})
		must(t, err)
		waitExport(t, f.Service, admin, r.ID)
	}
	if _, err := f.Service.ExportRealm(ctx, admin, chat.ExportRealmParams{}); !isMsg(err, "Exceeded rate limit.") {
		t.Errorf("the sixth export in a week: got %v", err)
	}
}

func isCode(err error, code string) bool {
	var e *chat.Error
	return errors.As(err, &e) && string(e.Code) == code
}

func isMsg(err error, msg string) bool {
	var e *chat.Error
	return errors.As(err, &e) && e.Msg == msg
}

// TestExportsFromPriorServer carries an organization's exports across an export and import:
// the finished one is listed with export_from_prior_server, without a URL, and cannot be
// deleted.
func TestExportsFromPriorServer(t *testing.T) {
	t.Parallel()
	f, bl := sourceOrg(t)
	ctx := t.Context()
	admin := f.Actor("iago@zulip.com")
	res, err := f.Service.ExportRealm(ctx, admin, chat.ExportRealmParams{})
	must(t, err)
	waitExport(t, f.Service, admin, res.ID)
	dir := t.TempDir()
	_, err = transfer.ExportDir(ctx, f.Store, bl, dir, transfer.ExportOptions{})
	must(t, err)
	st := memory.New()
	_, err = transfer.ImportDir(ctx, st, blobmemory.New(), dir, transfer.ImportOptions{})
	must(t, err)
	svc, err := chat.New(chat.Options{Store: st, Blobs: blobmemory.New(), Now: f.Clock.Now})
	must(t, err)
	t.Cleanup(func() { svc.Close() })
	got, err := svc.GetRealmExports(ctx, admin)
	must(t, err)
	if len(got.Exports) != 1 {
		t.Fatalf("exports after the import: %+v", got.Exports)
	}
	e := got.Exports[0]
	if !e.ExportFromPriorServer || e.Pending || e.ExportURL != nil || e.FailedTimestamp != nil || e.DeletedTimestamp != nil || e.ActingUserID != admin.UserID {
		t.Errorf("carried export: %+v", e)
	}
	if _, err := svc.DeleteRealmExport(ctx, admin, chat.DeleteRealmExportParams{ExportID: e.ID}); !isMsg(err, "Export already deleted") {
		t.Errorf("delete of a prior server's export: got %v", err)
	}
}
