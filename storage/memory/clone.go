package memory

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// Clone returns a new Store holding a copy of s's committed data. The two are independent:
// a write to either leaves the other as it was. A test suite builds an organization once and
// clones it for each test (chattest does), which costs a copy instead of the operations that
// built it.
func (s *Store) Clone() (*Store, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, errClosed
	}
	return &Store{d: s.d.clone()}, nil
}

// clone copies every table of d. Records with reference fields are copied with their Clone
// methods, as on the way in and out of a transaction; caches start empty. TestCloneCopiesEveryField
// fails when a field of data is left out here.
func (d *data) clone() *data {
	var realm *realms.Realm
	if d.realm != nil {
		r := d.realm.Clone()
		realm = &r
	}
	return &data{
		realm: realm,

		users:       cloneMap(d.users, same),
		userSeq:     d.userSeq,
		userByEmail: cloneMap(d.userByEmail, same),
		userByKey:   cloneMap(d.userByKey, same),
		lastActive:  cloneMap(d.lastActive, same),

		groups:      cloneMap(d.groups, cloneGroup),
		groupSeq:    d.groupSeq,
		groupByName: cloneMap(d.groupByName, same),

		queues:       cloneMap(d.queues, cloneSavedQueue),
		drafts:       cloneMap(d.drafts, drafts.Draft.Clone),
		draftSeq:     d.draftSeq,
		draftSyncOff: cloneMap(d.draftSyncOff, same),
		snippets:     cloneMap(d.snippets, same),
		snippetSeq:   d.snippetSeq,
		navViews:     cloneMap(d.navViews, func(e navEntry) navEntry { e.view = e.view.Clone(); return e }),
		navSeq:       d.navSeq,

		linkifiers:    cloneMap(d.linkifiers, cloneLinkifier),
		linkifierSeq:  d.linkifierSeq,
		playgrounds:   cloneMap(d.playgrounds, same),
		playgroundSeq: d.playgroundSeq,

		invites:   cloneMap(d.invites, cloneInvite),
		inviteSeq: d.inviteSeq,

		channels:      cloneMap(d.channels, channels.Channel.Clone),
		channelSeq:    d.channelSeq,
		channelByName: cloneMap(d.channelByName, same),
		subsByUser:    cloneMap(d.subsByUser, cloneSet),
		subsByChannel: cloneMap(d.subsByChannel, func(m map[users.ID]channels.Subscription) map[users.ID]channels.Subscription {
			return cloneMap(m, channels.Subscription.Clone)
		}),
		subCounts: cloneMap(d.subCounts, same),

		msgs:       d.msgs.clone(),
		userTopics: cloneMap(d.userTopics, same),
		folders:    cloneMap(d.folders, same),
		folderSeq:  d.folderSeq,

		settings:     cloneMap(d.settings, users.Settings.Clone),
		emailChanges: cloneMap(d.emailChanges, same),

		profileFields:   cloneMap(d.profileFields, same),
		profileFieldSeq: d.profileFieldSeq,
		profileValues:   cloneMap(d.profileValues, same),

		alertWords:  cloneMap(d.alertWords, slices.Clone[[]string]),
		presence:    cloneMap(d.presence, same),
		presenceSeq: d.presenceSeq,
	}
}

func (m messageData) clone() messageData {
	return messageData{
		messages: cloneMap(m.messages, messages.Message.Clone),
		msgSeq:   m.msgSeq,
		rows:     cloneMap(m.rows, func(r map[users.ID]messages.Flags) map[users.ID]messages.Flags { return cloneMap(r, same) }),
	}
}

// cloneMap copies m, each value through clone.
func cloneMap[K comparable, V any](m map[K]V, clone func(V) V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = clone(v)
	}
	return out
}

func cloneSet[K comparable](m map[K]struct{}) map[K]struct{} { return cloneMap(m, same) }
