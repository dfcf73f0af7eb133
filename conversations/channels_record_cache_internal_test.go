package conversations

import (
	"reflect"
	"testing"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/users"
)

// fullRecord is a record with every field set.
func fullRecord() ChannelRecord {
	creator, days, first, traffic, def := users.ID(3), 30, int64(9), 14, true
	folder := channels.FolderID(2)
	subs := []users.ID{1, 2}
	r := ChannelRecord{
		StreamID: 7, Name: "Verona", Description: "d", RenderedDescription: "<p>d</p>", DateCreated: 100,
		CreatorID: &creator, InviteOnly: true, IsWebPublic: true, HistoryPublicToSubscribers: true,
		MessageRetentionDays: &days, FirstMessageID: &first, IsArchived: true, IsRecentlyActive: true,
		TopicsPolicy: "inherit", DefaultPushNotifications: true, StreamPostPolicy: 2, IsAnnouncementOnly: true, StreamWeeklyTraffic: &traffic,
		SubscriberCount: 5, IsDefault: &def, Subscribers: &subs, PartialSubscribers: &subs,
	}
	r.FolderID = &folder
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		if s, ok := v.Field(i).Addr().Interface().(*users.GroupSetting); ok {
			*s = users.GroupSetting{Members: []users.ID{4, 5}, Subgroups: []users.GroupID{6}}
			if i%2 == 0 {
				*s = users.Named(users.GroupID(i + 1))
			}
		}
	}
	return r
}

// TestSameRecordComparesEveryField changes each field of a record in turn (a field added to
// ChannelRecord is changed too): sameRecord must tell every change apart, or the cache would
// write a stale record's JSON.
func TestSameRecordComparesEveryField(t *testing.T) {
	t.Parallel()
	base := fullRecord()
	if !sameRecord(&base, &base) {
		t.Fatal("a record differs from itself")
	}
	typ := reflect.TypeFor[ChannelRecord]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		for _, change := range changesOf(reflect.ValueOf(base).Field(i)) {
			r := cloneRecord(&base)
			r.Subscribers, r.PartialSubscribers = base.Subscribers, base.PartialSubscribers
			change(reflect.ValueOf(&r).Elem().Field(i))
			if sameRecord(&base, &r) || sameRecord(&r, &base) {
				t.Errorf("field %s: a changed record compares the same", f.Name)
			}
		}
	}
}

// changesOf lists ways to change a value like v (each sets the field it is given).
func changesOf(v reflect.Value) []func(reflect.Value) {
	switch v.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		return []func(reflect.Value){func(f reflect.Value) { f.SetInt(v.Int() + 1) }}
	case reflect.String:
		return []func(reflect.Value){func(f reflect.Value) { f.SetString(v.String() + "x") }}
	case reflect.Bool:
		return []func(reflect.Value){func(f reflect.Value) { f.SetBool(!v.Bool()) }}
	case reflect.Pointer:
		out := []func(reflect.Value){func(f reflect.Value) { f.SetZero() }}
		for _, change := range changesOf(v.Elem()) {
			out = append(out, func(f reflect.Value) {
				p := reflect.New(v.Type().Elem())
				p.Elem().Set(v.Elem())
				change(p.Elem())
				f.Set(p)
			})
		}
		return out
	case reflect.Slice:
		out := []func(reflect.Value){func(f reflect.Value) { f.Set(reflect.Append(v, reflect.Zero(v.Type().Elem()))) }}
		if v.Len() > 0 {
			out = append(out, func(f reflect.Value) { f.Set(v.Slice(0, v.Len()-1)) })
		}
		return out
	case reflect.Struct:
		var out []func(reflect.Value)
		for i := range v.NumField() {
			for _, change := range changesOf(v.Field(i)) {
				out = append(out, func(f reflect.Value) { change(f.Field(i)) })
			}
		}
		return out
	}
	panic("changesOf: unexpected kind " + v.Kind().String())
}

// TestRecordJSONCacheWritesWhatEncodingWrites: records written through the cache, unchanged,
// changed and changed back, with and without subscriber lists, come out as encoding writes
// them.
func TestRecordJSONCacheWritesWhatEncodingWrites(t *testing.T) {
	t.Parallel()
	var c recordJSONCache
	base := fullRecord()
	base.IsDefault, base.Subscribers, base.PartialSubscribers = nil, nil, nil
	renamed := cloneRecord(&base)
	renamed.Name = "Venice"
	fewer := cloneRecord(&base)
	fewer.SubscriberCount--
	member := cloneRecord(&base)
	member.CanAdministerChannelGroup = users.GroupSetting{Members: []users.ID{4}}
	withSubs := fullRecord()
	for i, r := range []ChannelRecord{base, base, renamed, base, fewer, fewer, member, base, withSubs, base} {
		got := string(c.appendFields(nil, &r))
		if want := string(r.appendFields(nil)); got != want {
			t.Errorf("record %d: cache wrote\n%s\nwant\n%s", i, got, want)
		}
	}
	// A record changed in place after it was cached does not change the cache's copy.
	r := cloneRecord(&base)
	r.CanAdministerChannelGroup = users.GroupSetting{Members: []users.ID{4, 5}, Subgroups: []users.GroupID{}}
	c.appendFields(nil, &r)
	r.CanAdministerChannelGroup.Members[0] = 99
	*r.CreatorID = 98
	if got, want := string(c.appendFields(nil, &r)), string(r.appendFields(nil)); got != want {
		t.Errorf("after an in-place change: cache wrote\n%s\nwant\n%s", got, want)
	}
}
