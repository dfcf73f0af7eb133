package chat

import (
	"context"

	"github.com/teamchat/chat/channels"
)

// UpdateRealmParams are the organization settings of PATCH /realm this server supports; nil
// fields are left alone.
type UpdateRealmParams struct {
	// NewStreamAnnouncementsStreamID is the channel where the notification bot announces new
	// channels (POST /users/me/subscriptions with announce); -1 (any negative value) turns the
	// announcements off.
	NewStreamAnnouncementsStreamID *int64
	// Message editing and moving (see RealmEditingParams).
	RealmEditingParams
}

// UpdateRealmResult echoes the settings that changed, as Zulip's response does.
type UpdateRealmResult struct {
	NewStreamAnnouncementsStreamID *int64 `json:"new_stream_announcements_stream_id,omitempty"`
	RealmEditingResult
}

// RealmUpdateEvent is a realm update event: one organization setting changed.
type RealmUpdateEvent struct {
	Type     string `json:"type"`
	Op       string `json:"op"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}

// UpdateRealm changes organization settings (administrators only). A changed setting sends
// realm update to every active user.
func (s *Service) UpdateRealm(ctx context.Context, actor Actor, p UpdateRealmParams) (UpdateRealmResult, error) {
	var res UpdateRealmResult
	err := s.mutate(ctx, actor, admins, func(o *writeOp) error {
		res = UpdateRealmResult{}
		tx, ev, me, w := o.tx, o.ev, o.me, o.world()
		realm := w.org()
		if p.NewStreamAnnouncementsStreamID != nil {
			id := max(*p.NewStreamAnnouncementsStreamID, -1)
			if id >= 0 {
				if _, err := channelRef(w, me, channels.ID(id)); err != nil {
					return err
				}
			}
			if id != announcementsID(realm) {
				realm.NewStreamAnnouncementsStreamID = max(id, 0)
				res.NewStreamAnnouncementsStreamID = &id
				ev.add("realm", RealmUpdateEvent{Type: "realm", Op: "update", Property: "new_stream_announcements_stream_id", Value: id}, w.activeIDs())
			}
		}
		changed := res.NewStreamAnnouncementsStreamID != nil
		if edited, err := w.applyEditingSettings(ev, &realm, p.RealmEditingParams, &res.RealmEditingResult); err != nil {
			return err
		} else if !edited && !changed {
			return nil
		}
		return tx.Realm().Put(realm)
	})
	if err != nil {
		return UpdateRealmResult{}, err
	}
	return res, nil
}
