package transfer

import (
	"slices"
	"sort"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// The smaller per-organization and per-user tables of Zulip's export: linkifiers
// (zerver_realmfilter), code playgrounds (zerver_realmplayground), alert words
// (zerver_alertword), topic visibility (zerver_usertopic), muted users (zerver_muteduser) and
// statuses (zerver_userstatus).

type linkifierRecord struct {
	ID                      int64    `json:"id"`
	Pattern                 string   `json:"pattern"`
	URLTemplate             string   `json:"url_template"`
	ExampleInput            *string  `json:"example_input"`
	ReverseTemplate         *string  `json:"reverse_template"`
	AlternativeURLTemplates []string `json:"alternative_url_templates"`
	Order                   int      `json:"order"`
	Realm                   int64    `json:"realm"`
}

type playgroundRecord struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Language    string `json:"pygments_language"`
	URLTemplate string `json:"url_template"`
	Realm       int64  `json:"realm"`
}

type alertWordRecord struct {
	ID          int64  `json:"id"`
	UserProfile int64  `json:"user_profile"`
	Word        string `json:"word"`
	Realm       int64  `json:"realm"`
}

type userTopicRecord struct {
	ID          int64   `json:"id"`
	UserProfile int64   `json:"user_profile"`
	Stream      int64   `json:"stream"`
	Topic       string  `json:"topic_name"`
	Policy      int64   `json:"visibility_policy"`
	LastUpdated float64 `json:"last_updated"`
}

type mutedUserRecord struct {
	ID          int64   `json:"id"`
	UserProfile int64   `json:"user_profile"`
	MutedUser   int64   `json:"muted_user"`
	DateMuted   float64 `json:"date_muted"`
}

type userStatusRecord struct {
	ID           int64   `json:"id"`
	UserProfile  int64   `json:"user_profile"`
	StatusText   string  `json:"status_text"`
	EmojiName    string  `json:"emoji_name"`
	EmojiCode    string  `json:"emoji_code"`
	ReactionType string  `json:"reaction_type"`
	Timestamp    float64 `json:"timestamp"`
}

// extraTables are those tables as the export reads them.
type extraTables struct {
	linkifiers  []linkifiers.Linkifier
	playgrounds []linkifiers.Playground
	alertWords  map[users.ID][]string
	userTopics  []topics.UserTopic
	mutes       []users.MutedUser
	statuses    []users.Status
}

func (x *extraTables) read(tx storage.ReadTx, ids []users.ID) error {
	var err error
	if x.linkifiers, err = tx.Linkifiers().List(); err != nil {
		return err
	}
	if x.playgrounds, err = tx.Playgrounds().List(); err != nil {
		return err
	}
	if x.statuses, err = tx.UserStatuses().List(); err != nil {
		return err
	}
	if x.mutes, err = tx.MutedUsers().MutedBy(ids); err != nil {
		return err
	}
	x.alertWords = map[users.ID][]string{}
	for _, id := range ids {
		words, err := tx.AlertWords().Get(id)
		if err != nil {
			return err
		}
		if len(words) > 0 {
			x.alertWords[id] = words
		}
		ut, err := tx.UserTopics().ListForUser(id)
		if err != nil {
			return err
		}
		x.userTopics = append(x.userTopics, ut...)
	}
	return nil
}

// records adds the tables to realm.json's.
func (x *extraTables) records(tables map[string]any) {
	lk := []linkifierRecord{}
	for _, l := range x.linkifiers {
		lk = append(lk, linkifierRecord{ID: int64(l.ID), Pattern: l.Pattern, URLTemplate: l.URLTemplate, ExampleInput: l.ExampleInput,
			ReverseTemplate: l.ReverseTemplate, AlternativeURLTemplates: orEmpty(l.AlternativeURLTemplates), Order: l.Order, Realm: realmID})
	}
	pg := []playgroundRecord{}
	for _, p := range x.playgrounds {
		pg = append(pg, playgroundRecord{ID: int64(p.ID), Name: p.Name, Language: p.Language, URLTemplate: p.URLTemplate, Realm: realmID})
	}
	aw := []alertWordRecord{}
	owners := make([]users.ID, 0, len(x.alertWords))
	for u := range x.alertWords {
		owners = append(owners, u)
	}
	slices.Sort(owners)
	for _, u := range owners {
		for _, w := range x.alertWords[u] {
			aw = append(aw, alertWordRecord{ID: int64(len(aw) + 1), UserProfile: int64(u), Word: w, Realm: realmID})
		}
	}
	ut := []userTopicRecord{}
	for _, t := range x.userTopics {
		ut = append(ut, userTopicRecord{ID: int64(len(ut) + 1), UserProfile: int64(t.UserID), Stream: int64(t.ChannelID), Topic: t.Topic,
			Policy: int64(t.Policy), LastUpdated: seconds(t.LastUpdated)})
	}
	mu := []mutedUserRecord{}
	for _, m := range x.mutes {
		mu = append(mu, mutedUserRecord{ID: int64(len(mu) + 1), UserProfile: int64(m.UserID), MutedUser: int64(m.MutedUserID), DateMuted: seconds(m.DateMuted.Unix())})
	}
	st := []userStatusRecord{}
	for _, s := range x.statuses {
		st = append(st, userStatusRecord{ID: int64(len(st) + 1), UserProfile: int64(s.UserID), StatusText: s.StatusText, EmojiName: s.EmojiName,
			EmojiCode: s.EmojiCode, ReactionType: s.ReactionType, Timestamp: seconds(s.Timestamp.Unix())})
	}
	tables["zerver_realmfilter"], tables["zerver_realmplayground"], tables["zerver_alertword"] = lk, pg, aw
	tables["zerver_usertopic"], tables["zerver_muteduser"], tables["zerver_userstatus"] = ut, mu, st
}

// extraFile is what the import reads of those tables.
type extraFile struct {
	Linkifiers  []linkifierRecord  `json:"zerver_realmfilter"`
	Playgrounds []playgroundRecord `json:"zerver_realmplayground"`
	AlertWords  []alertWordRecord  `json:"zerver_alertword"`
	UserTopics  []userTopicRecord  `json:"zerver_usertopic"`
	Mutes       []mutedUserRecord  `json:"zerver_muteduser"`
	Statuses    []userStatusRecord `json:"zerver_userstatus"`
}

func (im *importer) importExtra() error {
	x := &im.rf.extraFile
	lk := slices.Clone(x.Linkifiers)
	sort.SliceStable(lk, func(i, j int) bool { return lk[i].Order < lk[j].Order })
	for _, l := range lk {
		if _, err := im.tx.Linkifiers().Create(linkifiers.Linkifier{Pattern: l.Pattern, URLTemplate: l.URLTemplate, ExampleInput: l.ExampleInput,
			ReverseTemplate: l.ReverseTemplate, AlternativeURLTemplates: l.AlternativeURLTemplates}); err != nil {
			return corrupt("realm.json", "linkifier %d: %v", l.ID, err)
		}
	}
	for _, p := range x.Playgrounds {
		if _, err := im.tx.Playgrounds().Create(linkifiers.Playground{Name: p.Name, Language: p.Language, URLTemplate: p.URLTemplate}); err != nil {
			return corrupt("realm.json", "playground %d: %v", p.ID, err)
		}
	}
	words := map[users.ID][]string{}
	var order []users.ID
	for _, w := range x.AlertWords {
		u, err := im.user("realm.json", w.UserProfile)
		if err != nil {
			return err
		}
		if _, ok := words[u]; !ok {
			order = append(order, u)
		}
		words[u] = append(words[u], w.Word)
	}
	for _, u := range order {
		if err := im.tx.AlertWords().Set(u, words[u]); err != nil {
			return err
		}
	}
	return im.importPersonal(x)
}

// importPersonal imports topic visibility, mutes and statuses.
func (im *importer) importPersonal(x *extraFile) error {
	for _, t := range x.UserTopics {
		u, err := im.user("realm.json", t.UserProfile)
		if err != nil {
			return err
		}
		c, ok := im.channels[t.Stream]
		if !ok {
			return corrupt("realm.json", "user topic %d: channel %d does not exist", t.ID, t.Stream)
		}
		if err := im.tx.UserTopics().Put(topics.UserTopic{UserID: u, ChannelID: channels.ID(c), Topic: t.Topic,
			Policy: topics.VisibilityPolicy(t.Policy), LastUpdated: int64(t.LastUpdated)}); err != nil {
			return err
		}
	}
	for _, m := range x.Mutes {
		u, err := im.user("realm.json", m.UserProfile)
		if err != nil {
			return err
		}
		muted, err := im.user("realm.json", m.MutedUser)
		if err != nil {
			return err
		}
		if err := im.tx.MutedUsers().Add(users.MutedUser{UserID: u, MutedUserID: muted, DateMuted: time.Unix(int64(m.DateMuted), 0).UTC()}); err != nil {
			return corrupt("realm.json", "muted user %d: %v", m.ID, err)
		}
	}
	for _, s := range x.Statuses {
		u, err := im.user("realm.json", s.UserProfile)
		if err != nil {
			return err
		}
		if err := im.tx.UserStatuses().Put(users.Status{UserID: u, StatusText: s.StatusText, EmojiName: s.EmojiName, EmojiCode: s.EmojiCode,
			ReactionType: s.ReactionType, Timestamp: time.Unix(int64(s.Timestamp), 0).UTC()}); err != nil {
			return err
		}
	}
	return nil
}
