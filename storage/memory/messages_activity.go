package memory

import (
	"slices"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

func (a messageTx) TopicMessageIDs(c channels.ID, topic string, limit int) ([]messages.ID, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var ids []messages.ID
	all := a.channelIDs(c)
	for i := len(all) - 1; i >= 0 && (limit <= 0 || len(ids) < limit); i-- {
		if topics.Same(a.md().messages[all[i]].Topic, topic) {
			ids = append(ids, all[i])
		}
	}
	return ids, nil
}

func (a messageTx) Topics(c channels.ID, user users.ID, fullHistory bool) ([]storage.TopicSummary, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	ids := a.channelIDs(c)
	seen := map[string]bool{}
	out := []storage.TopicSummary{}
	for i := len(ids) - 1; i >= 0; i-- {
		m := a.md().messages[ids[i]]
		if _, received := a.rowOf(user, m); !fullHistory && !received {
			continue
		}
		if k := topics.Key(m.Topic); !seen[k] {
			seen[k] = true
			out = append(out, storage.TopicSummary{Name: m.Topic, MaxID: m.ID})
		}
	}
	return out, nil
}

func (a messageTx) Activity(ids []channels.ID, since, until int64) ([]storage.ChannelActivity, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return a.activity(ids, since, until, true), nil
}

// AppendActivity appends what Activity returns to dst, a buffer of the caller's (GET
// /users/me/subscriptions reuses one).
func (a messageTx) AppendActivity(dst []storage.ChannelActivity, ids []channels.ID, since, until int64) ([]storage.ChannelActivity, error) {
	if err := a.t.live(); err != nil {
		return dst, err
	}
	return a.appendActivity(dst, ids, since, until, true), nil
}

func (a messageTx) Bounds(ids []channels.ID) ([]storage.ChannelActivity, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	return a.activity(ids, 0, 0, false), nil
}

// activity reads the channels' activity from their indexes (counting the window's messages
// when count is set).
func (a messageTx) activity(ids []channels.ID, since, until int64, count bool) []storage.ChannelActivity {
	return a.appendActivity(nil, ids, since, until, count)
}

// appendActivity appends activity's entries to dst.
func (a messageTx) appendActivity(dst []storage.ChannelActivity, ids []channels.ID, since, until int64, count bool) []storage.ChannelActivity {
	ids = sortedSet(ids)
	start := len(dst)
	dst = slices.Grow(dst, len(ids))[:start+len(ids)]
	out := dst[start:]
	clear(out)
	for i, c := range ids {
		out[i].ChannelID = c
		x := a.md().byChannel[c]
		if x == nil || len(x.ids) == 0 {
			continue
		}
		out[i].FirstMessageID = x.ids[0]
		out[i].LastTimestamp = x.times[len(x.times)-1].ts
		if count {
			out[i].RecentCount = x.countBetween(since, until)
		}
	}
	return dst
}

func (a messageTx) Reactions(ids []messages.ID) ([]messages.Reaction, error) {
	if err := a.t.live(); err != nil {
		return nil, err
	}
	var out []messages.Reaction
	for _, id := range sortedSet(ids) {
		out = append(out, a.md().reactions[id]...)
	}
	return out, nil
}

func (a messageTx) AddReaction(r messages.Reaction) error {
	if err := a.t.live(); err != nil {
		return err
	}
	if _, ok := a.md().messages[r.MessageID]; !ok {
		return notFound("message", r.MessageID)
	}
	old := a.md().reactions[r.MessageID]
	for _, o := range old {
		if o.UserID == r.UserID && o.SameEmoji(r) {
			return conflict("reaction")
		}
	}
	setKey(a.j, a.md().reactions, r.MessageID, append(slices.Clip(old), r))
	return nil
}

func (a messageTx) RemoveReaction(r messages.Reaction) error {
	if err := a.t.live(); err != nil {
		return err
	}
	old := a.md().reactions[r.MessageID]
	i := slices.IndexFunc(old, func(o messages.Reaction) bool { return o.UserID == r.UserID && o.SameEmoji(r) })
	if i < 0 {
		return notFound("reaction", r)
	}
	setKey(a.j, a.md().reactions, r.MessageID, slices.Delete(slices.Clone(old), i, i+1))
	return nil
}
