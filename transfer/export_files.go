package transfer

import (
	"errors"
	"fmt"
	"github.com/teamchat/chat/transfer/zulipdir"
	"strings"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// attachmentFile is attachment.json.
type attachmentFile struct {
	Attachments []zulipdir.Attachment `json:"zerver_attachment"`
}

// files writes attachment.json and the files: uploads/, avatars/, emoji/ (each with its
// records.json) and thumbnails/ (this engine's thumbnails, which Zulip makes again).
func (e *exporter) files() error {
	links := map[uploads.ID][]int64{}
	for _, l := range e.org.links {
		links[l.AttachmentID] = append(links[l.AttachmentID], int64(l.MessageID))
	}
	af := attachmentFile{Attachments: []zulipdir.Attachment{}}
	var records []fileRecord
	for _, a := range e.org.attachments {
		af.Attachments = append(af.Attachments, zulipdir.Attachment{
			ID: int64(a.ID), Owner: int64(a.OwnerID), PathID: a.PathID, FileName: a.Name, Size: a.Size,
			ContentType: optString(a.ContentType), CreateTime: float64(a.CreateTime) / 1000, Messages: orEmpty(links[a.ID]),
			Realm: realmID, Width: a.Width, Height: a.Height, Thumbnailed: a.Thumbnailed,
		})
		if e.bl == nil {
			continue
		}
		n, err := e.out.copyBlob(e.ctx, "uploads/"+a.PathID, e.bl, uploads.BlobKey(a.PathID))
		if errors.Is(err, blobs.ErrNotFound) {
			continue // a row whose file is gone: the row is kept, as Zulip keeps it
		}
		if err != nil {
			return err
		}
		records = append(records, fileRecord{Path: a.PathID, S3Path: a.PathID, ContentType: a.ContentType, Size: n,
			LastModified: float64(a.CreateTime) / 1000, RealmID: realmID, UserProfileID: int64(a.OwnerID), FileName: a.Name})
		e.res.Files++
		e.opts.Progress.Step("export: files", e.res.Files, 0)
	}
	if err := writeJSON(e.out, "attachment.json", af); err != nil {
		return err
	}
	if err := e.writeRecords("uploads", records); err != nil {
		return err
	}
	for _, dir := range []string{"avatars", "emoji", "thumbnails"} {
		if err := e.copyPrefix(dir); err != nil {
			return err
		}
	}
	return nil
}

func (e *exporter) writeRecords(dir string, records []fileRecord) error {
	if records == nil {
		records = []fileRecord{}
	}
	return writeJSON(e.out, dir+"/records.json", records)
}

// copyPrefix copies every blob under dir/ of the blob store to dir/ of the export, with a
// records.json naming them (avatars: with the user's id, from the avatar's file name).
func (e *exporter) copyPrefix(dir string) error {
	var records []fileRecord
	if e.bl != nil {
		owners := map[string]users.ID{}
		if dir == "avatars" {
			for _, u := range e.org.users {
				owners[uploads.AvatarPath(u.ID, false)] = u.ID
				owners[uploads.AvatarPath(u.ID, true)] = u.ID
			}
		}
		err := e.bl.List(e.ctx, dir+"/", func(info blobs.Info) error {
			path := strings.TrimPrefix(info.Key, dir+"/")
			n, err := e.out.copyBlob(e.ctx, info.Key, e.bl, info.Key)
			if errors.Is(err, blobs.ErrNotFound) {
				return nil
			}
			if err != nil {
				return err
			}
			records = append(records, fileRecord{Path: path, S3Path: path, Size: n, LastModified: float64(info.ModTime.Unix()),
				RealmID: realmID, UserProfileID: int64(owners[path])})
			e.res.Files++
			e.opts.Progress.Step("export: files", e.res.Files, 0)
			return nil
		})
		if err != nil {
			return fmt.Errorf("transfer: export of %s: %w", dir, err)
		}
	}
	return e.writeRecords(dir, records)
}
