package sqlstore

import (
	"database/sql"
	"fmt"

	"github.com/teamchat/chat/channels"
)

// folderTx is the channel-folders accessor.
type folderTx struct{ t *txn }

const folderColumns = "id, name, description, folder_order, date_created, creator_id, is_archived"

func scanFolder(row *sql.Rows) (channels.Folder, error) {
	var f channels.Folder
	err := row.Scan(&f.ID, &f.Name, &f.Description, &f.Order, &f.DateCreated, &f.CreatorID, &f.IsArchived)
	return f, err
}

func (a folderTx) Get(id channels.FolderID) (channels.Folder, error) {
	list, err := scanAll(a.t, scanFolder, "SELECT "+folderColumns+" FROM channel_folders WHERE id = ?", id)
	if err != nil {
		return channels.Folder{}, err
	}
	if len(list) == 0 {
		return channels.Folder{}, notFound("channel folder", id)
	}
	return list[0], nil
}

func (a folderTx) List() ([]channels.Folder, error) {
	return scanAll(a.t, scanFolder, "SELECT "+folderColumns+" FROM channel_folders ORDER BY id")
}

func (a folderTx) Create(f channels.Folder) (channels.FolderID, error) {
	var id channels.FolderID
	err := a.t.guarded(func() error {
		return a.t.get(`INSERT INTO channel_folders (name, description, folder_order, date_created, creator_id, is_archived)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
			[]any{f.Name, f.Description, f.Order, f.DateCreated, f.CreatorID, f.IsArchived}, &id)
	})
	if err != nil {
		return 0, fmt.Errorf("create channel folder: %w", err)
	}
	return id, nil
}

func (a folderTx) Update(f channels.Folder) error {
	res, err := a.t.exec(`UPDATE channel_folders SET name = ?, description = ?, folder_order = ?,
		date_created = ?, creator_id = ?, is_archived = ? WHERE id = ?`,
		f.Name, f.Description, f.Order, f.DateCreated, f.CreatorID, f.IsArchived, f.ID)
	if err != nil {
		return err
	}
	return mustAffect(res, "channel folder", f.ID)
}
