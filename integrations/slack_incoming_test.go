package integrations

import (
	"fmt"
	"testing"
)

// Zulip's zerver/webhooks/slack_incoming/tests.py.
func TestSlackIncomingFixtures(t *testing.T) {
	t.Parallel()
	const image = "[](https://pbs.twimg.com/profile_images/625633822235693056/lNGUneLX_400x400.jpg)"
	const review = "\n\n[Overlook Hotel](%s) \n :star: \n Doors had too many axe holes, guest in room 237 was far too rowdy, whole place felt stuck in the 1920s.\n\n" +
		"[Haunted hotel image](https://is5-ssl.mzstatic.com/image/thumb/Purple3/v4/d3/72/5c/d3725c8f-c642-5d69-1904-aa36e4297885/source/256x256bb.jpg)\n\n**Average Rating**\n1.0"
	runFixtures(t, "slack_incoming", []fixture{
		{name: "text", want: msg("(no topic)", "Hello, world.")},
		{name: "null_text"},
		{name: "urlencoded_text.txt", form: true, want: msg("devops", ":zap: chris has started deploying project tag v0.0.2rc10 to staging")},
		{name: "actions", want: msg("C1H9RESGL", "Danny Torrence left the following *review* for your property:"+
			fmt.Sprintf(review, "https://google.com"))},
		{name: "blocks", want: msg("(no topic)", "Danny Torrence left the following review for your property:"+
			fmt.Sprintf(review, "https://example.com"))},
		{name: "attachment", want: msg("prometheus-alerts", slackAttachmentWant)},
		{name: "complicated", want: msg("(no topic)", slackComplicatedWant)},
		{name: "attachment_blocks", want: msg("(no topic)", "This is a section block with an accessory image.\n\n"+
			"[cute cat](https://pbs.twimg.com/profile_images/625633822235693056/lNGUneLX_400x400.jpg)\n\n"+
			"This is a section block with a button.\n\n| | |\n|-|-|\n| one | two |\n| three | four |\n| five |  |")},
		{name: "attachment_fields", want: msg("(no topic)", "Build bla bla succeeded\n\n**Requested by**: Some user\n"+
			"**Duration**: 00:02:03\n**Build pipeline**: ConsumerAddressModule\n**Title with null value**\n"+
			"**Title without value**\nValue with null title\nValue without title")},
		{name: "attachment_pieces", want: msg("(no topic)", "## Test\n\n"+image+"\n\n<time:2022-06-23T00:48:26+00:00>")},
		{name: "attachment_pieces_title_null", want: msg("(no topic)",
			"Sample pretext.\n\nSample text.\n\n"+image+"\n\nSample footer.\n\n<time:2022-06-23T00:48:26+00:00>")},
		{name: "attachment_pieces_image_url_null", want: msg("(no topic)",
			"## [Sample title.](https://www.google.com)\n\nSample pretext.\n\nSample text.\n\nSample footer.\n\n<time:2022-06-23T00:48:26+00:00>")},
		{name: "attachment_pieces_ts_null", want: msg("(no topic)",
			"## [Sample title.](https://www.google.com)\n\nSample pretext.\n\nSample text.\n\n"+image+"\n\nSample footer.")},
		{name: "attachment_pieces_text_null", want: msg("(no topic)",
			"## [Sample title.](https://www.google.com)\n\nSample pretext.\n\n"+image+"\n\nSample footer.\n\n<time:2022-06-23T00:48:26+00:00>")},
		{name: "attachment_pieces_pretext_null", want: msg("(no topic)",
			"## [Sample title.](https://www.google.com)\n\nSample text.\n\n"+image+"\n\nSample footer.\n\n<time:2022-06-23T00:48:26+00:00>")},
		{name: "attachment_pieces_footer_null", want: msg("(no topic)",
			"## [Sample title.](https://www.google.com)\n\nSample pretext.\n\nSample text.\n\n"+image+"\n\n<time:2022-06-23T00:48:26+00:00>")},
		{name: "attachment_pieces_title_link_null", want: msg("(no topic)",
			"## Sample title.\n\nSample pretext.\n\nSample text.\n\n"+image+"\n\nSample footer.\n\n<time:2022-06-23T00:48:26+00:00>")},
		{name: "attachment_pieces_all_null"},
		{name: "text", params: map[string]string{"topic": "custom"}, want: msg("custom", "Hello, world.")},
	})
}

// TestSlackFormatting is tests.py's test_message_formatting.
func TestSlackFormatting(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"some *foo* word": "some **foo** word",
		"*foo*":           "**foo**",
		"*foo* *bar*":     "**foo** **bar**",
		"*foo*a*bar*":     "*foo*a*bar*",
		"some _foo_ word": "some *foo* word",
	} {
		if got := slackFormatting(in); got != want {
			t.Errorf("slackFormatting(%q) = %q, want %q", in, got, want)
		}
	}
}

const slackAttachmentWant = `## [[FIRING:2] InstanceDown for api-server (env="prod", severity="critical")](https://alertmanager.local//#/alerts?receiver=default)

:chart_with_upwards_trend: **[Graph](http://generator.local/1)**   :notebook: **[Runbook](https://runbook.local/1)**

**Alert details**:
**Alert:** api-server down - ` + "`critical`" + `
**Description:** api-server at 1.2.3.4:8080 couldn't be scraped **Details:**
   • **alertname:** ` + "`InstanceDown`" + `
   • **env:** ` + "`prod`" + `
   • **instance:** ` + "`1.2.3.4:8080`" + `
   • **job:** ` + "`api-server`" + `
   • **severity:** ` + "`critical`" + `

**Alert:** api-server down - ` + "`critical`" + `
**Description:** api-server at 1.2.3.4:8081 couldn't be scraped **Details:**
   • **alertname:** ` + "`InstanceDown`" + `
   • **env:** ` + "`prod`" + `
   • **instance:** ` + "`1.2.3.4:8081`" + `
   • **job:** ` + "`api-server`" + `
   • **severity:** ` + "`critical`"

const slackComplicatedWant = "## Hello from TaskBot\n\n" +
	"Hey there 👋 I'm TaskBot. I'm here to help you create and manage tasks in Slack.\nThere are two ways to quickly create tasks:\n\n" +
	"**1️⃣ Use the `/task` command**. Type `/task` followed by a short description of your tasks and I'll ask for a due date (if applicable). Try it out by using the `/task` command in this channel.\n\n" +
	"**2️⃣ Use the *Create a Task* action.** If you want to create a task from a message, select `Create a Task` in a message's context menu. Try it out by selecting the *Create a Task* action for this message (shown below).\n\n" +
	"[image1](https://api.slack.com/img/blocks/bkb_template_images/onboardingComplex.jpg)\n\n" +
	"➕ To start tracking your team's tasks, **add me to a channel** and I'll introduce myself. I'm usually added to a team or project channel. Type `/invite @TaskBot` from the channel or pick a channel on the right.\n\n" +
	"----\n\n" +
	"[cute cat](https://pbs.twimg.com/profile_images/625633822235693056/lNGUneLX_400x400.jpg)\n\n" +
	"👀 View all tasks with `/task list`\n\n" +
	"❓Get help at any time with:\n- `/task help`, or\n- type **help** in a DM with me"

// TestSlackTime checks an attachment's ts as Zulip's render_attachment writes it: ISO 8601 in
// UTC from an integer, or from a string of a float (which Slack sometimes sends, truncated
// as Python's int() does); anything else is an anomalous payload.
func TestSlackTime(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		body, want string
		fails      bool
	}{
		{body: `1655945306`, want: "<time:2022-06-23T00:48:26+00:00>"},
		{body: `"1655945306.105159"`, want: "<time:2022-06-23T00:48:26+00:00>"},
		{body: `" 0 "`, want: "<time:1970-01-01T00:00:00+00:00>"},
		{body: `1655945306.5`, fails: true},
		{body: `"soon"`, fails: true},
		{body: `"NaN"`, fails: true},
		{body: `1e300`, fails: true},
		{body: `99999999999999`, fails: true},
		{body: `true`, fails: true},
	} {
		v, p, err := decode([]byte(c.body))
		if err != nil {
			t.Fatalf("decode(%s): %v", c.body, err)
		}
		got := slackTime(v)
		if _, err := p.done(nil); (err != nil) != c.fails || (!c.fails && got != c.want) {
			t.Errorf("slackTime(%s) = %q, %v; want %q, failing %v", c.body, got, err, c.want, c.fails)
		}
	}
}
