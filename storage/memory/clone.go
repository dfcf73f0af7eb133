package memory

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/drafts"
	"github.com/teamchat/chat/messages"
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
	c := newData() // a table left out below stays empty in the clone (and the test fails)
	if d.realm != nil {
		r := d.realm.Clone()
		c.realm = &r
	}

	c.users = cloneMap(d.users, same)
	c.userSeq = d.userSeq
	c.userByEmail = cloneMap(d.userByEmail, same)
	c.userByKey = cloneMap(d.userByKey, same)
	c.lastActive = cloneMap(d.lastActive, same)

	c.groups = cloneMap(d.groups, cloneGroup)
	c.groupSeq = d.groupSeq
	c.groupByName = cloneMap(d.groupByName, same)

	c.queues = cloneMap(d.queues, cloneSavedQueue)
	c.liveOwners = cloneMap(d.liveOwners, same)
	c.drafts = cloneMap(d.drafts, drafts.Draft.Clone)
	c.draftSeq = d.draftSeq
	c.draftSyncOff = cloneMap(d.draftSyncOff, same)
	c.snippets = cloneMap(d.snippets, same)
	c.snippetSeq = d.snippetSeq
	c.navViews = cloneMap(d.navViews, func(e navEntry) navEntry { e.view = e.view.Clone(); return e })
	c.navSeq = d.navSeq

	c.linkifiers = cloneMap(d.linkifiers, cloneLinkifier)
	c.linkifierSeq = d.linkifierSeq
	c.playgrounds = cloneMap(d.playgrounds, same)
	c.playgroundSeq = d.playgroundSeq

	c.invites = cloneMap(d.invites, cloneInvite)
	c.inviteSeq = d.inviteSeq

	c.channels = cloneMap(d.channels, channels.Channel.Clone)
	c.channelSeq = d.channelSeq
	c.channelByName = cloneMap(d.channelByName, same)
	c.subsByUser = cloneMap(d.subsByUser, cloneSet)
	c.subsByChannel = cloneMap(d.subsByChannel, func(m map[users.ID]channels.Subscription) map[users.ID]channels.Subscription {
		return cloneMap(m, channels.Subscription.Clone)
	})
	c.subCounts = cloneMap(d.subCounts, same)
	c.channelEmails = cloneMap(d.channelEmails, same)
	c.channelEmailSeq = d.channelEmailSeq

	c.msgs = d.msgs.clone()
	c.userTopics = cloneMap(d.userTopics, same)
	c.folders = cloneMap(d.folders, same)
	c.folderSeq = d.folderSeq

	c.settings = cloneMap(d.settings, users.Settings.Clone)
	c.settingsTrue = cloneMap(d.settingsTrue, func(m map[users.ID]bool) map[users.ID]bool { return cloneMap(m, same) })
	c.emailChanges = cloneMap(d.emailChanges, same)

	c.profileFields = cloneMap(d.profileFields, same)
	c.profileFieldSeq = d.profileFieldSeq
	c.profileValues = cloneMap(d.profileValues, same)

	c.alertWords = cloneMap(d.alertWords, slices.Clone[[]string])
	c.onboarding = cloneMap(d.onboarding, slices.Clone[[]string])
	c.presence = cloneMap(d.presence, same)
	c.presenceSeq = d.presenceSeq

	c.emoji = cloneMap(d.emoji, same)
	c.emojiSeq = d.emojiSeq
	c.scheduled = cloneMap(d.scheduled, messages.Scheduled.Clone)
	c.scheduledSeq = d.scheduledSeq

	c.statuses = cloneMap(d.statuses, same)
	c.mutes = cloneMap(d.mutes, same)
	c.attach = d.attach.clone()
	c.botConfigs = cloneMap(d.botConfigs, cloneBotConfig)
	c.botStorage = cloneMap(d.botStorage, same)
	c.serviceJobs = cloneMap(d.serviceJobs, same)
	c.serviceJobSeq = d.serviceJobSeq
	c.pendingEmails = cloneMap(d.pendingEmails, same)
	c.pendingEmailSeq = d.pendingEmailSeq
	c.digestDays = cloneMap(d.digestDays, same)
	c.archives = cloneMap(d.archives, cloneArchive)
	c.archiveSeq = d.archiveSeq
	c.devices = cloneMap(d.devices, same)
	c.deviceSeq = d.deviceSeq
	c.sessions = cloneMap(d.sessions, same)
	c.exports = cloneMap(d.exports, same)
	c.exportSeq = d.exportSeq
	return c
}

func (m messageData) clone() messageData {
	c := newMessageData()
	c.messages = cloneMap(m.messages, messages.Message.Clone)
	c.msgSeq = m.msgSeq
	c.rows = cloneMap(m.rows, func(r map[users.ID]messages.Flags) map[users.ID]messages.Flags { return cloneMap(r, same) })
	c.reactions = cloneMap(m.reactions, slices.Clone[[]messages.Reaction])
	c.byChannel = cloneMap(m.byChannel, (*channelIndex).clone)
	c.idx = m.idx.clone()
	c.recv = m.recv.clone()
	c.search = searchIndex{
		docs: cloneMap(m.search.docs, func(d messages.SearchDoc) messages.SearchDoc {
			return messages.SearchDoc{Topic: slices.Clone(d.Topic), Content: slices.Clone(d.Content)}
		}),
		postings: cloneMap(m.search.postings, cloneSet[messages.ID]),
	}
	return c
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
