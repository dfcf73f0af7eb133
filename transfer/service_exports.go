package transfer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Limits of POST /export/realm, as Zulip's.
const (
	// ExportsPerWeek is how many exports an organization may start in seven days.
	ExportsPerWeek = 5
	// MaxExportUploadBytes is the largest upload space an export made through the API may
	// include; a larger organization is exported with chatserver export.
	MaxExportUploadBytes = 10 << 30
)

// ExportRecord is one data export as the API shows it (Zulip's RealmExport).
type ExportRecord struct {
	ID               int64    `json:"id"`
	ActingUserID     users.ID `json:"acting_user_id"`
	ExportTime       float64  `json:"export_time"`
	DeletedTimestamp *float64 `json:"deleted_timestamp"`
	FailedTimestamp  *float64 `json:"failed_timestamp"`
	ExportURL        *string  `json:"export_url"`
	Pending          bool     `json:"pending"`
	ExportType       int      `json:"export_type"`
	// ExportFromPriorServer marks the export this organization was imported from (feature
	// level 499).
	ExportFromPriorServer bool `json:"export_from_prior_server"`
}

// RealmExportEvent is the realm_export event: every export, sent to the administrators when
// one changes.
type RealmExportEvent struct {
	Type    string         `json:"type"`
	Exports []ExportRecord `json:"exports"`
}

// ExportRealmParams are the parameters of POST /export/realm.
type ExportRealmParams struct {
	// ExportType is 1 (public, the default when 0) or 2 (standard: with the private data of
	// the users who consented).
	ExportType int
}

// ExportRealmResult is the new export's id.
type ExportRealmResult struct {
	ID int64 `json:"id"`
}

// GetRealmExportsResult lists the exports.
type GetRealmExportsResult struct {
	Exports []ExportRecord `json:"exports"`
}

// DeleteRealmExportParams are the parameters of DELETE /export/realm/{export_id}.
type DeleteRealmExportParams struct {
	ExportID int64
}

// ExportConsent is one user's consent to exports of their private data.
type ExportConsent struct {
	UserID    users.ID `json:"user_id"`
	Consented bool     `json:"consented"`
}

// GetRealmExportConsentsResult lists every active human's consent.
type GetRealmExportConsentsResult struct {
	ExportConsents []ExportConsent `json:"export_consents"`
}

// Errors of the export operations; their text is Zulip's.
var (
	errInvalidExportType = engine.BadRequest("Invalid export type.")
	errExportRateLimit   = engine.BadRequest("Exceeded rate limit.")
	errExportTooLarge    = engine.BadRequest("Please request a manual export from your server's administrator.")
	errExportDeleted     = engine.BadRequest("Export already deleted")
	errExportFailed      = engine.BadRequest("Export failed, nothing to delete")
	errExportPending     = engine.BadRequest("Export still in progress")
	errExportsDisabled   = engine.BadRequest("Data exports are not available: the server keeps no files.")
)

// errInvalidExportID is the error of an unknown export id.
func errInvalidExportID() *engine.Error { return engine.BadRequest("Invalid data export ID") }

// ExportRealm records a new export of the organization, sends the administrators the
// realm_export event with it pending, and makes the export in the background; another
// realm_export event tells when it is ready (or failed).
func (s *Service) ExportRealm(ctx context.Context, actor engine.Actor, p ExportRealmParams) (ExportRealmResult, error) {
	typ := p.ExportType
	if typ == 0 {
		typ = int(ExportPublic)
	}
	if typ != int(ExportPublic) && typ != int(ExportFullWithConsent) {
		return ExportRealmResult{}, errInvalidExportType
	}
	if s.bl == nil {
		return ExportRealmResult{}, errExportsDisabled
	}
	var res ExportRealmResult
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		list, err := o.Tx.Exports().List()
		if err != nil {
			return err
		}
		recent := 0
		weekAgo := o.Now.Add(-7 * 24 * time.Hour).UnixMilli()
		for _, e := range list {
			if e.Time >= weekAgo && !e.FromPriorServer {
				recent++
			}
		}
		if recent >= ExportsPerWeek {
			return errExportRateLimit
		}
		if size, err := o.Tx.Attachments().TotalSize(); err != nil {
			return err
		} else if size > MaxExportUploadBytes {
			return errExportTooLarge
		}
		e := storage.Export{ActingUserID: o.Me.ID, Type: typ, Time: o.Now.UnixMilli()}
		if e.ID, err = o.Tx.Exports().Create(e); err != nil {
			return err
		}
		res.ID = e.ID
		if err := s.notify(o, append(list, e)); err != nil {
			return err
		}
		o.Ev.AfterCommit(func() { s.start(e) })
		return nil
	})
	return res, err
}

// GetRealmExports lists the organization's public and standard exports.
func (s *Service) GetRealmExports(ctx context.Context, actor engine.Actor) (GetRealmExportsResult, error) {
	var res GetRealmExportsResult
	err := s.eng.Read(ctx, actor, engine.Admins, func(o *engine.ReadOp) error {
		list, err := o.Tx.Exports().List()
		if err != nil {
			return err
		}
		realm, err := o.Tx.Realm().Get()
		if err != nil {
			return err
		}
		res.Exports = Records(realm.URL, list)
		return nil
	})
	return res, err
}

// DeleteRealmExportResult is DeleteRealmExport's answer: nothing beyond success.
type DeleteRealmExportResult struct{}

// DeleteRealmExport deletes a finished export's tarball and marks it deleted.
func (s *Service) DeleteRealmExport(ctx context.Context, actor engine.Actor, p DeleteRealmExportParams) (DeleteRealmExportResult, error) {
	var key string
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		e, err := o.Tx.Exports().Get(p.ExportID)
		if err != nil {
			return engine.NotFound(err, errInvalidExportID)
		}
		if e.Type == int(ExportFull) {
			return errInvalidExportID()
		}
		switch {
		case e.DeletedAt != 0, e.FromPriorServer: // the tarball stayed on the prior server
			return errExportDeleted
		case e.FailedAt != 0:
			return errExportFailed
		case e.Pending():
			return errExportPending
		}
		e.DeletedAt, key = o.Now.UnixMilli(), e.Key
		if err := o.Tx.Exports().Update(e); err != nil {
			return err
		}
		list, err := o.Tx.Exports().List()
		if err != nil {
			return err
		}
		return s.notify(o, list)
	})
	if err == nil && key != "" && s.bl != nil {
		if derr := s.bl.Delete(ctx, key); derr != nil {
			s.log.Warn("deleting an export's tarball", "key", key, "err", derr)
		}
	}
	return DeleteRealmExportResult{}, err
}

// GetRealmExportConsents lists whether each active human allows exports of their private
// data (the allow_private_data_export setting).
func (s *Service) GetRealmExportConsents(ctx context.Context, actor engine.Actor) (GetRealmExportConsentsResult, error) {
	res := GetRealmExportConsentsResult{ExportConsents: []ExportConsent{}}
	err := s.eng.Read(ctx, actor, engine.Admins, func(o *engine.ReadOp) error {
		list, err := o.Tx.Users().List()
		if err != nil {
			return err
		}
		settings, err := o.Tx.UserSettings().List()
		if err != nil {
			return err
		}
		for _, u := range list {
			if u.IsActive && !u.IsBot() {
				v, _ := settings[u.ID].Value("allow_private_data_export").(bool)
				res.ExportConsents = append(res.ExportConsents, ExportConsent{UserID: u.ID, Consented: v})
			}
		}
		return nil
	})
	return res, err
}

// Records shapes exports for the API: the public and standard ones (those of chatserver
// export, type full, are not listed), export_url under realmURL for the finished ones.
func Records(realmURL string, list []storage.Export) []ExportRecord {
	out := []ExportRecord{}
	for _, e := range list {
		if e.Type == int(ExportFull) {
			continue
		}
		r := ExportRecord{ID: e.ID, ActingUserID: e.ActingUserID, ExportTime: millis(e.Time), Pending: e.Pending(),
			ExportType: e.Type, ExportFromPriorServer: e.FromPriorServer}
		if e.DeletedAt != 0 {
			r.DeletedTimestamp = ptrTo(millis(e.DeletedAt))
		}
		if e.FailedAt != 0 {
			r.FailedTimestamp = ptrTo(millis(e.FailedAt))
		}
		if e.FinishedAt != 0 && e.DeletedAt == 0 && e.Key != "" {
			r.ExportURL = ptrTo(strings.TrimSuffix(realmURL, "/") + DownloadPath(e))
		}
		out = append(out, r)
	}
	return out
}

// DownloadPath is where administrators download a finished export, the path of its
// export_url: /user_avatars/ and the tarball's blob key (exports/{id}/{secret}/{file}), as
// Zulip's URLs of exports on local storage.
func DownloadPath(e storage.Export) string { return "/user_avatars/" + e.Key }

func millis(ms int64) float64 { return float64(ms) / 1000 }

func ptrTo[T any](v T) *T { return &v }

// notify records the realm_export event with the exports for the active administrators.
func (s *Service) notify(o *engine.WriteOp, list []storage.Export) error {
	realm, err := o.Tx.Realm().Get()
	if err != nil {
		return err
	}
	people, err := o.Tx.Users().List()
	if err != nil {
		return err
	}
	var admins []int64
	for _, u := range people {
		if u.IsActive && !u.IsBot() && u.Role.IsAdmin() {
			admins = append(admins, int64(u.ID))
		}
	}
	o.Ev.Emit(RealmExportEvent{Type: "realm_export", Exports: Records(realm.URL, list)}, admins)
	return nil
}

// start makes the export in the background: the tarball streams into the blob store, then
// the record says it is ready, or failed.
func (s *Service) start(e storage.Export) {
	s.jobs.Add(1)
	go func() {
		defer s.jobs.Done()
		var b [12]byte
		_, _ = rand.Read(b[:])
		key := fmt.Sprintf("exports/%d/%s/zulip-export-%d.tar.gz", e.ID, hex.EncodeToString(b[:]), e.ID)
		size, runErr := s.run(e, key)
		if runErr != nil {
			s.log.Error("data export failed", "export_id", e.ID, "err", runErr)
			_ = s.bl.Delete(context.WithoutCancel(s.ctx), key)
		} else {
			s.log.Info("data export finished", "export_id", e.ID, "bytes", size)
		}
		uerr := s.eng.Mutate(context.WithoutCancel(s.ctx), engine.Actor{}, engine.NoActor, func(o *engine.WriteOp) error {
			cur, err := o.Tx.Exports().Get(e.ID)
			if err != nil {
				return err
			}
			if runErr != nil || cur.DeletedAt != 0 {
				cur.FailedAt = o.Now.UnixMilli()
			} else {
				cur.FinishedAt, cur.Key, cur.Size = o.Now.UnixMilli(), key, size
			}
			if err := o.Tx.Exports().Update(cur); err != nil {
				return err
			}
			list, err := o.Tx.Exports().List()
			if err != nil {
				return err
			}
			return s.notify(o, list)
		})
		if uerr != nil {
			s.log.Error("recording a data export's end", "export_id", e.ID, "err", uerr)
		}
	}()
}

// run writes the export's tarball to key and returns its size.
func (s *Service) run(e storage.Export, key string) (int64, error) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := Export(s.ctx, s.store, s.bl, pw, ExportOptions{Type: ExportType(e.Type)})
		pw.CloseWithError(err)
		done <- err
	}()
	n, err := s.bl.Put(s.ctx, key, pr)
	pr.CloseWithError(err)
	if xerr := <-done; xerr != nil {
		return 0, xerr
	}
	return n, err
}

// GetRealmExportFileParams name a finished export's tarball by the path of its export_url
// after /user_avatars/.
type GetRealmExportFileParams struct {
	Path string
}

// GetRealmExportFile opens a finished export's tarball for an administrator; the caller
// closes it. An unknown, unfinished or deleted export is not found.
func (s *Service) GetRealmExportFile(ctx context.Context, actor engine.Actor, p GetRealmExportFileParams) (blobs.Object, error) {
	segs := strings.Split(p.Path, "/")
	id, perr := strconv.ParseInt(segs[min(1, len(segs)-1)], 10, 64)
	if len(segs) != 4 || segs[0] != "exports" || perr != nil || s.bl == nil {
		return nil, errExportFileNotFound()
	}
	err := s.eng.Read(ctx, actor, engine.Admins, func(o *engine.ReadOp) error {
		e, err := o.Tx.Exports().Get(id)
		if err != nil {
			return engine.NotFound(err, errExportFileNotFound)
		}
		if e.FinishedAt == 0 || e.DeletedAt != 0 || e.Key != p.Path {
			return errExportFileNotFound()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	obj, err := s.bl.Open(ctx, p.Path)
	if err != nil {
		return nil, fmt.Errorf("transfer: export %d: %w", id, err)
	}
	return obj, nil
}

// errExportFileNotFound answers a download of no finished export.
func errExportFileNotFound() *engine.Error {
	return engine.Errorf(engine.CodeNotFound, "File not found")
}

// RealmExportConsentEvent is the realm_export_consent event: a user's consent to exports of
// their private data changed.
type RealmExportConsentEvent struct {
	Type      string   `json:"type"`
	UserID    users.ID `json:"user_id"`
	Consented bool     `json:"consented"`
}

// ConsentChanged records, in the transaction that changed user's allow_private_data_export
// setting, the realm_export_consent event for the active administrators.
func ConsentChanged(tx storage.ReadTx, ev *engine.Events, user users.User, consented bool) error {
	people, err := tx.Users().List()
	if err != nil {
		return err
	}
	var admins []int64
	for _, u := range people {
		if u.IsActive && !u.IsBot() && u.Role.IsAdmin() {
			admins = append(admins, int64(u.ID))
		}
	}
	ev.Emit(RealmExportConsentEvent{Type: "realm_export_consent", UserID: user.ID, Consented: consented}, admins)
	return nil
}
