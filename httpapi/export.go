package httpapi

import (
	chat "github.com/teamchat/chat"
)

// The data exports of the organization (/export/realm), for administrators.

func (h *Handler) exportRealm(r *request) (any, error) {
	typ, err := r.params.integer("export_type")
	if err != nil {
		return nil, err
	}
	p := chat.ExportRealmParams{}
	if typ != nil {
		if *typ < 1 || *typ > 2 {
			return nil, chat.InvalidArgument("export_type", "")
		}
		p.ExportType = int(*typ)
	}
	return h.svc.ExportRealm(r.ctx, r.actor, p)
}

func (h *Handler) getRealmExports(r *request) (any, error) {
	return h.svc.GetRealmExports(r.ctx, r.actor)
}

func (h *Handler) deleteRealmExport(r *request) (any, error) {
	return h.svc.DeleteRealmExport(r.ctx, r.actor, chat.DeleteRealmExportParams{ExportID: pathID[int64](r, "export_id")})
}

func (h *Handler) getRealmExportConsents(r *request) (any, error) {
	return h.svc.GetRealmExportConsents(r.ctx, r.actor)
}
