package integrations

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// grafanaIntegration is Grafana (zerver/webhooks/grafana): Grafana Alerting's payload (with
// alerts: one message per notification, to the topic "[STATUS:count]") and the legacy
// alerts' (to the alert's title).
var grafanaIntegration = &Integration{
	Name: "grafana", DisplayName: "Grafana", ClientName: "Grafana",
	AllEventTypes: []string{"ok", "pending", "alerting", "paused", "firing", "resolved"},
	format:        formatGrafana,
}

func formatGrafana(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	if root.has("alerts") {
		return p.done(grafanaAlerting(root))
	}
	return p.done(grafanaLegacy(root))
}

// grafanaStatus is Zulip's ALERT_STATUS_TEMPLATE.
func grafanaStatus(icon, state string) string {
	return icon + " **" + strings.ToUpper(state) + "**\n\n"
}

func grafanaAlerting(root val) []Message {
	status := root.at("status").str()
	if status != "firing" && status != "resolved" {
		root.get("status").fail("is not firing or resolved")
		return nil
	}
	alerts := root.at("alerts").list()
	icon := ":alert:"
	if status == "resolved" {
		icon = ":checkbox:"
	}
	var b strings.Builder
	b.WriteString(grafanaStatus(icon, status))
	if root.at("message").truthy() {
		b.WriteString(root.at("message").str() + "\n")
	}
	for i, alert := range alerts {
		fmt.Fprintf(&b, "\n---\n**Alert %d**", i+1)
		labels := alert.at("labels")
		if name := labels.get("alertname"); name.truthy() {
			b.WriteString(": " + name.str() + ".")
		}
		fmt.Fprintf(&b, "\n\nThis alert was fired at <time:%s>.\n", alert.at("startsAt").str())
		if end := alert.at("endsAt").str(); end != "0001-01-01T00:00:00Z" {
			fmt.Fprintf(&b, "\nThis alert was resolved at <time:%s>.\n\n", end)
		}
		for _, section := range []struct {
			title string
			v     val
		}{{"Labels", labels}, {"Annotations", alert.at("annotations")}} {
			if !section.v.truthy() {
				continue
			}
			b.WriteString(section.title + ":\n")
			for _, kv := range section.v.items() {
				b.WriteString("- " + kv.key + ": " + kv.val.str() + "\n")
			}
			b.WriteString("\n")
		}
	}
	if t := root.at("truncatedAlerts"); t.truthy() {
		b.WriteString(t.integer() + " alert(s) truncated.\n")
	}
	topic := "[" + strings.ToUpper(status) + ":" + strconv.Itoa(len(alerts)) + "]"
	return []Message{{Topic: topic, Content: b.String(), Event: status}}
}

var grafanaLegacyStates = []string{"no_data", "paused", "alerting", "ok", "pending", "unknown"}

func grafanaLegacy(root val) []Message {
	topic := root.at("title").str()
	var matches strings.Builder
	if m := root.get("evalMatches"); m.ok && m.v != nil {
		for _, match := range m.list() {
			value := match.at("value")
			if _, isNum := value.v.(json.Number); !isNum && value.v != nil {
				value.fail("is not a number")
			}
			fmt.Fprintf(&matches, "**%s:** %s\n", match.at("metric").str(), value.text())
		}
	}
	message := ""
	if root.has("message") {
		message = root.get("message").str() + "\n\n"
	}
	state := root.at("state").str()
	if !slices.Contains(grafanaLegacyStates, state) {
		root.get("state").fail("is not a Grafana state")
	}
	icon := ":info:"
	switch state {
	case "alerting":
		icon = ":alert:"
	case "ok":
		icon = ":squared_ok:"
	}
	body := fmt.Sprintf("%s[%s](%s)\n\n%s%s", grafanaStatus(icon, state), root.at("ruleName").str(), root.at("ruleUrl").str(),
		message, matches.String())
	if root.has("imageUrl") {
		body += "\n[Click to view visualization](" + root.get("imageUrl").str() + ")"
	}
	return []Message{{Topic: topic, Content: pyStrip(body), Event: state}}
}
