package integrations

import (
	"errors"
	"testing"
)

// Zulip's zerver/webhooks/pingdom/tests.py.
func TestPingdomFixtures(t *testing.T) {
	t.Parallel()
	runFixtures(t, "pingdom", []fixture{
		{name: "http_up_to_down", want: msg("Test check status.",
			"Service someurl.com changed its HTTP status from UP to DOWN:\n\n``` quote\nNon-recoverable failure in name resolution\n```")},
		{name: "smtp_up_to_down", want: msg("SMTP check status.",
			"Service smtp.someurl.com changed its SMTP status from UP to DOWN:\n\n``` quote\nConnection refused\n```")},
		{name: "imap_down_to_up", want: msg("IMAP check status.", "Service imap.someurl.com changed its IMAP status from DOWN to UP.")},
		{name: "imap_down_to_up", only: []string{"HTTP*"}},
	})
}

// Zulip's zerver/webhooks/uptimerobot/tests.py.
func TestUptimeRobotFixtures(t *testing.T) {
	t.Parallel()
	runFixtures(t, "uptimerobot", []fixture{
		{name: "uptimerobot_monitor_down", want: msg("Web Server", "Web Server (server1.example.com) is DOWN (Host Is Unreachable).")},
		{name: "uptimerobot_monitor_up", want: msg("Mail Server",
			"Mail Server (server2.example.com) is back UP (Host Is Reachable).\nIt was down for 44 minutes and 37 seconds.")},
	})
	r := fixtureRequest(t, "uptimerobot", fixture{name: "uptimerobot_invalid_payload_with_missing_data"})
	in, _ := Lookup("uptimerobot")
	_, err := in.Run(r)
	var invalid *InvalidPayloadError
	if !errors.As(err, &invalid) || err.Error() != "Invalid payload" {
		t.Fatalf("Run = %v", err)
	}
	const want = "Hi there! Your bot Zulip Webhook Bot just received a UptimeRobot payload that is missing\n" +
		"some data that Zulip requires. This usually indicates a configuration issue\n" +
		"in your UptimeRobot webhook settings. Please make sure that you set the required parameters\n" +
		"when configuring the UptimeRobot webhook. Contact support@example.com if you\nneed further help!"
	if got := invalid.Notice("Zulip Webhook Bot", "support@example.com"); got != want {
		t.Errorf("notice = %q", got)
	}
}
