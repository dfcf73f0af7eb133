package transfer

import (
	"sort"

	"github.com/teamchat/chat/storage"
)

// The organization's own data exports cross an export and import as Zulip carries them
// (zerver_realmexport): the records stay, the tarballs do not, so the imported ones that had
// succeeded are marked export_from_prior_server (feature level 499) and cannot be deleted.

// Zulip's RealmExport statuses.
const (
	exportRequested       = 1
	exportSucceeded       = 3
	exportFailed          = 4
	exportDeleted         = 5
	exportFromPriorServer = 6
)

type realmExportRecord struct {
	ID            int64    `json:"id"`
	Realm         int64    `json:"realm"`
	ActingUser    *int64   `json:"acting_user"`
	Type          int      `json:"type"`
	Status        int      `json:"status"`
	DateRequested float64  `json:"date_requested"`
	DateSucceeded *float64 `json:"date_succeeded"`
	DateFailed    *float64 `json:"date_failed"`
	DateDeleted   *float64 `json:"date_deleted"`
}

func msOpt(ms int64) *float64 {
	if ms == 0 {
		return nil
	}
	return ptrTo(millis(ms))
}

func realmExportRecords(list []storage.Export) []realmExportRecord {
	out := []realmExportRecord{}
	for _, e := range list {
		rec := realmExportRecord{ID: e.ID, Realm: realmID, ActingUser: optID(e.ActingUserID), Type: e.Type, Status: exportRequested,
			DateRequested: millis(e.Time), DateSucceeded: msOpt(e.FinishedAt), DateFailed: msOpt(e.FailedAt), DateDeleted: msOpt(e.DeletedAt)}
		switch {
		case e.DeletedAt != 0:
			rec.Status = exportDeleted
		case e.FailedAt != 0:
			rec.Status = exportFailed
		case e.FromPriorServer:
			rec.Status = exportFromPriorServer
		case e.FinishedAt != 0:
			rec.Status = exportSucceeded
		}
		out = append(out, rec)
	}
	return out
}

func unmillis(f *float64) int64 {
	if f == nil {
		return 0
	}
	return int64(*f * 1000)
}

// importRealmExports carries the records across; an export still running on the old server
// never finishes here, so it is recorded as failed.
func (im *importer) importRealmExports() error {
	list := im.rf.RealmExports
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	for _, r := range list {
		acting, err := im.optUser(r.ActingUser)
		if err != nil {
			return err
		}
		e := storage.Export{ActingUserID: acting, Type: r.Type, Time: int64(r.DateRequested * 1000), FinishedAt: unmillis(r.DateSucceeded),
			FailedAt: unmillis(r.DateFailed), DeletedAt: unmillis(r.DateDeleted)}
		switch r.Status {
		case exportSucceeded, exportFromPriorServer:
			e.FromPriorServer = true
			if e.FinishedAt == 0 {
				e.FinishedAt = e.Time
			}
		case exportFailed, exportDeleted:
		default:
			if e.FinishedAt == 0 && e.FailedAt == 0 && e.DeletedAt == 0 {
				e.FailedAt = e.Time
			}
		}
		if _, err := im.tx.Exports().Create(e); err != nil {
			return err
		}
	}
	return nil
}
