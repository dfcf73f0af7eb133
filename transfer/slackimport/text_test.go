package slackimport

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// TestConvertFormattingZulipFixture runs Zulip's own table of markup conversions
// (testdata/slack_message_conversion.json) through the text conversion.
func TestConvertFormattingZulipFixture(t *testing.T) {
	t.Parallel()
	var fixture struct {
		Tests []struct {
			Name   string `json:"name"`
			Input  string `json:"input"`
			Output string `json:"conversion_output"`
		} `json:"regular_tests"`
	}
	mustReadJSON(t, "testdata/slack_message_conversion.json", &fixture)
	if len(fixture.Tests) < 19 {
		t.Fatalf("fixture has %d cases", len(fixture.Tests))
	}
	c := &converter{}
	for _, tc := range fixture.Tests {
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			got, mentioned, _ := c.convertText(tc.Input)
			if got != tc.Output {
				t.Errorf("convertText(%q) = %q, want %q", tc.Input, got, tc.Output)
			}
			if len(mentioned) != 0 {
				t.Errorf("mentioned %v, want none", mentioned)
			}
		})
	}
}

func TestConvertTextMentionsAndLinks(t *testing.T) {
	t.Parallel()
	c := &converter{
		users: map[string]mentionTarget{
			"U061A1R2R": {fullName: "Jon", slackName: "jon", zulipID: 43},
			"U061A5N1G": {fullName: "Jane", slackName: "jane doe", zulipID: 24},
		},
		channels: map[string]string{"C5Z73A7RA": "general"},
	}
	tests := []struct {
		name, in, want string
		mentioned      []int64
		hasLink        bool
	}{
		{"user mention", "<@U061A1R2R> please reply", "@**Jon** please reply", []int64{43}, false},
		{"mention with matching short name", "hi <@U061A1R2R|jon>!", "hi @**Jon**!", []int64{43}, false},
		{"mention with another short name stays", "hi <@U061A1R2R|bob>", "hi <@U061A1R2R|bob>", nil, false},
		{"unknown user stays", "hi <@U999>", "hi <@U999>", nil, false},
		{"two mentions in one word", "<@U061A1R2R><@U061A5N1G>", "@**Jon**@**Jane**", []int64{43, 24}, false},
		{"channel link", "see <#C5Z73A7RA|general>", "see #**general**", nil, false},
		{"channel link without name", "see <#C5Z73A7RA>", "see #**general**", nil, false},
		{"workspace mentions", "<!everyone> <!channel> <!here>", "@**all** @**all** @**all**", nil, false},
		{"link with label", "<https://chat.zulip.org|qux>", "[qux](https://chat.zulip.org)", nil, true},
		{"bare link", "go to <https://foo.com/a?b=c>", "go to https://foo.com/a?b=c", nil, true},
		{"mailto", "<mailto:jon@example.com|jon@example.com>", "mailto:jon@example.com", nil, true},
		{"formatting and link", "*foo* _bar_ ~baz~ <https://chat.zulip.org|qux>", "**foo** *bar* ~~baz~~ [qux](https://chat.zulip.org)", nil, true},
		{"entities stay", "a &gt; b", "a &gt; b", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, mentioned, hasLink := c.convertText(tc.in)
			if got != tc.want || hasLink != tc.hasLink {
				t.Errorf("convertText(%q) = %q, link %v; want %q, link %v", tc.in, got, hasLink, tc.want, tc.hasLink)
			}
			if diff := cmp.Diff(tc.mentioned, mentioned); diff != "" {
				t.Errorf("mentioned (-want +got):\n%s", diff)
			}
		})
	}
}

// The messages of an integration bot, from Zulip's
// test_channel_message_to_zerver_message_with_integration_bots.
func TestMessageMarkupIntegrationBots(t *testing.T) {
	t.Parallel()
	const taskLinks = "_<https://app.clickup.com/25567147/v/s/43687023|Task one> &gt; <https://app.clickup.com/25567147/v/li/901601846060|dsad>_"
	const taskMarkdown = "*[Task one](https://app.clickup.com/25567147/v/s/43687023) &gt; [dsad](https://app.clickup.com/25567147/v/li/901601846060)*"
	tests := []struct {
		name        string
		text        string
		blocks      string
		attachments string
		want        string
	}{
		{
			name:        "attachment with title link and text",
			attachments: `[{"id":1,"fallback":"dsdaddsa","text":"Added assignee Pieter\n\nby Pieter\n` + jsonEscape(taskLinks) + `","title":"dsdaddsa","title_link":"https://app.clickup.com/t/86cv0v5my"}]`,
			want:        "## [dsdaddsa](https://app.clickup.com/t/86cv0v5my)\n\nAdded assignee Pieter\n\nby Pieter\n" + taskMarkdown,
		},
		{
			name: "attachment of section blocks",
			attachments: `[{"id":1,"blocks":[` +
				`{"type":"section","text":{"type":"mrkdwn","text":"<https://app.clickup.com/t/86cv0v5my| dsda>"}},` +
				`{"type":"section","text":{"type":"mrkdwn","text":"Task Created\nBy Pieter\n"}},` +
				`{"type":"section","fields":[{"type":"mrkdwn","text":"` + jsonEscape(taskLinks) + `"}]}]}]`,
			want: "[ dsda](https://app.clickup.com/t/86cv0v5my)\n\nTask Created\nBy Pieter\n\n" + taskMarkdown,
		},
		{
			name:        "text, then the attachment; rich_text blocks left out",
			text:        "Hello there, I am a basic rich text block!",
			blocks:      `[{"type":"rich_text","elements":[{"type":"rich_text_section","elements":[{"type":"text","text":"Hello there, I am a basic rich text block!"}]}]}]`,
			attachments: `[{"id":1,"text":"New comment:  where can I buy it?","title":"Buy Ingredients!","title_link":"https://app.clickup.com/t/86cuy8e4y?comment=90160026391938"}]`,
			want:        "Hello there, I am a basic rich text block!\n## [Buy Ingredients!](https://app.clickup.com/t/86cuy8e4y?comment=90160026391938)\n\nNew comment:  where can I buy it?",
		},
		{
			name: "context images and text, actions left out",
			text: "`render_block` will delete me, help!\nHello, `render_block` recognizes me.",
			attachments: `[{"id":1,"blocks":[` +
				`{"type":"section","text":{"type":"mrkdwn","text":"*<https://app.clickup.com/t/25567147/86cw30wf2|asd>*"}},` +
				`{"type":"context","elements":[{"type":"image","image_url":"https://search.clickup-au.com/media/app-icons/clickup/logo_alpha.png","alt_text":"Cookie / The Goodiest of Cstdddddsdd / dds"},{"type":"mrkdwn","text":"in dds"},{"type":"image","image_url":"https://search.clickup-au.com/media/app-icons/clickup/status.png","alt_text":"Status"},{"type":"mrkdwn","text":"To Do"}]},` +
				`{"type":"actions","elements":[{"type":"button","text":{"type":"plain_text","text":"View task"}}]}]}]`,
			want: "`render_block` will delete me, help!\nHello, `render_block` recognizes me.\n**[asd](https://app.clickup.com/t/25567147/86cw30wf2)**\n\n" +
				"[Cookie / The Goodiest of Cstdddddsdd / dds](https://search.clickup-au.com/media/app-icons/clickup/logo_alpha.png)\n\nin dds\n\n" +
				"[Status](https://search.clickup-au.com/media/app-icons/clickup/status.png)\n\nTo Do",
		},
		{
			name:   "header, divider, image and a two-column section",
			blocks: `[{"type":"header","text":{"type":"plain_text","text":"Report"}},{"type":"divider"},{"type":"image","image_url":"https://e.com/a.png","alt_text":"chart"},{"type":"section","fields":[{"type":"mrkdwn","text":"a|b"},{"type":"mrkdwn","text":"c\nd"},{"type":"mrkdwn","text":"e"}]}]`,
			want:   "## Report\n----\n[chart](https://e.com/a.png)\n| | |\n|-|-|\n| a b | c d |\n| e |  |",
		},
		{
			name:        "attachment fields, image, footer and time",
			attachments: `[{"pretext":"pre","fields":[{"title":"Priority","value":"High"},{"title":"Only title"},{"value":"only value"}],"image_url":"https://e.com/i.png","footer":"foot","ts":"1700000000.5"}]`,
			want:        "pre\n\n**Priority**: High\n**Only title**\nonly value\n\n[](https://e.com/i.png)\n\nfoot\n\n<time:2023-11-14T22:13:20+00:00>",
		},
		{
			name:   "malformed blocks render as nothing",
			blocks: `[{"type":"section","text":"not an object"},{"type":"header"},42]`,
			want:   "",
		},
	}
	c := &converter{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var blocks, atts []json.RawMessage
			if tc.blocks != "" {
				if err := json.Unmarshal([]byte(tc.blocks), &blocks); err != nil {
					t.Fatal(err)
				}
			}
			if tc.attachments != "" {
				if err := json.Unmarshal([]byte(tc.attachments), &atts); err != nil {
					t.Fatal(err)
				}
			}
			got, _, _ := c.convertText(messageMarkup(tc.text, blocks, atts))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("markdown (-want +got):\n%s", diff)
			}
		})
	}
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// FuzzConvertText checks that any message text converts without panicking into valid UTF-8
// that keeps its words, and that mentions name only known users.
func FuzzConvertText(f *testing.F) {
	for _, s := range []string{
		"*bold* _it_ ~st~", "<@U1|jon> <#C1|general> <!here>", "<https://a.b/c|d> <mailto:a@b.co>",
		"\n*abc*\n_helo_\n~stike~\n", "***word***", "(*text*} :* bold*.", "\xff*\x00_", "<@U1><@U1>",
	} {
		f.Add(s)
	}
	c := &converter{
		users:    map[string]mentionTarget{"U1": {fullName: "Jon", slackName: "jon", zulipID: 7}},
		channels: map[string]string{"C1": "general"},
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		got, mentioned, _ := c.convertText(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("convertText(%q) = %q, not valid UTF-8", s, got)
		}
		for _, id := range mentioned {
			if id != 7 {
				t.Fatalf("convertText(%q) mentions %d", s, id)
			}
		}
		if utf8.ValidString(s) && !strings.ContainsAny(s, "*_~<") && got != s {
			t.Fatalf("convertText(%q) = %q, want it unchanged", s, got)
		}
	})
}

// FuzzMessageMarkup checks that any blocks and attachments (untrusted JSON of integrations)
// render without panicking into valid UTF-8.
func FuzzMessageMarkup(f *testing.F) {
	f.Add("", `[{"type":"section","text":{"type":"mrkdwn","text":"*hi*"},"fields":[{"type":"mrkdwn","text":"a"},{"type":"mrkdwn","text":"b"},{"type":"mrkdwn","text":"c"}],"accessory":{"type":"image","image_url":"u","alt_text":"a"}}]`,
		`[{"title":"t","title_link":"l","fields":[{"title":"x"}],"blocks":[{"type":"divider"}],"ts":"12.5"}]`)
	f.Add("text", `[{"type":"context","elements":[{"type":"image"},{"type":"mrkdwn","text":"x"}]},{"type":"header","text":null}]`, `[{"ts":1e300},{"ts":"x"},null]`)
	f.Fuzz(func(t *testing.T, text, blocks, attachments string) {
		var bs, as []json.RawMessage
		_ = json.Unmarshal([]byte(blocks), &bs)
		_ = json.Unmarshal([]byte(attachments), &as)
		got := messageMarkup(text, bs, as)
		if utf8.ValidString(text) && utf8.ValidString(blocks) && utf8.ValidString(attachments) && !utf8.ValidString(got) {
			t.Fatalf("markup %q is not valid UTF-8", got)
		}
		if strings.TrimSpace(text) != "" && !strings.HasPrefix(got, strings.TrimSpace(text)) {
			t.Fatalf("markup %q does not start with the text %q", got, text)
		}
	})
}
