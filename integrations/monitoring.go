package integrations

import (
	"fmt"
	"slices"
	"strings"
)

// pingdomIntegration is Pingdom (zerver/webhooks/pingdom): a check's change of state, to the
// topic "{check name} status.".
var pingdomIntegration = &Integration{
	Name: "pingdom", DisplayName: "Pingdom", ClientName: "Pingdom",
	AllEventTypes: pingdomCheckTypes,
	format:        formatPingdom,
}

var pingdomCheckTypes = []string{"HTTP", "HTTP_CUSTOM", "HTTPS", "SMTP", "POP3", "IMAP", "PING", "DNS", "UDP", "PORT_TCP"}

func formatPingdom(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	check := root.at("check_type").str()
	if p.err == nil && !slices.Contains(pingdomCheckTypes, check) {
		return nil, unsupported(check)
	}
	current, previous := root.at("current_state").str(), root.at("previous_state").str()
	body := fmt.Sprintf("Service %s changed its %s status from %s to %s", root.at("check_params").at("hostname").str(), check, previous, current)
	if current == "DOWN" && previous == "UP" {
		body += ":\n\n``` quote\n" + root.at("long_description").str() + "\n```"
	} else {
		body += "."
	}
	return p.done([]Message{{Topic: root.at("check_name").str() + " status.", Content: body, Event: check}})
}

// uptimeRobotIntegration is UptimeRobot (zerver/webhooks/uptimerobot): a monitor down or back
// up. A payload without the fields Zulip asks for tells the bot's owner how to set them.
var uptimeRobotIntegration = &Integration{
	Name: "uptimerobot", DisplayName: "UptimeRobot", ClientName: "UptimeRobot",
	AllEventTypes: []string{"up", "down"},
	format:        formatUptimeRobot,
}

func formatUptimeRobot(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	kind := root.get("alert_type_friendly_name").optStr()
	name, url, details := root.at("monitor_friendly_name").str(), root.at("monitor_url").str(), root.at("alert_details").str()
	var body string
	switch kind {
	case "Up":
		body = fmt.Sprintf("%s (%s) is back UP (%s).\nIt was down for %s.", name, url, details, root.at("alert_friendly_duration").str())
	case "Down":
		body = fmt.Sprintf("%s (%s) is DOWN (%s).", name, url, details)
	default:
		root.get("alert_type_friendly_name").fail("is not Up or Down")
	}
	if p.err != nil {
		return nil, &InvalidPayloadError{Notice: uptimeRobotNotice}
	}
	return []Message{{Topic: name, Content: body, Event: strings.ToLower(kind)}}, nil
}

// uptimeRobotNotice is Zulip's MISCONFIGURED_PAYLOAD_ERROR_MESSAGE.
func uptimeRobotNotice(botName, supportEmail string) string {
	return "Hi there! Your bot " + botName + " just received a UptimeRobot payload that is missing\n" +
		"some data that Zulip requires. This usually indicates a configuration issue\n" +
		"in your UptimeRobot webhook settings. Please make sure that you set the required parameters\n" +
		"when configuring the UptimeRobot webhook. Contact " + supportEmail + " if you\nneed further help!"
}
