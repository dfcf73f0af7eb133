package integrations

import (
	"net/http"
	"testing"
)

// Zulip's zerver/webhooks/sentry/tests.py.
func TestSentryFixtures(t *testing.T) {
	t.Parallel()
	runFixtures(t, "sentry", []fixture{
		{name: "event_for_exception_python", want: msg("Exception: Custom exception!",
			"**New exception:** [Exception: Custom exception!](https://sentry.io/organizations/hypro999-personal-organization/issues/1635244907/events/599349254a1447a99774b5310711c1a8/)\n"+
				"```quote\n**level:** error\n**timestamp:** 2020-04-28 13:56:05\n**filename:** trigger-exception.py\n```\n\n"+
				"Traceback:\n```python3\n\n\n     if __name__ == \"__main__\":\n         sentry_sdk.init(dsn=SECRET_DSN)\n         try:\n"+
				"--->         raise Exception(\"Custom exception!\")\n         except Exception as e:\n             sentry_sdk.capture_exception(e)\n\n```")},
		{name: "event_for_message_golang", want: msg("A test message event from golang.",
			"**New message event:** [A test message event from golang.](https://sentry.io/organizations/hypro999-personal-organization/issues/1638844654/events/01ecb45633bc4f5ca940ada671124c8f/)\n"+
				"```quote\n**level:** info\n**timestamp:** 2020-04-30 06:14:13\n```")},
		{name: "event_for_message_python", want: msg("A simple message-based issue.",
			"**New message event:** [A simple message-based issue.](https://sentry.io/organizations/hypro999-personal-organization/issues/1635261062/events/8da63b42375e4d3b803c377fefb062f8/)\n"+
				"```quote\n**level:** info\n**timestamp:** 2020-04-28 14:05:04\n```")},
		{name: "event_for_message_node", want: msg("Test event from node.",
			"**New message event:** [Test event from node.](https://sentry.io/organizations/hypro999-personal-organization/issues/1638840427/events/6886bb1fe7ce4497b7836f6083d5fd34/)\n"+
				"```quote\n**level:** info\n**timestamp:** 2020-04-30 06:09:56\n```")},
		{name: "issue_assigned_to_individual", want: msg("A test message event from golang.",
			"Issue **A test message event from golang.** has now been assigned to **Hemanth V. Alluri** by **Hemanth V. Alluri**.")},
		{name: "issue_assigned_to_team", want: msg("Exception: program has entered an invalid state.",
			"Issue **Exception: program has entered an invalid state.** has now been assigned to **team lone-wolf** by **Hemanth V. Alluri**.")},
		{name: "issue_created_for_exception", want: msg("Exception: Custom exception!",
			"**New issue created:** Exception: Custom exception!\n```quote\n**level:** error\n**timestamp:** 2020-04-28 13:56:05\n**assignee:** No one\n```")},
		{name: "issue_created_for_message", want: msg("A simple message-based issue.",
			"**New issue created:** A simple message-based issue.\n```quote\n**level:** info\n**timestamp:** 2020-04-28 14:05:04\n**assignee:** No one\n```")},
		{name: "issue_ignored", want: msg("Exception: program has entered an invalid state.",
			"Issue **Exception: program has entered an invalid state.** was ignored by **Hemanth V. Alluri**.")},
		{name: "issue_resolved", want: msg("Exception: program has entered an invalid state.",
			"Issue **Exception: program has entered an invalid state.** was marked as resolved by **Hemanth V. Alluri**.")},
		{name: "issue_resolved", params: map[string]string{"topic": "errors"}, want: msg("errors",
			"Issue **Exception: program has entered an invalid state.** was marked as resolved by **Hemanth V. Alluri**.")},
	})
}

// TestSentryShapes: the plain webhook's payload, the deprecated plugin's, and the old Python
// SDK that Zulip refuses (tests.py's test_raven_sdk_python_event).
func TestSentryShapes(t *testing.T) {
	t.Parallel()
	in, _ := Lookup("sentry")
	run := func(body string) ([]Message, error) {
		return in.Run(&Request{Body: []byte(body), Header: http.Header{}})
	}
	msgs, err := run(`{"url": "https://sentry.io/organizations/o/issues/1/", "event": {"event_id": "e1", "timestamp": 1603322711.5,
		"title": "ValueError: x", "platform": "python", "version": "7", "level": "error", "logentry": {}}}`)
	want := "**New message event:** [ValueError: x](https://sentry.io/organizations/o/issues/1/events/e1/)\n```quote\n**level:** error\n**timestamp:** 2020-10-21 23:25:11\n```"
	if err != nil || len(msgs) != 1 || msgs[0].Content != want {
		t.Errorf("plain webhook: %v, %v", msgs, err)
	}
	msgs, err = run(`{"project_name": "zulip", "level": "error", "url": "https://sentry.io/zulip/zulip/issues/156699934/", "message": "This is an example python exception"}`)
	want = "New [issue](https://sentry.io/zulip/zulip/issues/156699934/) (level: ERROR):\n\n``` quote\nThis is an example python exception\n```"
	if err != nil || len(msgs) != 1 || msgs[0].Content != want || msgs[0].Topic != "zulip" {
		t.Errorf("deprecated: %v, %v", msgs, err)
	}
	_, err = run(`{"data": {"event": {"title": "x", "platform": "python", "version": "5", "level": "error", "web_url": "u", "datetime": "d", "logentry": {}}}}`)
	if err == nil || err.Error() != "The 'Raven SDK' event isn't currently supported by the Sentry webhook; ignoring" {
		t.Errorf("raven: %v", err)
	}
}
