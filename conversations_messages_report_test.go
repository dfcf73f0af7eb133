package chat_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
)

// setModerationChannel creates the private channel "moderation" (the admin subscribed) and
// makes it the organization's moderation request channel.
func setModerationChannel(t *testing.T, f *fixture) channels.ID {
	t.Helper()
	c := mustChannel(t, f, "moderation", chat.NewChannelSettings{InviteOnly: true}, "admin")
	id := int64(c)
	mustDo(t, "UpdateRealm", errOf(f.svc.UpdateRealm(t.Context(), f.actor("admin"), chat.UpdateRealmParams{ModerationRequestChannelID: &id})))
	return c
}

func reportMessageConsistencyCases() []consistencyCase {
	return []consistencyCase{
		{method: "ReportMessage", name: "a channel message", setup: func(t *testing.T, f *fixture) {
			setModerationChannel(t, f)
			mustSendToChannel(t, f, "admin", mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "admin", "member", "guest"), "t", "rude words")
		}, run: func(t *testing.T, f *fixture) {
			id := fetchIDs(t, f, "member", chat.NarrowTerm{Operator: "topic", Operand: "t"})[0]
			mustDo(t, "ReportMessage", errOf(f.svc.ReportMessage(t.Context(), f.actor("member"), chat.ReportMessageParams{
				MessageID: id, ReportType: "harassment", Description: "not nice",
			})))
		}},
	}
}

func goldenReport(t *testing.T, f *fixture) {
	setModerationChannel(t, f)
	c := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "admin", "member")
	id := mustSendToChannel(t, f, "member", c, "t", "buy now")
	mustDo(t, "ReportMessage", errOf(f.svc.ReportMessage(t.Context(), f.actor("admin"), chat.ReportMessageParams{
		MessageID: id, ReportType: "spam",
	})))
}

func TestReportMessage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	verona := mustChannel(t, f, "Verona", chat.NewChannelSettings{}, "admin", "member", "owner")
	sent := f.clock.Now().UTC().Format("2006-01-02T15:04:05+00:00")
	msg := mustSendToChannel(t, f, "owner", verona, "party", "```\ncode\n```")
	dm := mustSendDirect(t, f, "admin", "psst", "member")
	group := mustSendDirect(t, f, "owner", "all of us", "member", "admin")
	report := func(who string, p chat.ReportMessageParams) error {
		_, err := f.svc.ReportMessage(ctx, f.actor(who), p)
		return err
	}
	wantMsg(t, "no moderation channel", report("member", chat.ReportMessageParams{MessageID: msg, ReportType: "spam"}),
		"Message reporting is not enabled in this organization.")
	mod := setModerationChannel(t, f)
	before := f.messageCount(t)
	for _, tc := range []struct {
		name string
		p    chat.ReportMessageParams
		msg  string
	}{
		{"unknown type", chat.ReportMessageParams{MessageID: msg, ReportType: "boring"}, "Invalid report_type"},
		{"other without explanation", chat.ReportMessageParams{MessageID: msg, ReportType: "other"}, "An explanation is required."},
		{"explanation too long", chat.ReportMessageParams{MessageID: msg, ReportType: "spam", Description: strings.Repeat("x", 1001)},
			"description is too long (limit: 1000 characters)"},
		{"unknown message", chat.ReportMessageParams{MessageID: 99999, ReportType: "spam"}, "Invalid message(s)"},
	} {
		wantMsg(t, tc.name, report("member", tc.p), tc.msg)
	}
	wantMsg(t, "a direct message of others", report("owner", chat.ReportMessageParams{MessageID: dm, ReportType: "spam"}), "Invalid message(s)")
	if after := f.messageCount(t); after != before {
		t.Fatalf("refused reports changed the message count: %d → %d", before, after)
	}

	f.clock.Advance(time.Minute)
	for _, r := range []struct {
		who string
		p   chat.ReportMessageParams
	}{
		{"member", chat.ReportMessageParams{MessageID: msg, ReportType: "norms", Description: "please look"}},
		{"member", chat.ReportMessageParams{MessageID: dm, ReportType: "spam"}},
		{"admin", chat.ReportMessageParams{MessageID: dm, ReportType: "other", Description: "my own"}},
		{"member", chat.ReportMessageParams{MessageID: group, ReportType: "inappropriate"}},
	} {
		if err := report(r.who, r.p); err != nil {
			t.Fatalf("%s reporting %d: %v", r.who, r.p.MessageID, err)
		}
	}
	owner, admin, member := f.ids["owner"], f.ids["admin"], f.ids["member"]
	ownerM, adminM, memberM := fmt.Sprintf("@_**Olive Owner|%d**", owner), fmt.Sprintf("@_**Adam Admin|%d**", admin), fmt.Sprintf("@_**Mia Member|%d**", member)
	dmSlug := fmt.Sprintf("%d,%d", min(admin, member), max(admin, member))
	want := map[string][]string{
		"Olive Owner moderation": {
			fmt.Sprintf("%s reported a message sent by %s at <time:%s>.\n```quote\n**Violates community norms**. please look\n```\n\n"+
				"```` spoiler Original message at #**Verona>party@%d**\n```\ncode\n```\n````", memberM, ownerM, sent, msg),
			fmt.Sprintf("%s reported a direct message sent by %s to %s and %s at <time:%s>.\n```quote\n**Inappropriate content**. \n```\n\n"+
				"``` spoiler [Original message](https://chat.example.com/#narrow/dm/%s/near/%d)\nall of us\n```",
				memberM, ownerM, adminM, memberM, sent, sortedSlug(owner, admin, member)+"-group", group),
		},
		"Adam Admin moderation": {
			fmt.Sprintf("%s reported a direct message sent by %s at <time:%s>.\n```quote\n**Spam**. \n```\n\n"+
				"``` spoiler [Original message](https://chat.example.com/#narrow/dm/%s/near/%d)\npsst\n```", memberM, adminM, sent, dmSlug, dm),
			fmt.Sprintf("%s reported a direct message sent by %s to %s at <time:%s>.\n```quote\n**Other reason**. my own\n```\n\n"+
				"``` spoiler [Original message](https://chat.example.com/#narrow/dm/%s/near/%d)\npsst\n```", adminM, adminM, memberM, sent, dmSlug, dm),
		},
	}
	for topic, contents := range want {
		if diff := cmp.Diff(contents, topicContents(t, f, mod, topic)); diff != "" {
			t.Errorf("reports in %q (-want +got):\n%s", topic, diff)
		}
	}
}

// sortedSlug joins user ids ascending with commas.
func sortedSlug(ids ...usersID) string {
	s := sortedUserIDs(ids)
	parts := make([]string, len(s))
	for i, id := range s {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ",")
}
