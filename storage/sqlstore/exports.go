package sqlstore

import (
	"database/sql"

	"github.com/teamchat/chat/storage"
)

// exportTx is the data exports accessor.
type exportTx struct{ t *txn }

const exportColumns = "id, acting_user_id, export_type, export_time, finished_at, failed_at, deleted_at, blob_key, size, from_prior_server"

func scanExport(r *sql.Rows) (storage.Export, error) {
	var e storage.Export
	err := r.Scan(&e.ID, &e.ActingUserID, &e.Type, &e.Time, &e.FinishedAt, &e.FailedAt, &e.DeletedAt, &e.Key, &e.Size, &e.FromPriorServer)
	return e, err
}

func (a exportTx) Get(id int64) (storage.Export, error) {
	list, err := scanAll(a.t, scanExport, "SELECT "+exportColumns+" FROM realm_exports WHERE id = ?", id)
	if err != nil {
		return storage.Export{}, err
	}
	if len(list) == 0 {
		return storage.Export{}, storage.ErrNotFound
	}
	return list[0], nil
}

func (a exportTx) List() ([]storage.Export, error) {
	list, err := scanAll(a.t, scanExport, "SELECT "+exportColumns+" FROM realm_exports ORDER BY id")
	if list == nil && err == nil {
		list = []storage.Export{}
	}
	return list, err
}

func (a exportTx) Create(e storage.Export) (int64, error) {
	var id int64
	err := a.t.get(`INSERT INTO realm_exports (acting_user_id, export_type, export_time, finished_at, failed_at, deleted_at, blob_key, size, from_prior_server)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		[]any{e.ActingUserID, e.Type, e.Time, e.FinishedAt, e.FailedAt, e.DeletedAt, e.Key, e.Size, e.FromPriorServer}, &id)
	return id, err
}

func (a exportTx) Update(e storage.Export) error {
	res, err := a.t.exec(`UPDATE realm_exports SET acting_user_id = ?, export_type = ?, export_time = ?, finished_at = ?, failed_at = ?,
		deleted_at = ?, blob_key = ?, size = ?, from_prior_server = ? WHERE id = ?`,
		e.ActingUserID, e.Type, e.Time, e.FinishedAt, e.FailedAt, e.DeletedAt, e.Key, e.Size, e.FromPriorServer, e.ID)
	if err != nil {
		return err
	}
	return mustAffect(res, "export", e.ID)
}

func (r *readTx) Exports() storage.ExportReader { return exportTx{r.t} }
func (w *tx) Exports() storage.ExportWriter     { return exportTx{w.t} }
