package chat

import (
	"encoding/json"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// profileRenderer adds profile_data to user records when the client asked for it.
type profileRenderer struct {
	include bool
	values  map[users.ID]ProfileData
}

// profileRenderer prepares the custom profile data of every user when include is set.
func (s *Service) profileRenderer(tx storage.ReadTx, include bool) (*profileRenderer, error) {
	pr := &profileRenderer{include: include}
	if !include {
		return pr, nil
	}
	var err error
	pr.values, err = loadProfileData(tx)
	return pr, err
}

// record renders u for viewer, with profile_data for humans when requested.
func (pr *profileRenderer) record(realm realms.Realm, viewer, u users.User, o recordOptions) UserRecord {
	rec := userRecord(realm, viewer, u, o)
	if pr.include && !u.IsBot() {
		data := pr.values[u.ID]
		if data == nil {
			data = ProfileData{}
		}
		rec.ProfileData = &data
	}
	return rec
}

// loadProfileData reads every user's custom profile field values.
func loadProfileData(tx storage.ReadTx) (map[users.ID]ProfileData, error) {
	return map[users.ID]ProfileData{}, nil
}

// ProfileDataUpdate sets one custom profile field: Value is a JSON string, a JSON list of user
// ids (Users fields) or null (clears the value).
type ProfileDataUpdate struct {
	ID    int64           `json:"id"`
	Value json.RawMessage `json:"value"`
}

// setProfileData validates and stores custom profile values of target; asAdmin skips the
// editable_by_user restriction.
func (s *Service) setProfileData(tx storage.Tx, ev *events, actor, target users.User, data []ProfileDataUpdate, asAdmin bool) error {
	for _, d := range data {
		return badRequest("Field id %d not found.", d.ID)
	}
	return nil
}
