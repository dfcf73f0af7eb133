package conversations

import (
	"context"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// ChannelFolderRecord is a channel folder as the API shows it.
type ChannelFolderRecord struct {
	ID                  channels.FolderID `json:"id"`
	Name                string            `json:"name"`
	Description         string            `json:"description"`
	RenderedDescription string            `json:"rendered_description"`
	Order               int               `json:"order"`
	DateCreated         *int64            `json:"date_created"`
	CreatorID           *users.ID         `json:"creator_id"`
	IsArchived          bool              `json:"is_archived"`
}

func folderRecord(f channels.Folder) ChannelFolderRecord {
	rec := ChannelFolderRecord{ID: f.ID, Name: f.Name, Description: f.Description,
		RenderedDescription: markdown.Render(f.Description), Order: f.Order, IsArchived: f.IsArchived}
	if f.DateCreated != 0 {
		rec.DateCreated = ptr(f.DateCreated)
	}
	if f.CreatorID != 0 {
		rec.CreatorID = ptr(f.CreatorID)
	}
	return rec
}

// ChannelFolderEvent is a channel_folder event: op add (ChannelFolder) or update
// (ChannelFolderID and Data, the changed fields).
type ChannelFolderEvent struct {
	Type            string               `json:"type"`
	Op              string               `json:"op"`
	ChannelFolder   *ChannelFolderRecord `json:"channel_folder,omitempty"`
	ChannelFolderID channels.FolderID    `json:"channel_folder_id,omitempty"`
	Data            map[string]any       `json:"data,omitempty"`
}

// CreateChannelFolderParams are the parameters of POST /channel_folders/create.
type CreateChannelFolderParams struct {
	Name        string
	Description string
}

// CreateChannelFolderResult holds the new folder's id.
type CreateChannelFolderResult struct {
	ChannelFolderID channels.FolderID `json:"channel_folder_id"`
}

// CreateChannelFolder creates a channel folder (administrators only). Names are unique,
// case-insensitively, among folders that are not archived.
func (s *Service) CreateChannelFolder(ctx context.Context, actor engine.Actor, p CreateChannelFolderParams) (CreateChannelFolderResult, error) {
	name, err := channels.CheckFolderName(p.Name)
	if err != nil {
		return CreateChannelFolderResult{}, engine.RuleError(err)
	}
	desc, err := channels.CheckFolderDescription(p.Description)
	if err != nil {
		return CreateChannelFolderResult{}, engine.RuleError(err)
	}
	var res CreateChannelFolderResult
	err = s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		all, err := tx.ChannelFolders().List()
		if err != nil {
			return err
		}
		if folderNameTaken(all, name, 0) {
			return engine.BadRequest("Channel folder name already in use")
		}
		f := channels.Folder{Name: name, Description: desc, Order: len(all), DateCreated: o.Now.Unix(), CreatorID: o.Me.ID}
		if f.ID, err = tx.ChannelFolders().Create(f); err != nil {
			return err
		}
		res.ChannelFolderID = f.ID
		rec := folderRecord(f)
		ids, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		ev.Emit(ChannelFolderEvent{Type: "channel_folder", Op: "add", ChannelFolder: &rec}, ids)
		return nil
	})
	return res, err
}

// errFolderNotFound is the refusal of an unknown channel folder id.
func errFolderNotFound() *engine.Error { return engine.BadRequest("Invalid channel folder ID") }

// checkActiveFolder refuses an unknown or archived folder as a channel's folder.
func checkActiveFolder(r storage.ChannelFolderReader, id channels.FolderID) error {
	f, err := r.Get(id)
	if err == nil && f.IsArchived {
		return errFolderNotFound()
	}
	return engine.NotFound(err, errFolderNotFound)
}

func folderNameTaken(all []channels.Folder, name string, except channels.FolderID) bool {
	for _, f := range all {
		if f.ID != except && !f.IsArchived && strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// GetChannelFoldersParams are the parameters of GET /channel_folders.
type GetChannelFoldersParams struct {
	IncludeArchived bool
}

// GetChannelFoldersResult lists folders by order.
type GetChannelFoldersResult struct {
	ChannelFolders []ChannelFolderRecord `json:"channel_folders"`
}

// GetChannelFolders lists the organization's channel folders.
func (s *Service) GetChannelFolders(ctx context.Context, actor engine.Actor, p GetChannelFoldersParams) (GetChannelFoldersResult, error) {
	res := GetChannelFoldersResult{ChannelFolders: []ChannelFolderRecord{}}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx := o.Tx
		recs, err := folderRecords(tx.ChannelFolders(), p.IncludeArchived)
		res.ChannelFolders = recs
		return err
	})
	return res, err
}

// folderRecords lists folders ordered by their order, then id.
func folderRecords(r storage.ChannelFolderReader, archived bool) ([]ChannelFolderRecord, error) {
	all, err := r.List()
	if err != nil {
		return nil, err
	}
	out := []ChannelFolderRecord{}
	for _, f := range all {
		if f.IsArchived && !archived {
			continue
		}
		out = append(out, folderRecord(f))
	}
	sortFolders(out)
	return out, nil
}

func sortFolders(l []ChannelFolderRecord) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && (l[j].Order < l[j-1].Order || l[j].Order == l[j-1].Order && l[j].ID < l[j-1].ID); j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

// UpdateChannelFolderParams are the parameters of PATCH /channel_folders/{channel_folder_id}.
type UpdateChannelFolderParams struct {
	ChannelFolderID channels.FolderID
	Name            *string
	Description     *string
	IsArchived      *bool
}

// UpdateChannelFolderResult is the (empty) response.
type UpdateChannelFolderResult struct{}

// UpdateChannelFolder renames, describes, archives or unarchives a folder (administrators
// only). A folder that still holds channels that are not archived cannot be archived.
func (s *Service) UpdateChannelFolder(ctx context.Context, actor engine.Actor, p UpdateChannelFolderParams) (UpdateChannelFolderResult, error) {
	err := s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		all, err := tx.ChannelFolders().List()
		if err != nil {
			return err
		}
		f, err := tx.ChannelFolders().Get(p.ChannelFolderID)
		if err != nil {
			return engine.NotFound(err, errFolderNotFound)
		}
		data := map[string]any{}
		if p.Name != nil {
			name, err := channels.CheckFolderName(*p.Name)
			if err != nil {
				return engine.RuleError(err)
			}
			if folderNameTaken(all, name, f.ID) {
				return engine.BadRequest("Channel folder name already in use")
			}
			f.Name = name
			data["name"] = name
		}
		if p.Description != nil {
			d, err := channels.CheckFolderDescription(*p.Description)
			if err != nil {
				return engine.RuleError(err)
			}
			f.Description = d
			data["description"] = d
			data["rendered_description"] = markdown.Render(d)
		}
		if p.IsArchived != nil {
			if *p.IsArchived {
				chs, err := tx.Channels().List()
				if err != nil {
					return err
				}
				for _, c := range chs {
					if c.FolderID == f.ID && !c.IsArchived {
						return engine.BadRequest("You need to remove all the channels from this folder to archive it.")
					}
				}
			} else if folderNameTaken(all, f.Name, f.ID) {
				return engine.BadRequest("Channel folder name already in use")
			}
			f.IsArchived = *p.IsArchived
			data["is_archived"] = f.IsArchived
		}
		if len(data) == 0 {
			return nil
		}
		if err := tx.ChannelFolders().Update(f); err != nil {
			return err
		}
		ids, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		ev.Emit(ChannelFolderEvent{Type: "channel_folder", Op: "update", ChannelFolderID: f.ID, Data: data}, ids)
		return nil
	})
	return UpdateChannelFolderResult{}, err
}

// PatchChannelFoldersParams are the parameters of PATCH /channel_folders: every folder's id,
// in the new order.
type PatchChannelFoldersParams struct {
	Order []channels.FolderID
}

// MaxChannelFolders bounds the order list of PATCH /channel_folders.
const MaxChannelFolders = 1000

// ChannelFolderReorderEvent is channel_folder reorder: the folders' ids in their new order.
type ChannelFolderReorderEvent struct {
	Type  string              `json:"type"`
	Op    string              `json:"op"`
	Order []channels.FolderID `json:"order"`
}

// PatchChannelFoldersResult is PatchChannelFolders's answer: nothing beyond success.
type PatchChannelFoldersResult struct{}

// PatchChannelFolders puts the channel folders in the given order (administrators); the list
// must name every folder, archived ones included. Everyone gets channel_folder reorder.
func (s *Service) PatchChannelFolders(ctx context.Context, actor engine.Actor, p PatchChannelFoldersParams) (PatchChannelFoldersResult, error) {
	if len(p.Order) > MaxChannelFolders {
		return PatchChannelFoldersResult{}, engine.BadRequest("order is too long (limit: %d items)", MaxChannelFolders)
	}
	return PatchChannelFoldersResult{}, s.eng.Mutate(ctx, actor, engine.Admins, func(o *engine.WriteOp) error {
		tx, ev := o.Tx, o.Ev
		all, err := tx.ChannelFolders().List()
		if err != nil {
			return err
		}
		place := make(map[channels.FolderID]int, len(p.Order))
		for i, id := range p.Order {
			place[id] = i
		}
		for _, f := range all {
			if _, ok := place[f.ID]; !ok {
				return engine.BadRequest("Invalid order mapping.")
			}
		}
		for _, f := range all {
			if f.Order == place[f.ID] {
				continue
			}
			f.Order = place[f.ID]
			if err := tx.ChannelFolders().Update(f); err != nil {
				return err
			}
		}
		ids, err := engine.ActiveUserIDs(tx.Users())
		if err != nil {
			return err
		}
		ev.Emit(ChannelFolderReorderEvent{Type: "channel_folder", Op: "reorder", Order: p.Order}, ids)
		return nil
	})
}
