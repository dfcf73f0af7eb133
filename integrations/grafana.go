package integrations

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// grafanaIntegration is Grafana (zerver/webhooks/grafana): Grafana Alerting's payload (with
// alerts, Grafana 8 to 11: one message per alert, to the topic "[alertname]", or the alert's
// fingerprint without one) and the legacy alerts' (Grafana 7: to the alert's title).
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
	var msgs []Message
	for _, alert := range root.at("alerts").list() {
		status := alert.at("status").str()
		icon := ":checkbox:"
		switch status {
		case "firing":
			icon = ":alert:"
		case "resolved":
		default:
			alert.get("status").fail("is not firing or resolved")
			return nil
		}
		var b strings.Builder
		b.WriteString(grafanaStatus(icon, status))
		labels := alert.at("labels")
		var topic string
		if name := labels.get("alertname"); name.truthy() {
			topic = "[" + name.str() + "]"
			b.WriteString("**" + name.str() + "**\n\n")
		} else {
			// Without an alertname, the alert's fingerprint names the topic.
			topic = "[" + alert.at("fingerprint").str() + "]"
		}
		b.WriteString("This alert was fired at <time:" + alert.at("startsAt").str() + ">.")
		if end := alert.at("endsAt").str(); end != "0001-01-01T00:00:00Z" {
			b.WriteString("\n\nThis alert was resolved at <time:" + end + ">.")
		}
		if labels.truthy() {
			b.WriteString("\n\nLabels:\n" + grafanaItems(labels, val.str) + "\n")
		}
		if values := alert.get("values"); values.truthy() {
			b.WriteString("Values:\n" + grafanaItems(values, val.text) + "\n")
		} else if vs := alert.get("valueString"); vs.truthy() {
			b.WriteString("Values:\n" + vs.str() + "\n\n")
		}
		if annotations := alert.at("annotations"); annotations.truthy() {
			b.WriteString("Annotations:\n" + grafanaItems(annotations, val.str))
		}
		for _, link := range []struct {
			title string
			v     val
		}{{"Generator", alert.at("generatorURL")}, {"Silence", alert.at("silenceURL")}, {"Image", alert.get("imageURL")}} {
			if link.v.truthy() {
				b.WriteString("\n[" + link.title + "](" + link.v.str() + ")")
			}
		}
		msgs = append(msgs, Message{Topic: topic, Content: b.String(), Event: status})
	}
	return msgs
}

// grafanaItems lists an object's members as "- key: value" lines, each value as str writes it.
func grafanaItems(obj val, str func(val) string) string {
	var b strings.Builder
	for _, kv := range obj.items() {
		b.WriteString("- " + kv.key + ": " + str(kv.val) + "\n")
	}
	return b.String()
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
