package conversations

import (
	"slices"
	"sync"

	"github.com/teamchat/chat/users"
)

// recordJSONCache keeps, for each channel, the JSON of the channel members of the last record
// written of it (ChannelRecord.appendFields), and writes that JSON again for a later record of
// the channel equal to it in every field (sameRecord): the key is the whole record, so what it
// writes is exactly what encoding the record would write, whatever changed in between (a
// rename, a subscriber joining, a message, another process's write). GET
// /users/me/subscriptions lists the same channels' records request after request; encoding
// them was about a sixth of its work. Records with subscriber lists or is_default are encoded
// as usual. Safe for concurrent use; it holds one entry per channel encoded.
type recordJSONCache struct {
	m sync.Map // channel id → *encodedChannel
}

// encodedChannel is a record (a deep copy, owned by the cache) and its members' JSON.
type encodedChannel struct {
	rec  ChannelRecord
	json []byte
}

// appendFields appends r.appendFields(b), from the cache when it holds an equal record. A
// nil cache encodes.
func (c *recordJSONCache) appendFields(b []byte, r *ChannelRecord) []byte {
	if c == nil || r.IsDefault != nil || r.Subscribers != nil || r.PartialSubscribers != nil {
		return r.appendFields(b)
	}
	if v, ok := c.m.Load(r.StreamID); ok {
		if e := v.(*encodedChannel); sameRecord(&e.rec, r) {
			return append(b, e.json...)
		}
	}
	start := len(b)
	b = r.appendFields(b)
	c.m.Store(r.StreamID, &encodedChannel{rec: cloneRecord(r), json: slices.Clone(b[start:])})
	return b
}

// sameRecord reports whether a and b hold the same values in every field (pointers compared
// by what they point at). TestSameRecordComparesEveryField changes each field in turn.
func sameRecord(a, b *ChannelRecord) bool {
	return a.StreamID == b.StreamID && a.Name == b.Name && a.Description == b.Description &&
		a.RenderedDescription == b.RenderedDescription && a.DateCreated == b.DateCreated &&
		samePtr(a.CreatorID, b.CreatorID) && a.InviteOnly == b.InviteOnly &&
		a.IsWebPublic == b.IsWebPublic && a.HistoryPublicToSubscribers == b.HistoryPublicToSubscribers &&
		samePtr(a.MessageRetentionDays, b.MessageRetentionDays) && samePtr(a.FirstMessageID, b.FirstMessageID) &&
		a.IsArchived == b.IsArchived && a.IsRecentlyActive == b.IsRecentlyActive &&
		samePtr(a.FolderID, b.FolderID) && a.TopicsPolicy == b.TopicsPolicy &&
		a.DefaultPushNotifications == b.DefaultPushNotifications &&
		a.StreamPostPolicy == b.StreamPostPolicy && a.IsAnnouncementOnly == b.IsAnnouncementOnly &&
		samePtr(a.StreamWeeklyTraffic, b.StreamWeeklyTraffic) && a.SubscriberCount == b.SubscriberCount &&
		sameGroupSettings(a, b) && samePtr(a.IsDefault, b.IsDefault) &&
		sameList(a.Subscribers, b.Subscribers) && sameList(a.PartialSubscribers, b.PartialSubscribers)
}

// sameGroupSettings compares the records' eleven can_*_group settings.
func sameGroupSettings(a, b *ChannelRecord) bool {
	return equalSetting(&a.CanAddSubscribersGroup, &b.CanAddSubscribersGroup) &&
		equalSetting(&a.CanAdministerChannelGroup, &b.CanAdministerChannelGroup) &&
		equalSetting(&a.CanCreateTopicGroup, &b.CanCreateTopicGroup) &&
		equalSetting(&a.CanDeleteAnyMessageGroup, &b.CanDeleteAnyMessageGroup) &&
		equalSetting(&a.CanDeleteOwnMessageGroup, &b.CanDeleteOwnMessageGroup) &&
		equalSetting(&a.CanMoveMessagesOutOfChannelGroup, &b.CanMoveMessagesOutOfChannelGroup) &&
		equalSetting(&a.CanMoveMessagesWithinChannelGroup, &b.CanMoveMessagesWithinChannelGroup) &&
		equalSetting(&a.CanRemoveSubscribersGroup, &b.CanRemoveSubscribersGroup) &&
		equalSetting(&a.CanResolveTopicsGroup, &b.CanResolveTopicsGroup) &&
		equalSetting(&a.CanSendMessageGroup, &b.CanSendMessageGroup) &&
		equalSetting(&a.CanSubscribeGroup, &b.CanSubscribeGroup)
}

// equalSetting compares two group settings; nil and empty lists are the same (both encode
// as []).
func equalSetting(a, b *users.GroupSetting) bool {
	if a.Group != b.Group || len(a.Members) != len(b.Members) || len(a.Subgroups) != len(b.Subgroups) {
		return false
	}
	return len(a.Members)+len(a.Subgroups) == 0 || slices.Equal(a.Members, b.Members) && slices.Equal(a.Subgroups, b.Subgroups)
}

func samePtr[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

func sameList(a, b *[]users.ID) bool {
	return a == b || a != nil && b != nil && slices.Equal(*a, *b) && (*a == nil) == (*b == nil)
}

// cloneRecord copies r deeply (pointers and lists), so that the cache's copy is its own.
func cloneRecord(r *ChannelRecord) ChannelRecord {
	c := *r
	c.CreatorID = clonePtr(r.CreatorID)
	c.MessageRetentionDays = clonePtr(r.MessageRetentionDays)
	c.FirstMessageID = clonePtr(r.FirstMessageID)
	c.FolderID = clonePtr(r.FolderID)
	c.StreamWeeklyTraffic = clonePtr(r.StreamWeeklyTraffic)
	c.IsDefault = clonePtr(r.IsDefault)
	c.Subscribers, c.PartialSubscribers = nil, nil // never cached (see appendFields)
	for _, s := range []*users.GroupSetting{&c.CanAddSubscribersGroup, &c.CanAdministerChannelGroup,
		&c.CanCreateTopicGroup, &c.CanDeleteAnyMessageGroup, &c.CanDeleteOwnMessageGroup,
		&c.CanMoveMessagesOutOfChannelGroup, &c.CanMoveMessagesWithinChannelGroup,
		&c.CanRemoveSubscribersGroup, &c.CanResolveTopicsGroup, &c.CanSendMessageGroup, &c.CanSubscribeGroup} {
		s.Members, s.Subgroups = slices.Clone(s.Members), slices.Clone(s.Subgroups)
	}
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
