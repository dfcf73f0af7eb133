package transfer

import (
	"slices"
	"sort"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
)

// Channel folders cross as Zulip's zerver_channelfolder; a channel's folder is its stream
// record's folder column.

type folderRecord struct {
	ID          int64   `json:"id"`
	Realm       int64   `json:"realm"`
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Order       int     `json:"order"`
	DateCreated float64 `json:"date_created"`
	Creator     *int64  `json:"creator"`
	IsArchived  bool    `json:"is_archived"`
}

func folderRecords(tx storage.ReadTx) ([]folderRecord, error) {
	list, err := tx.ChannelFolders().List()
	if err != nil {
		return nil, err
	}
	out := []folderRecord{}
	for _, f := range list {
		out = append(out, folderRecord{ID: int64(f.ID), Realm: realmID, Name: f.Name, Description: f.Description, Order: f.Order,
			DateCreated: seconds(f.DateCreated), Creator: optID(f.CreatorID), IsArchived: f.IsArchived})
	}
	return out, nil
}

// importFolders creates the folders, in the order of their old ids.
func (im *importer) importFolders() error {
	list := slices.Clone(im.rf.Folders)
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	im.folders = map[int64]channels.FolderID{}
	for _, f := range list {
		creator, err := im.optUser(f.Creator)
		if err != nil {
			return err
		}
		id, err := im.tx.ChannelFolders().Create(channels.Folder{Name: f.Name, Description: f.Description, Order: f.Order,
			DateCreated: int64(f.DateCreated), CreatorID: creator, IsArchived: f.IsArchived})
		if err != nil {
			return err
		}
		im.folders[f.ID] = id
	}
	return nil
}
