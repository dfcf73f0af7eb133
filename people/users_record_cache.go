package people

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"sync"

	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// The user records of register (realm_users and realm_non_active_users: one record per user
// of the organization) are the largest part of its state. A Service keeps the records it
// built last, and their JSON, and reuses them while the users are the same.
//
// Exactness. The cache holds the user list it was built from (the world's, which nothing
// modifies); a registration reuses it only when the list its own transaction read is that
// list or equals it, user by user, and the organization's email domain (placeholder emails) is the
// same. Apart from the viewer's own record, a record is a function of the user, the host,
// the viewer's role and client_gravatar; so equal inputs give equal records whichever
// mutation, in whichever process, changed the users, and there is nothing to invalidate. The
// viewer's own record and the profile data are rendered for each registration. The encoder
// (AppendRegisterJSON) uses a kept encoding only for a record equal to the kept record it
// encodes.

// userRecordCache holds the records of the last user list that register rendered.
type userRecordCache struct {
	mu  sync.Mutex
	set *userRecordSet
}

// userRecordSet is the records of one user list, by viewer role and client_gravatar.
type userRecordSet struct {
	list []users.User // the users, ascending by id (shared, never modified)
	host string

	mu       sync.Mutex
	variants map[recordVariantKey]*recordVariant
}

type recordVariantKey struct {
	role           users.Role
	clientGravatar bool
}

// recordVariant is every user's record as a viewer of one role, who is none of them, sees
// it (omitIsActive: register's form), split by activity. Its records and their encodings
// are never modified; pointer fields of the records point at values shared by every copy.
type recordVariant struct {
	active, inactive []UserRecord

	once                     sync.Once
	activeJSON, inactiveJSON encodedRecords
	encErr                   error
}

// encodedRecords are the JSON objects of a list of records without their closing braces
// (profile_data, the last key, is added per registration).
type encodedRecords struct {
	buf  []byte
	ends []int // record i is buf[ends[i-1]:ends[i]]
}

func (e *encodedRecords) record(i int) []byte {
	start := 0
	if i > 0 {
		start = e.ends[i-1]
	}
	return e.buf[start:e.ends[i]]
}

// variant returns the records of all (the transaction's users, ascending by id, never to be
// modified: the cache may keep the list) for a viewer with role, building them when the kept
// ones are of another list.
func (c *userRecordCache) variant(domain string, all []users.User, role users.Role, clientGravatar bool) *recordVariant {
	host := domain
	c.mu.Lock()
	set := c.set
	c.mu.Unlock()
	if set == nil || set.host != host || !sameUsers(set.list, all) {
		set = &userRecordSet{list: all, host: host, variants: map[recordVariantKey]*recordVariant{}}
		c.mu.Lock()
		c.set = set
		c.mu.Unlock()
	}
	key := recordVariantKey{role: role, clientGravatar: clientGravatar}
	set.mu.Lock()
	defer set.mu.Unlock()
	v := set.variants[key]
	if v == nil {
		v = newRecordVariant(domain, set.list, users.User{Role: role}, recordOptions{clientGravatar: clientGravatar, omitIsActive: true})
		set.variants[key] = v
	}
	return v
}

// sameUsers reports whether two user lists are equal: the same list (the store's shared one)
// or equal user by user.
func sameUsers(a, b []users.User) bool {
	return sameArray(a, b) || slices.Equal(a, b)
}

func newRecordVariant(domain string, all []users.User, viewer users.User, o recordOptions) *recordVariant {
	v := &recordVariant{active: make([]UserRecord, 0, len(all)), inactive: []UserRecord{}}
	for _, u := range all {
		rec := userRecord(domain, viewer, u, o)
		if u.IsActive {
			v.active = append(v.active, rec)
		} else {
			v.inactive = append(v.inactive, rec)
		}
	}
	return v
}

// encoded returns the variant's encodings, built on first use.
func (v *recordVariant) encoded() (active, inactive *encodedRecords, err error) {
	v.once.Do(func() {
		if v.encErr = v.activeJSON.encode(v.active); v.encErr == nil {
			v.encErr = v.inactiveJSON.encode(v.inactive)
		}
	})
	if v.encErr != nil {
		return nil, nil, v.encErr
	}
	return &v.activeJSON, &v.inactiveJSON, nil
}

func (e *encodedRecords) encode(recs []UserRecord) error {
	e.ends = make([]int, len(recs))
	for i, rec := range recs {
		b, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		e.buf = append(e.buf, b[:len(b)-1]...)
		e.ends[i] = len(e.buf)
	}
	return nil
}

// cloneRecords returns a copy of recs that the caller owns (never nil).
func cloneRecords(recs []UserRecord) []UserRecord {
	out := make([]UserRecord, len(recs))
	copy(out, recs)
	return out
}

// setRecord replaces the record of rec.UserID in recs (ascending by user id), if there is one.
func setRecord(recs []UserRecord, rec UserRecord) {
	if i, ok := slices.BinarySearchFunc(recs, rec.UserID, func(r UserRecord, id users.ID) int {
		return cmp.Compare(r.UserID, id)
	}); ok {
		recs[i] = rec
	}
}

// addProfileData sets the profile_data of the human users' records: their custom profile
// field values, or one shared empty map.
func addProfileData(tx storage.ReadTx, lists ...[]UserRecord) error {
	values, err := loadProfileData(tx.ProfileFields())
	if err != nil {
		return err
	}
	none := &ProfileData{}
	for _, recs := range lists {
		for i := range recs {
			if recs[i].IsBot {
				continue
			}
			if data, ok := values[recs[i].UserID]; ok && data != nil {
				recs[i].ProfileData = &data
			} else {
				recs[i].ProfileData = none
			}
		}
	}
	return nil
}

// matching returns the variant of the kept set whose records recs are a copy of (the viewer's
// own record excepted), or nil.
func (c *userRecordCache) matching(recs []UserRecord, active bool) *recordVariant {
	c.mu.Lock()
	set := c.set
	c.mu.Unlock()
	if set == nil || len(recs) == 0 {
		return nil
	}
	set.mu.Lock()
	defer set.mu.Unlock()
	for _, v := range set.variants {
		kept := v.inactive
		if active {
			kept = v.active
		}
		if len(kept) != len(recs) {
			continue
		}
		// One of the first two records is not the viewer's.
		for k := range min(2, len(recs)) {
			r := recs[k]
			r.ProfileData = nil
			if r == kept[k] {
				return v
			}
		}
	}
	return nil
}

// keyIndex is the index of the first key (at or after from) of body that reads key.
func keyIndex(body []byte, key string, from int) int {
	for from >= 0 && from < len(body) {
		i := bytes.Index(body[from:], []byte(key))
		if i < 0 {
			return -1
		}
		i += from
		if i > 0 && (body[i-1] == ',' || body[i-1] == '{') {
			return i
		}
		from = i + 1
	}
	return -1
}

// keptRecords are the kept records (and their encodings) that a list of records copies.
type keptRecords struct {
	recs []UserRecord
	enc  *encodedRecords
}

// keptEncoding returns the kept records of which recs is a copy (none when it is not one).
func (s *Service) keptEncoding(recs []UserRecord, active bool) (keptRecords, error) {
	v := s.userRecords.matching(recs, active)
	if v == nil {
		return keptRecords{}, nil
	}
	a, na, err := v.encoded()
	if err != nil {
		return keptRecords{}, err
	}
	if active {
		return keptRecords{recs: v.active, enc: a}, nil
	}
	return keptRecords{recs: v.inactive, enc: na}, nil
}

// size estimates the length of the records' JSON array.
func (k keptRecords) size() int {
	if k.enc == nil {
		return 0
	}
	return len(k.enc.buf) + len(k.recs)*len(`,"profile_data":{}},`) + 2
}

// appendRecords appends the JSON array of recs, with the kept encodings of the records
// equal to kept ones.
func (k keptRecords) appendRecords(b []byte, recs []UserRecord) ([]byte, error) {
	if recs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, rec := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		pd := rec.ProfileData
		rec.ProfileData = nil
		if k.enc == nil || rec != k.recs[i] {
			rec.ProfileData = pd
			one, err := json.Marshal(rec)
			if err != nil {
				return nil, err
			}
			b = append(b, one...)
			continue
		}
		b = append(b, k.enc.record(i)...)
		switch {
		case pd == nil:
		case len(*pd) == 0 && *pd != nil:
			b = append(b, `,"profile_data":{}`...)
		default:
			data, err := json.Marshal(*pd)
			if err != nil {
				return nil, err
			}
			b = append(b, `,"profile_data":`...)
			b = append(b, data...)
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// RealmUserState lists the users for viewer. Spectators see active users only, with hidden
// emails. The records come from the Service's cache (the viewer's own record and profile data excepted).
func (s *Service) RealmUserState(tx storage.ReadTx, w *world.World, viewer users.User, clientGravatar bool) (*RealmUserState, error) {
	realm, all := w.Org(), w.AllUsers()
	if w.Failed() {
		return nil, w.Err()
	}
	opts := recordOptions{clientGravatar: clientGravatar, omitIsActive: true}
	v := s.userRecords.variant(s.EmailDomain(realm), all, viewer.Role, clientGravatar)
	st := &RealmUserState{RealmUsers: cloneRecords(v.active), RealmNonActiveUsers: []UserRecord{}, CrossRealmBots: []UserRecord{}}
	if viewer.ID != 0 {
		st.RealmNonActiveUsers = cloneRecords(v.inactive)
		if i, ok := slices.BinarySearchFunc(all, viewer.ID, world.ByUserID); ok {
			self := userRecord(s.EmailDomain(realm), viewer, all[i], opts)
			setRecord(st.RealmUsers, self)
			setRecord(st.RealmNonActiveUsers, self)
		}
		// Authenticated users get the custom profile data of every human user.
		if err := addProfileData(tx, st.RealmUsers, st.RealmNonActiveUsers); err != nil {
			return nil, err
		}
	}
	if viewer.ID == 0 {
		return st, nil
	}
	for _, b := range world.SystemBots() {
		bot := userRecord(s.EmailDomain(realm), viewer, b, recordOptions{})
		bot.IsSystemBot = true
		st.CrossRealmBots = append(st.CrossRealmBots, bot)
	}
	m := w.Membership()
	st.AvatarSource = viewer.AvatarSource
	st.AvatarURL = AvatarURL(viewer)
	st.AvatarURLMedium = AvatarMediumURL(viewer)
	st.CanCreatePublicStreams = m.Allows(realm.CanCreatePublicChannelGroup, viewer.ID)
	st.CanCreatePrivateStreams = m.Allows(realm.CanCreatePrivateChannelGroup, viewer.ID)
	st.CanCreateStreams = st.CanCreatePublicStreams || st.CanCreatePrivateStreams
	st.CanCreateWebPublicStreams = m.Allows(realm.CanCreateWebPublicChannelGroup, viewer.ID)
	st.CanSubscribeOtherUsers = m.Allows(realm.CanAddSubscribersGroup, viewer.ID)
	st.CanInviteOthersToRealm = m.Allows(realm.CanInviteUsersGroup, viewer.ID)
	st.IsAdmin = viewer.Role.IsAdmin()
	st.IsOwner = viewer.Role == users.RoleOwner
	st.IsModerator = viewer.Role == users.RoleModerator
	st.IsGuest = viewer.Role == users.RoleGuest
	st.UserID = viewer.ID
	st.Email = w.APIEmail(viewer)
	st.DeliveryEmail = viewer.Email
	st.FullName = viewer.FullName
	return st, nil
}

// AppendWithUserRecords appends body, register's JSON with null realm_users and
// realm_non_active_users, to b with the records of st in their place, written from the
// encodings this Service keeps; marshal encodes the whole answer when body lacks the keys.
func (s *Service) AppendWithUserRecords(b, body []byte, st *RealmUserState, marshal func() ([]byte, error)) ([]byte, error) {
	// Both keys are written, realm_users first; a key follows '{' or ',' (inside a string,
	// a quote follows a backslash).
	const usersKey, nonActiveKey = `"realm_users":null`, `"realm_non_active_users":null`
	at := keyIndex(body, usersKey, 0)
	at2 := keyIndex(body, nonActiveKey, at+1)
	if at < 0 || at2 < 0 {
		body, err := marshal() // (never: the keys are the struct's)
		return append(b, body...), err
	}
	active, err := s.keptEncoding(st.RealmUsers, true)
	if err != nil {
		return nil, err
	}
	inactive, err := s.keptEncoding(st.RealmNonActiveUsers, false)
	if err != nil {
		return nil, err
	}
	b = slices.Grow(b, len(body)+active.size()+inactive.size())
	b = append(b, body[:at]...)
	b = append(b, `"realm_users":`...)
	if b, err = active.appendRecords(b, st.RealmUsers); err != nil {
		return nil, err
	}
	b = append(b, body[at+len(usersKey):at2]...)
	b = append(b, `"realm_non_active_users":`...)
	if b, err = inactive.appendRecords(b, st.RealmNonActiveUsers); err != nil {
		return nil, err
	}
	return append(b, body[at2+len(nonActiveKey):]...), nil
}

// RealmUserState is register's "realm_user" section: the users the viewer can see and the
// viewer's own account.
type RealmUserState struct {
	RealmUsers          []UserRecord `json:"realm_users"`
	RealmNonActiveUsers []UserRecord `json:"realm_non_active_users"`
	CrossRealmBots      []UserRecord `json:"cross_realm_bots"`

	AvatarSource              string   `json:"avatar_source"`
	AvatarURL                 string   `json:"avatar_url"`
	AvatarURLMedium           string   `json:"avatar_url_medium"`
	CanCreatePrivateStreams   bool     `json:"can_create_private_streams"`
	CanCreatePublicStreams    bool     `json:"can_create_public_streams"`
	CanCreateStreams          bool     `json:"can_create_streams"`
	CanCreateWebPublicStreams bool     `json:"can_create_web_public_streams"`
	CanSubscribeOtherUsers    bool     `json:"can_subscribe_other_users"`
	CanInviteOthersToRealm    bool     `json:"can_invite_others_to_realm"`
	IsAdmin                   bool     `json:"is_admin"`
	IsOwner                   bool     `json:"is_owner"`
	IsModerator               bool     `json:"is_moderator"`
	IsGuest                   bool     `json:"is_guest"`
	UserID                    users.ID `json:"user_id"`
	Email                     string   `json:"email"`
	DeliveryEmail             string   `json:"delivery_email"`
	FullName                  string   `json:"full_name"`
}
