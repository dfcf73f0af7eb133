package chat_test

import (
	"slices"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/users"
)

// channelsConsistencyCases are the consistency cases of the channels area.
func channelsConsistencyCases() []consistencyCase {
	general := func(t *testing.T, f *fixture) {
		mustDo(t, "CreateChannel", errOf(f.svc.CreateChannel(t.Context(), f.actor("owner"), chat.CreateChannelParams{
			Name: "general", Subscribers: []users.ID{f.ids["owner"]},
		})))
	}
	secret := func(t *testing.T, f *fixture) {
		mustDo(t, "CreateChannel", errOf(f.svc.CreateChannel(t.Context(), f.actor("admin"), chat.CreateChannelParams{
			Name: "secret", Subscribers: []users.ID{f.ids["admin"], f.ids["member"], f.ids["guest"]},
			NewChannelSettings: chat.NewChannelSettings{InviteOnly: true},
		})))
	}
	cases := []consistencyCase{
		{method: "CreateChannel", name: "public with subscribers", run: func(t *testing.T, f *fixture) {
			mustDo(t, "CreateChannel", errOf(f.svc.CreateChannel(t.Context(), f.actor("member"), chat.CreateChannelParams{
				Name: "design", Description: "All about **design**", Subscribers: []users.ID{f.ids["member"], f.ids["admin"]},
			})))
		}},
		{method: "CreateChannel", name: "private", run: func(t *testing.T, f *fixture) {
			mustDo(t, "CreateChannel", errOf(f.svc.CreateChannel(t.Context(), f.actor("admin"), chat.CreateChannelParams{
				Name: "secret", Subscribers: []users.ID{f.ids["admin"], f.ids["member"]},
				NewChannelSettings: chat.NewChannelSettings{InviteOnly: true},
			})))
		}},
		{method: "Subscribe", name: "self to a new channel", run: func(t *testing.T, f *fixture) {
			mustDo(t, "Subscribe", errOf(f.svc.Subscribe(t.Context(), f.actor("member"), chat.SubscribeParams{
				Subscriptions: []chat.SubscriptionRequest{{Name: "fresh"}},
			})))
		}},
		{method: "Subscribe", name: "others to a new channel with default_push_notifications", run: func(t *testing.T, f *fixture) {
			mustDo(t, "Subscribe", errOf(f.svc.Subscribe(t.Context(), f.actor("admin"), chat.SubscribeParams{
				Subscriptions:      []chat.SubscriptionRequest{{Name: "pager"}},
				Principals:         chat.Principals{IDs: []users.ID{f.ids["admin"], f.ids["member"]}},
				NewChannelSettings: chat.NewChannelSettings{DefaultPushNotifications: true},
			})))
		}},
		{method: "Subscribe", name: "others to an existing channel", setup: general, run: func(t *testing.T, f *fixture) {
			mustDo(t, "Subscribe", errOf(f.svc.Subscribe(t.Context(), f.actor("admin"), chat.SubscribeParams{
				Subscriptions: []chat.SubscriptionRequest{{Name: "general"}},
				Principals:    chat.Principals{IDs: []users.ID{f.ids["guest"], f.ids["member"]}},
			})))
		}},
	}
	return append(cases, channelsMoreConsistencyCases(general, secret)...)
}

// channelLists are the register keys that hold channel records, with their stream_id.
var channelLists = []string{"subscriptions", "unsubscribed", "never_subscribed", "streams"}

func applyStream(t *testing.T, state, ev map[string]any) {
	switch ev["op"] {
	case "create":
		for _, s := range list(ev, "streams") {
			rec := s.(map[string]any)
			for _, key := range []string{"streams", "never_subscribed"} {
				if _, ok := state[key]; ok && findByID(list(state, key), "stream_id", num(rec["stream_id"])) < 0 {
					state[key] = insertByName(list(state, key), clone(rec))
				}
			}
		}
	case "delete":
		for _, s := range list(ev, "streams") {
			id := num(s.(map[string]any)["stream_id"])
			for _, key := range channelLists {
				if _, ok := state[key]; ok {
					state[key] = removeByID(list(state, key), "stream_id", id)
				}
			}
		}
	case "update":
		id := num(ev["stream_id"])
		prop, _ := ev["property"].(string)
		for _, key := range channelLists {
			l := list(state, key)
			if i := findByID(l, "stream_id", id); i >= 0 {
				rec := clone(l[i].(map[string]any))
				rec[prop] = ev["value"]
				for _, extra := range []string{"rendered_description", "history_public_to_subscribers", "is_web_public"} {
					if v, ok := ev[extra]; ok {
						rec[extra] = v
					}
				}
				l[i] = rec
				state[key] = sortByName(l)
			}
		}
	default:
		t.Fatalf("unknown stream op in %v", ev)
	}
}

func applySubscription(t *testing.T, state, ev map[string]any) {
	switch ev["op"] {
	case "add":
		for _, s := range list(ev, "subscriptions") {
			rec := s.(map[string]any)
			id := num(rec["stream_id"])
			for _, key := range []string{"unsubscribed", "never_subscribed"} {
				if _, ok := state[key]; ok {
					state[key] = removeByID(list(state, key), "stream_id", id)
				}
			}
			rec = clone(rec)
			// The harness registers without include_subscribers: like Zulip's clients, drop
			// the list the event always carries.
			delete(rec, "subscribers")
			if _, ok := state["subscriptions"]; ok {
				state["subscriptions"] = insertByName(removeByID(list(state, "subscriptions"), "stream_id", id), rec)
			}
			// The subscription carries the channel's current subscriber count.
			if l := list(state, "streams"); findByID(l, "stream_id", id) >= 0 {
				i := findByID(l, "stream_id", id)
				st := clone(l[i].(map[string]any))
				st["subscriber_count"] = rec["subscriber_count"]
				l[i] = st
			}
		}
	case "remove":
		for _, s := range list(ev, "subscriptions") {
			id := num(s.(map[string]any)["stream_id"])
			l := list(state, "subscriptions")
			if i := findByID(l, "stream_id", id); i >= 0 {
				// The removed user gets no peer_remove about itself: like Zulip's clients, it
				// drops itself from the channel's subscribers.
				rec := clone(l[i].(map[string]any))
				rec["subscriber_count"] = num(rec["subscriber_count"]) - 1
				state["subscriptions"] = removeByID(l, "stream_id", id)
				if _, ok := state["unsubscribed"]; ok {
					state["unsubscribed"] = insertByName(list(state, "unsubscribed"), rec)
				}
				if st := list(state, "streams"); findByID(st, "stream_id", id) >= 0 {
					j := findByID(st, "stream_id", id)
					srec := clone(st[j].(map[string]any))
					srec["subscriber_count"] = rec["subscriber_count"]
					st[j] = srec
				}
			}
		}
	case "update":
		l := list(state, "subscriptions")
		if i := findByID(l, "stream_id", num(ev["stream_id"])); i >= 0 {
			rec := clone(l[i].(map[string]any))
			rec[ev["property"].(string)] = ev["value"]
			l[i] = rec
		}
	case "peer_add", "peer_remove":
		ids := list(ev, "user_ids")
		for _, sid := range list(ev, "stream_ids") {
			for _, key := range channelLists {
				l := list(state, key)
				i := findByID(l, "stream_id", num(sid))
				if i < 0 {
					continue
				}
				rec := clone(l[i].(map[string]any))
				before, hadList := rec["subscribers"].([]any)
				var after []any
				if ev["op"] == "peer_add" {
					after = sortedUnion(before, ids)
				} else {
					after = without(before, ids)
				}
				if hadList {
					rec["subscribers"] = after
					rec["subscriber_count"] = float64(len(after))
				} else if ev["op"] == "peer_add" {
					rec["subscriber_count"] = num(rec["subscriber_count"]) + float64(len(ids))
				} else {
					rec["subscriber_count"] = num(rec["subscriber_count"]) - float64(len(ids))
				}
				l[i] = rec
			}
		}
	default:
		t.Fatalf("unknown subscription op in %v", ev)
	}
}

func sortByName(l []any) []any {
	slices.SortStableFunc(l, func(a, b any) int {
		return strings.Compare(a.(map[string]any)["name"].(string), b.(map[string]any)["name"].(string))
	})
	return l
}

func insertByName(l []any, rec map[string]any) []any {
	return sortByName(append(slices.Clone(l), rec))
}
