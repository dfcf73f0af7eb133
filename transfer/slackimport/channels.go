package slackimport

import (
	"fmt"
	"strings"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// readConversations reads channels.json, groups.json (private channels), mpims.json
// (multi-person DMs) and dms.json.
func (c *conversion) readConversations() error {
	var public, private []slackChannel
	if err := c.arch.readJSON("channels.json", &public); err != nil {
		return err
	}
	if err := c.arch.readOptional("groups.json", &private); err != nil {
		return err
	}
	if err := c.arch.readOptional("mpims.json", &c.mpims); err != nil {
		return err
	}
	if err := c.arch.readOptional("dms.json", &c.dms); err != nil {
		return err
	}
	c.private = map[string]bool{}
	for _, ch := range private {
		c.private[ch.Name] = true
	}
	c.channels = append(public, private...)
	seen := map[string]bool{}
	for _, ch := range append(c.channels, c.mpims...) {
		if ch.Name == "" || seen[ch.Name] {
			return fmt.Errorf("%w: conversation %q without a name or named twice", ErrInvalidExport, ch.ID)
		}
		seen[ch.Name] = true
	}
	c.dmMembers = map[string][2]string{}
	for _, dm := range c.dms {
		if len(dm.Members) == 0 || dm.ID == "" {
			continue
		}
		pair := [2]string{dm.Members[0], dm.Members[0]}
		if len(dm.Members) > 1 {
			pair[1] = dm.Members[1]
		}
		c.dmMembers[dm.ID] = pair
	}
	return nil
}

// convertConversations builds channels (public, then private), direct-message groups, the
// users' personal recipients, their subscriptions and the default channels.
func (c *conversion) convertConversations() {
	r := c.realm
	var recipientSeq, subSeq, streamSeq, defaultSeq, huddleSeq zulipdir.Seq
	c.recipientOf = map[string]int64{}
	c.text.channels = map[string]string{}
	subscribe := func(recipient int64, members []string) {
		done := map[int64]bool{}
		for _, m := range members {
			uid, ok := c.zulipID[m]
			if !ok || done[uid] {
				continue
			}
			done[uid] = true
			r.Subscription = append(r.Subscription, zulipdir.NewSubscription(subSeq.Next(), uid, recipient))
		}
	}
	for _, ch := range c.channels {
		id := streamSeq.Next()
		invite := c.private[ch.Name]
		r.Stream = append(r.Stream, zulipdir.Stream{
			ID: id, Realm: realmID, Name: zulipdir.Truncate(ch.Name, zulipdir.MaxChannelNameLength, ""),
			Description: zulipdir.Truncate(strings.ReplaceAll(ch.Purpose.Value, "\n", " "), zulipdir.MaxChannelDescriptionLength, ""),
			DateCreated: float64(ch.Created), Deactivated: ch.IsArchived, InviteOnly: invite,
			HistoryPublicToSubscribers: !invite, StreamPostPolicy: 1,
		})
		if (ch.Name == "general" || ch.Name == "random") && !ch.IsArchived {
			r.DefaultStream = append(r.DefaultStream, zulipdir.DefaultStream{ID: defaultSeq.Next(), Realm: realmID, Stream: id})
		}
		if ch.Name == "general" {
			sid := id
			r.Realm[0].NewStreamAnnouncementsStream = &sid
			r.Realm[0].ZulipUpdateAnnouncementsStream = &sid
		}
		rid := recipientSeq.Next()
		r.Recipient = append(r.Recipient, zulipdir.Recipient{ID: rid, Type: zulipdir.RecipientStream, TypeID: id})
		c.recipientOf[ch.Name] = rid
		c.text.channels[ch.ID] = ch.Name
		subscribe(rid, ch.Members)
	}
	for _, g := range c.mpims {
		id := huddleSeq.Next()
		r.Huddle = append(r.Huddle, zulipdir.Huddle{ID: id, GroupSize: len(g.Members)})
		rid := recipientSeq.Next()
		r.Recipient = append(r.Recipient, zulipdir.Recipient{ID: rid, Type: zulipdir.RecipientHuddle, TypeID: id})
		c.recipientOf[g.Name] = rid
		subscribe(rid, g.Members)
	}
	personal := map[int64]int64{}
	for _, u := range c.users {
		uid := c.zulipID[u.ID]
		if rid, ok := personal[uid]; ok {
			c.recipientOf[u.ID] = rid
			continue
		}
		rid := recipientSeq.Next()
		personal[uid] = rid
		c.recipientOf[u.ID] = rid
		r.Recipient = append(r.Recipient, zulipdir.Recipient{ID: rid, Type: zulipdir.RecipientPersonal, TypeID: uid})
		r.Subscription = append(r.Subscription, zulipdir.NewSubscription(subSeq.Next(), uid, rid))
	}
	c.subscribers = zulipdir.NewSubscriberMap(r.Subscription)
	c.stats.Channels = len(r.Stream)
	c.stats.DirectMessageGroups = len(r.Huddle)
}
