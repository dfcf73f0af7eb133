package chat

import (
	"context"
	"strings"

	"github.com/teamchat/chat/transfer"
)

// Data exports of the organization (Zulip's /export/realm) are the transfer area's operations
// (package transfer, which also writes and reads Zulip's export format and backups); the
// Service delegates to it.

// The types of the export operations, defined in package transfer.
type (
	DeleteRealmExportResult      = transfer.DeleteRealmExportResult
	ExportRecord                 = transfer.ExportRecord
	RealmExportEvent             = transfer.RealmExportEvent
	RealmExportConsentEvent      = transfer.RealmExportConsentEvent
	ExportRealmParams            = transfer.ExportRealmParams
	ExportRealmResult            = transfer.ExportRealmResult
	GetRealmExportsResult        = transfer.GetRealmExportsResult
	DeleteRealmExportParams      = transfer.DeleteRealmExportParams
	ExportConsent                = transfer.ExportConsent
	GetRealmExportConsentsResult = transfer.GetRealmExportConsentsResult
	GetRealmExportFileParams     = transfer.GetRealmExportFileParams
)

// ExportRealm starts a data export of the organization in the background (administrators).
func (s *Service) ExportRealm(ctx context.Context, actor Actor, p ExportRealmParams) (ExportRealmResult, error) {
	return s.exports.ExportRealm(ctx, actor, p)
}

// GetRealmExports lists the organization's data exports (administrators).
func (s *Service) GetRealmExports(ctx context.Context, actor Actor) (GetRealmExportsResult, error) {
	return s.exports.GetRealmExports(ctx, actor)
}

// DeleteRealmExport deletes a finished data export (administrators).
func (s *Service) DeleteRealmExport(ctx context.Context, actor Actor, p DeleteRealmExportParams) (DeleteRealmExportResult, error) {
	return s.exports.DeleteRealmExport(ctx, actor, p)
}

// GetRealmExportConsents lists the users' consents to exports of their private data.
func (s *Service) GetRealmExportConsents(ctx context.Context, actor Actor) (GetRealmExportConsentsResult, error) {
	return s.exports.GetRealmExportConsents(ctx, actor)
}

// GetRealmExportFile opens a finished export's tarball for an administrator.
func (s *Service) GetRealmExportFile(ctx context.Context, actor Actor, p GetRealmExportFileParams) (UploadedFile, error) {
	obj, err := s.exports.GetRealmExportFile(ctx, actor, p)
	return UploadedFile{Object: obj, Name: p.Path[strings.LastIndexByte(p.Path, '/')+1:], ContentType: "application/gzip"}, err // served as a download
}
